import { defaultAudioDir } from "../../src/config.js";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { MAX_JSON_DEPTH, MAX_JSON_KEYS } from "../../src/http/json-limits.js";
import { MAX_METADATA_BYTES } from "../../src/intake/metadata-size.js";
import { apiHarness, type ApiHarness } from "../helpers/api.js";
import { fixture } from "../helpers/fixtures.js";

/** `depth` nested objects: {"a":{"a":...{}}}; the outermost one counts as level 1. */
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

function storedFiles(dataDir: string): string[] {
  const root = defaultAudioDir(dataDir);
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile());
}

/** A multipart body built by hand, so a field can carry any bytes. */
function multipart(parts: Array<{ name: string; value: Buffer; filename?: string }>): { body: Buffer; type: string } {
  const boundary = "----hardening-boundary";
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disp}\r\n${p.filename ? "Content-Type: audio/wav\r\n" : ""}\r\n`),
      p.value,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

describe("HTTP input hardening (in-process)", () => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness();
  });
  afterEach(() => h.dispose());

  const calls = async () => (await h.s.store.db.selectFrom("calls").select("id").execute()).length;

  describe("keys that name Object.prototype members", () => {
    it.each(["constructor", "__proto__", "toString", "hasOwnProperty", "valueOf"])(
      "POST /calls {%s: 1} is 422 validation_failed naming the key",
      async (key) => {
        const r = await h.postJson("/v1/calls", `{"${key}":1}`);
        expect(r.status).toBe(422);
        const b = await r.json();
        expect(b.error).toBe("validation_failed");
        expect(Object.keys(b.errors)).toEqual([key]);
        expect(await calls()).toBe(0);
      },
    );

    it("a `__proto__` key inside metadata is refused instead of vanishing from the stored call", async () => {
      const r = await h.postJson("/v1/calls", '{"external_call_id":"p1","metadata":{"keep":1,"__proto__":{"high_value_opportunity":true}}}');
      expect(r.status).toBe(422);
      expect((await r.json()).errors).toEqual({ "metadata.__proto__": ["reserved key name"] });
      expect(await calls()).toBe(0);
    });

    it("other prototype names inside metadata are ordinary keys and are stored", async () => {
      const r = await h.postJson("/v1/calls", '{"external_call_id":"p2","metadata":{"constructor":1,"toString":"x"}}');
      expect(r.status).toBe(201);
      const row = await h.s.store.db.selectFrom("calls").select("metadata").executeTakeFirstOrThrow();
      expect(JSON.parse(row.metadata)).toEqual({ constructor: 1, toString: "x" });
    });

    it.each(["constructor", "__proto__", "toString"])("POST /uploads with a text part named %s is 422 and stores nothing", async (name) => {
      const { body, type } = multipart([
        { name, value: Buffer.from("1") },
        { name: "file", value: fs.readFileSync(fixture("jfk.wav")), filename: "jfk.wav" },
      ]);
      const r = await h.request("/v1/uploads", { method: "POST", body: new Uint8Array(body), headers: { "content-type": type } });
      expect(r.status).toBe(422);
      const b = await r.json();
      expect(b.error).toBe("validation_failed");
      expect(b.errors[name]).toEqual(["unknown field"]);
      expect(await calls()).toBe(0);
      expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    });

    it("the inbound webhook refuses `__proto__` and maps a payload whose keys shadow prototype names", async () => {
      const bad = await h.postJson("/webhooks/inbound/generic", '{"call_id":"i1","__proto__":{"call_id":"x"}}');
      expect(bad.status).toBe(422);
      expect((await bad.json()).error).toBe("validation_failed");
      const ok = await h.postJson("/webhooks/inbound/generic", '{"call_id":"i2","constructor":"x","toString":1}');
      expect(ok.status).toBe(201);
    });
  });

  describe("JSON shape limits", () => {
    it(`accepts metadata nested up to ${MAX_JSON_DEPTH} levels in all`, async () => {
      // body (1) > metadata (2) > ... : the innermost object is level MAX_JSON_DEPTH.
      const r = await h.postJson("/v1/calls", `{"metadata":${nested(MAX_JSON_DEPTH - 1)}}`);
      expect(r.status).toBe(201);
    });

    it.each([MAX_JSON_DEPTH, 20_000, 50_000])("refuses metadata nested %i levels deep with 422 and creates nothing", async (depth) => {
      const r = await h.postJson("/v1/calls", `{"metadata":${nested(depth)}}`);
      expect(r.status).toBe(422);
      expect(await r.json()).toMatchObject({ error: "validation_failed", errors: { body: [`must not nest deeper than ${MAX_JSON_DEPTH} levels`] } });
      expect(await calls()).toBe(0);
    });

    it("counts brackets inside strings as text, not nesting", async () => {
      const r = await h.postJson("/v1/calls", JSON.stringify({ metadata: { note: `${"[".repeat(100) + "{".repeat(100)}\\"` } }));
      expect(r.status).toBe(201);
    });

    it("refuses deep arrays as well as deep objects", async () => {
      const r = await h.postJson("/v1/calls", `{"metadata":{"a":${"[".repeat(40)}${"]".repeat(40)}}}`);
      expect(r.status).toBe(422);
    });

    it(`refuses more than ${MAX_JSON_KEYS} keys in a body`, async () => {
      const many = Object.fromEntries(Array.from({ length: MAX_JSON_KEYS + 1 }, (_, i) => [`k${i}`, 0]));
      const r = await h.postJson("/v1/calls", { metadata: many });
      expect(r.status).toBe(422);
      expect((await r.json()).errors).toEqual({ body: [`must have at most ${MAX_JSON_KEYS} object keys in all`] });
    });

    it(`refuses metadata over ${MAX_METADATA_BYTES} bytes as JSON on POST /calls and the inbound webhook`, async () => {
      const big = { note: "x".repeat(MAX_METADATA_BYTES) };
      const r = await h.postJson("/v1/calls", { metadata: big });
      expect(r.status).toBe(422);
      expect((await r.json()).errors.metadata).toEqual([`must be at most ${MAX_METADATA_BYTES} bytes as JSON`]);
      const inbound = await h.postJson("/webhooks/inbound/generic", { call_id: "m1", metadata: big });
      expect(inbound.status).toBe(422);
      expect((await inbound.json()).errors.metadata).toEqual([`must be at most ${MAX_METADATA_BYTES} bytes as JSON`]);
      expect(await calls()).toBe(0);
      const fits = await h.postJson("/v1/calls", { metadata: { note: "x".repeat(MAX_METADATA_BYTES - 20) } });
      expect(fits.status).toBe(201);
    });

    it("applies the depth limit to the inbound webhook and to JSON transcripts", async () => {
      const inbound = await h.postJson("/webhooks/inbound/generic", `{"call_id":"d1","metadata":${nested(50_000)}}`);
      expect(inbound.status).toBe(422);
      const created = await (await h.postJson("/v1/calls", { external_call_id: "t1" })).json();
      const t = await h.postJson(`/v1/calls/${created.call_id}/transcript`, `{"segments":[{"t_start":0,"t_end":1,"text":"hi","x":${nested(50_000)}}]}`);
      expect(t.status).toBe(422);
      expect((await t.json()).error).toBe("validation_failed");
    });
  });

  describe("invalid UTF-8 is 400 invalid_json everywhere", () => {
    const badUtf8 = Buffer.from([0x41, 0xff, 0xfe, 0x42]);

    it("POST /calls (unchanged behaviour, the reference)", async () => {
      const r = await h.request("/v1/calls", {
        method: "POST",
        body: new Uint8Array(Buffer.concat([Buffer.from('{"rep_name":"'), badUtf8, Buffer.from('"}')])),
        headers: { "content-type": "application/json" },
      });
      expect(r.status).toBe(400);
      expect((await r.json()).error).toBe("invalid_json");
    });

    it("a multipart text part, with nothing stored", async () => {
      const { body, type } = multipart([
        { name: "rep_name", value: badUtf8 },
        { name: "file", value: fs.readFileSync(fixture("jfk.wav")), filename: "jfk.wav" },
      ]);
      const r = await h.request("/v1/uploads", { method: "POST", body: new Uint8Array(body), headers: { "content-type": type } });
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ error: "invalid_json", message: expect.stringContaining("rep_name") });
      expect(await calls()).toBe(0);
      expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    });

    it("valid non-ASCII text parts are kept as sent", async () => {
      const { body, type } = multipart([
        { name: "rep_name", value: Buffer.from("Zoë Ångström 山田") },
        { name: "file", value: fs.readFileSync(fixture("jfk.wav")), filename: "jfk.wav" },
      ]);
      const r = await h.request("/v1/uploads", { method: "POST", body: new Uint8Array(body), headers: { "content-type": type } });
      expect(r.status).toBe(201);
      const row = await h.s.store.db.selectFrom("calls").select("rep_name").executeTakeFirstOrThrow();
      expect(row.rep_name).toBe("Zoë Ångström 山田");
    });

    it.each([
      ["text/vtt", (t: Buffer) => Buffer.concat([Buffer.from("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<v Anna>"), t, Buffer.from("\n")])],
      ["application/x-subrip", (t: Buffer) => Buffer.concat([Buffer.from("1\n00:00:00,000 --> 00:00:02,000\nAnna: "), t, Buffer.from("\n")])],
      [
        "application/json",
        (t: Buffer) => Buffer.concat([Buffer.from('{"segments":[{"speaker":"Anna","t_start":0,"t_end":2,"text":"'), t, Buffer.from('"}]}')]),
      ],
    ])("a %s transcript import, with nothing stored", async (type, make) => {
      const created = await (await h.postJson("/v1/calls", { external_call_id: `u-${type}` })).json();
      const r = await h.request(`/v1/calls/${created.call_id}/transcript?rep_speaker=Anna`, {
        method: "POST",
        body: new Uint8Array(make(badUtf8)),
        headers: { "content-type": type },
      });
      expect(r.status).toBe(400);
      expect((await r.json()).error).toBe("invalid_json");
      expect(await h.s.store.db.selectFrom("transcripts").select("id").execute()).toEqual([]);
      // The same document with valid text is accepted: the refusal is about the bytes only.
      const ok = await h.request(`/v1/calls/${created.call_id}/transcript?rep_speaker=Anna`, {
        method: "POST",
        body: new Uint8Array(make(Buffer.from("Grüße"))),
        headers: { "content-type": type },
      });
      expect(ok.status).toBe(202);
    });
  });

  describe("query parameters", () => {
    it.each(["/v1/calls", "/v1/webhooks/events"])("%s lists a huge `limit` error once", async (route) => {
      for (const limit of ["1e400", "99999999999999999999999", "-1e400"]) {
        const r = await h.request(`${route}?limit=${limit}`);
        expect(r.status).toBe(422);
        expect((await r.json()).errors).toEqual({ limit: ["must be an integer from 1 to 100"] });
      }
    });

    it.each(["/v1/calls", "/v1/webhooks/events"])("%s ignores unknown query parameters, like every list route", async (route) => {
      const r = await h.request(`${route}?foo=1&_=123`);
      expect(r.status).toBe(200);
    });
  });

  describe("request framing and methods", () => {
    it.each(["5, 7", "26, 26", "abc", "-1"])("Content-Length %j is 400 bad_request in the JSON error shape", async (length) => {
      const r = await h.app.request("/v1/calls", {
        method: "POST",
        body: '{"external_call_id":"cl"}',
        headers: { authorization: `Bearer ${h.key}`, "content-type": "application/json", "content-length": length },
      });
      expect(r.status).toBe(400);
      expect(await r.json()).toEqual({ error: "bad_request", message: expect.any(String) });
      expect(await calls()).toBe(0);
    });

    it.each(["FOO", "PROPFIND", "MKCOL"])("method %s is 405 method_not_allowed with Allow", async (method) => {
      const r = await h.app.request("/v1/calls", { method });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD, POST");
      expect(await r.json()).toEqual({ error: "method_not_allowed", message: `method ${method} is not supported` });
    });
  });
});
