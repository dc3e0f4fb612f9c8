import { ERROR_STATUS } from "../errors.js";

/**
 * /docs: a self-contained HTML page rendered on the server from the OpenAPI
 * document — inline CSS, no scripts, no external assets — so it works inside
 * the executable on an air-gapped network.
 */
type Json = Record<string, any>;

const esc = (s: unknown) =>
  String(s ?? "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");

/** Backticks to <code>, blank lines to paragraphs, pipe tables to HTML tables. */
function prose(text: string | undefined): string {
  if (!text) return "";
  return text
    .split(/\n\s*\n/)
    .map((block) => {
      const lines = block.trim().split("\n");
      if (lines.length >= 2 && lines.every((l) => l.trim().startsWith("|"))) {
        const cells = (l: string) =>
          l
            .trim()
            .replace(/^\||\|$/g, "")
            .split("|")
            .map((c) => inline(c.trim()));
        const [head, , ...rows] = lines;
        return `<table><tr>${cells(head)
          .map((c) => `<th>${c}</th>`)
          .join("")}</tr>${rows
          .map(
            (r) =>
              `<tr>${cells(r)
                .map((c) => `<td>${c}</td>`)
                .join("")}</tr>`,
          )
          .join("")}</table>`;
      }
      return `<p>${inline(block)}</p>`;
    })
    .join("");
}

const inline = (s: string) => esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");

function refName(ref: string): string {
  return ref.split("/").pop()!;
}

function typeOf(schema: Json | undefined): string {
  if (!schema) return "";
  if (schema.$ref) return `<a href="#schema-${esc(refName(schema.$ref))}">${esc(refName(schema.$ref))}</a>`;
  if (schema.anyOf || schema.oneOf) return (schema.anyOf ?? schema.oneOf).map(typeOf).join(" | ");
  if (schema.enum) return schema.enum.map((v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`).join(" | ");
  if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  const t = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type ?? "any");
  if (t === "array") return `array of ${typeOf(schema.items)}`;
  if (t === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object" && !schema.properties) {
    return `object of ${typeOf(schema.additionalProperties)}`;
  }
  return esc(t) + (schema.format ? ` <small>(${esc(schema.format)})</small>` : "");
}

function constraints(s: Json): string {
  const out: string[] = [];
  for (const k of ["minimum", "maximum", "minLength", "maxLength", "pattern", "default"]) if (s[k] !== undefined) out.push(`${k} ${JSON.stringify(s[k])}`);
  return out.length ? `<small>${esc(out.join(", "))}</small>` : "";
}

function propertiesTable(schema: Json): string {
  const props: Json = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  if (Object.keys(props).length === 0) return `<p>${typeOf(schema)}</p>`;
  const rows = Object.entries(props)
    .map(
      ([name, p]: [string, Json]) =>
        `<tr><td><code>${esc(name)}</code></td><td>${typeOf(p)}${p.nullable || (Array.isArray(p.type) && p.type.includes("null")) ? "" : ""}</td><td>${required.has(name) ? "yes" : ""}</td><td>${prose(p.description)} ${constraints(p)}</td></tr>`,
    )
    .join("");
  const extra = schema.additionalProperties === false ? "<p><small>No other properties allowed.</small></p>" : "";
  return `<table><tr><th>field</th><th>type</th><th>required</th><th>notes</th></tr>${rows}</table>${extra}`;
}

function content(c: Json | undefined): string {
  if (!c) return "";
  return Object.entries(c)
    .map(([media, m]: [string, Json]) => {
      const s: Json = m.schema ?? {};
      const body = s.$ref || s.anyOf || s.oneOf ? `<p>${typeOf(s)}</p>` : propertiesTable(s);
      return `<div class="media"><code>${esc(media)}</code>${body}${example(m.example)}</div>`;
    })
    .join("");
}

/** An example body as it goes over the wire: text bodies as they are, JSON pretty-printed. */
function example(value: unknown): string {
  if (value === undefined) return "";
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  return `<details class="example"><summary>Example</summary><pre>${esc(text)}</pre></details>`;
}

function operation(path: string, method: string, op: Json, servers: Json[] | undefined): string {
  const base = servers?.[0]?.url === "/" ? "" : "/api/v1";
  const params = (op.parameters ?? []) as Json[];
  const paramTable = params.length
    ? `<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>type</th><th>required</th><th>notes</th></tr>${params
        .map(
          (p) =>
            `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${typeOf(p.schema)} ${constraints(p.schema ?? {})}</td><td>${p.required ? "yes" : ""}</td><td>${prose(p.description ?? p.schema?.description)}</td></tr>`,
        )
        .join("")}</table>`
    : "";
  const body = op.requestBody ? `<h4>Request body</h4>${content(op.requestBody.content)}` : "";
  const responses = (Object.entries(op.responses ?? {}) as [string, Json][])
    .map(([code, r]: [string, Json]) => `<tr><td class="code s${code[0]}">${esc(code)}</td><td>${prose(r.description)}${content(r.content)}</td></tr>`)
    .join("");
  const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, "-");
  return `<section class="op" id="${id}"><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(base + path)}</code></h3>
<p><strong>${esc(op.summary)}</strong></p>${prose(op.description)}${paramTable}${body}<h4>Responses</h4><table>${responses}</table></section>`;
}

export function renderDocsPage(doc: Json): string {
  const ops: string[] = [];
  const toc: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {}) as [string, Json][]) {
    for (const method of ["get", "post", "put", "patch", "delete"]) {
      const op = item[method];
      if (!op) continue;
      const id = `${method}-${path}`.replace(/[^a-z0-9]+/gi, "-");
      toc.push(`<li><a href="#${id}"><span class="m ${method}">${method.toUpperCase()}</span> ${esc(path)}</a> ${esc(op.summary ?? "")}</li>`);
      ops.push(operation(path, method, op, item.servers));
    }
  }
  const schemas = (Object.entries(doc.components?.schemas ?? {}) as [string, Json][])
    .map(
      ([name, s]: [string, Json]) =>
        `<section class="schema" id="schema-${esc(name)}"><h3>${esc(name)}</h3>${prose(s.description)}${propertiesTable(s)}${nested(s)}</section>`,
    )
    .join("");
  const errorRows = Object.entries(ERROR_STATUS)
    .filter(([code]) => code !== "invalid_config")
    .map(([code, status]) => `<tr><td><code>${esc(code)}</code></td><td>${status}</td></tr>`)
    .join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info?.title)} ${esc(doc.info?.version)}</title><style>${CSS}</style></head><body><main>
<h1>${esc(doc.info?.title)} <small>${esc(doc.info?.version)}</small></h1>${prose(doc.info?.description)}
<p>Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a> (OpenAPI ${esc(doc.openapi)}).</p>
<h2>Authentication</h2><p>Send the API key as <code>Authorization: Bearer cc_&lt;public_id&gt;_&lt;secret&gt;</code> or <code>X-Api-Key: cc_&lt;public_id&gt;_&lt;secret&gt;</code>. Scopes: <code>calls:write</code> (create, upload, reprocess, attach audio, inbound webhook), <code>calls:read</code> (list and read calls, webhook deliveries), <code>reports:read</code> (reports, transcripts). A bad key is 401 <code>unauthorized</code>; a missing scope is 403 <code>forbidden</code>; another company's call is 404 <code>not_found</code>.</p>
<h2>Endpoints</h2><ul class="toc">${toc.join("")}</ul>${ops.join("")}
<h2>Error codes</h2><table><tr><th>error</th><th>HTTP status</th></tr>${errorRows}</table>
<h2>Schemas</h2>${schemas}</main></body></html>`;
}

/** Inline object schemas one level down (e.g. Report's items), so nothing is hidden behind "object". */
function nested(s: Json): string {
  const parts: string[] = [];
  for (const [name, p] of Object.entries(s.properties ?? {}) as [string, Json][]) {
    const inner = p.type === "array" ? p.items : p;
    if (inner && inner.type === "object" && inner.properties)
      parts.push(`<h4><code>${esc(name)}</code>${p.type === "array" ? " items" : ""}</h4>${propertiesTable(inner)}`);
  }
  return parts.join("");
}

const CSS = `body{font:15px/1.5 system-ui,-apple-system,Segoe UI,sans-serif;margin:0;color:#1d2330;background:#fafbfc}
main{max-width:1000px;margin:0 auto;padding:24px}h1 small{color:#667;font-weight:normal;font-size:.6em}
h2{border-bottom:2px solid #dde;padding-bottom:4px;margin-top:40px}code{background:#eef1f5;padding:1px 4px;border-radius:3px;font-size:.92em}
table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border:1px solid #dde2ea;padding:5px 8px;text-align:left;vertical-align:top}
th{background:#f0f3f7}.op,.schema{background:#fff;border:1px solid #dde2ea;border-radius:6px;padding:12px 16px;margin:16px 0}
.m{display:inline-block;min-width:48px;text-align:center;border-radius:4px;color:#fff;font-size:.8em;padding:1px 6px;font-weight:bold}
.get{background:#2b7bb9}.post{background:#2a9d58}.put,.patch{background:#b98b2b}.delete{background:#b92b2b}
.code{font-weight:bold;width:60px}.s2{color:#2a9d58}.s4{color:#b96b2b}.s5{color:#b92b2b}.toc{list-style:none;padding:0}.toc li{margin:3px 0}
.media{margin:6px 0}td p{margin:0 0 4px}pre{background:#f4f6f9;border:1px solid #dde2ea;border-radius:4px;padding:8px;overflow-x:auto;font-size:.85em}
.example summary{cursor:pointer;color:#2b7bb9}`;
