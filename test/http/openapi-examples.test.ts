import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { apiHarness, type ApiHarness } from "../helpers/api.js";

type Json = Record<string, unknown>;

/** The schema with every `#/components/schemas/X` reference replaced by X itself (the document has no cycles). */
function inline(schema: unknown, components: Record<string, unknown>, seen: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, components, seen));
  if (!schema || typeof schema !== "object") return schema;
  const ref = (schema as Json).$ref;
  if (typeof ref === "string") {
    const name = ref.replace("#/components/schemas/", "");
    if (seen.includes(name)) throw new Error(`cyclic schema ${name}`);
    expect(components, ref).toHaveProperty(name);
    return inline(components[name], components, [...seen, name]);
  }
  return Object.fromEntries(Object.entries(schema as Json).map(([k, v]) => [k, k === "example" || k === "examples" ? v : inline(v, components, seen)]));
}

/** Every example of a media-type object: `example`, or each value of `examples`. */
function examplesOf(media: Json): unknown[] {
  if (media.example !== undefined) return [media.example];
  if (media.examples && typeof media.examples === "object") return Object.values(media.examples as Record<string, { value: unknown }>).map((e) => e.value);
  return [];
}

describe("OpenAPI examples", () => {
  let h: ApiHarness;
  afterEach(() => h?.dispose());

  it("every request body and every response of every operation has an example that is valid against its schema", async () => {
    h = await apiHarness();
    const doc = await (await h.request("/v1/openapi.json", { key: null })).json();
    const components = doc.components.schemas as Record<string, unknown>;
    const checked: string[] = [];
    const problems: string[] = [];
    for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      for (const [method, op] of Object.entries(item)) {
        if (method === "servers" || method === "parameters") continue;
        const media: Array<[string, Json]> = [];
        const body = op.requestBody as { content?: Record<string, Json> } | undefined;
        for (const [type, m] of Object.entries(body?.content ?? {})) media.push([`${method.toUpperCase()} ${p} request ${type}`, m]);
        for (const [status, r] of Object.entries(op.responses as Record<string, { content?: Record<string, Json> }>)) {
          for (const [type, m] of Object.entries(r.content ?? {})) media.push([`${method.toUpperCase()} ${p} ${status} ${type}`, m]);
        }
        for (const [where, m] of media) {
          const examples = examplesOf(m);
          if (examples.length === 0) {
            problems.push(`${where}: no example`);
            continue;
          }
          const schema = z.fromJSONSchema(inline(m.schema, components) as Parameters<typeof z.fromJSONSchema>[0]);
          for (const ex of examples) {
            const r = schema.safeParse(ex);
            if (!r.success) problems.push(`${where}: example invalid: ${r.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
          }
          checked.push(where);
        }
      }
    }
    expect(problems).toEqual([]);
    // Every operation contributes (12 operations, most with 6 or more responses).
    expect(checked.length).toBeGreaterThan(80);
  });

  it("/docs shows the examples: request bodies and responses, success and error", async () => {
    h = await apiHarness();
    const html = await (await h.request("/docs", { key: null })).text();
    const examples = html.match(/<details class="example"><summary>Example<\/summary><pre>/g) ?? [];
    expect(examples.length).toBeGreaterThan(80);
    expect(html).toContain(`&quot;external_call_id&quot;: &quot;dialer-88412&quot;`);
    expect(html).toContain(`&quot;error&quot;: &quot;rate_limited&quot;`);
    expect(html).toContain("WEBVTT");
  });

  it("a wrong example is caught: the check can fail", () => {
    const schema = z.fromJSONSchema({ type: "object", required: ["call_id"], properties: { call_id: { type: "integer" } } });
    expect(schema.safeParse({ call_id: "42" }).success).toBe(false);
    expect(schema.safeParse({ call_id: 42 }).success).toBe(true);
  });
});
