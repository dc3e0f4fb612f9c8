import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServeBinary, type ServeProcess, companyAndKeyBinary } from "../helpers/binary.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

describe("REST API through the compiled executable over a real socket", () => {
  let dir: ReturnType<typeof tempDir>;
  let server: ServeProcess;
  let key: string;

  beforeAll(async () => {
    dir = tempDir("callreview-e2e-api-");
    key = companyAndKeyBinary(["--data-dir", dir.dir]).key;
    server = await startServeBinary(["--data-dir", dir.dir, "--workers", "0", "--pipeline", "placeholder"]);
  });

  afterAll(async () => {
    await server?.stop();
    dir?.cleanup();
  });

  const auth = () => ({ authorization: `Bearer ${key}` });

  it("create -> get -> list -> upload -> report 409 -> inbound -> openapi and docs", async () => {
    const created = await fetch(`${server.url}/v1/calls`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ external_call_id: "e2e-1", customer_name: "Bob", recording_url: "https://rec.example.com/1.mp3" }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-ratelimit-limit")).toBe("120");
    const { call_id, processing_status_url } = await created.json();
    expect(processing_status_url).toBe(`/api/v1/calls/${call_id}`);

    const dup = await fetch(`${server.url}/api/v1/calls`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ external_call_id: "e2e-1" }),
    });
    expect(dup.status).toBe(200);
    expect((await dup.json()).status).toBe("duplicate");

    const got = await fetch(`${server.url}${processing_status_url}`, { headers: auth() });
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ call_id, external_call_id: "e2e-1", customer_name: "Bob", processing_status: "queued", report_url: null });

    const list = await (await fetch(`${server.url}/v1/calls?limit=10`, { headers: auth() })).json();
    expect(list.count).toBe(1);
    expect(list.data[0].call_id).toBe(call_id);

    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(fs.readFileSync(fixture("jfk.wav")))], { type: "audio/wav" }), "jfk.wav");
    form.append("rep_name", "Ann");
    const up = await fetch(`${server.url}/v1/uploads`, { method: "POST", headers: auth(), body: form });
    expect(up.status).toBe(201);
    const upBody = await up.json();
    expect(upBody).toEqual({ call_id: expect.any(Number), status: "received", processing_status_url: `/api/v1/calls/${upBody.call_id}` });

    const notText = new FormData();
    notText.append("file", new Blob(["just text"]), "fake.wav");
    const bad = await fetch(`${server.url}/v1/uploads`, { method: "POST", headers: auth(), body: notText });
    expect(bad.status).toBe(422);
    expect((await bad.json()).error).toBe("invalid_file");

    const report = await fetch(`${server.url}/v1/calls/${call_id}/report`, { headers: auth() });
    expect(report.status).toBe(409);
    expect(await report.json()).toMatchObject({ error: "report_not_ready", status: "queued" });

    const inbound = await fetch(`${server.url}/webhooks/inbound/generic`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: '{"call_id": "e2e-1"}',
    });
    expect(inbound.status).toBe(200);
    expect(await inbound.json()).toEqual({ call_id, status: "duplicate" });

    const huge = await fetch(`${server.url}/v1/calls`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ metadata: { x: "y".repeat(1024 * 1024) } }),
    });
    expect(huge.status).toBe(413);
    expect((await huge.json()).error).toBe("payload_too_large");

    const unauth = await fetch(`${server.url}/v1/calls`);
    expect(unauth.status).toBe(401);
    expect((await unauth.json()).error).toBe("unauthorized");

    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toContain("/calls/{id}/report");
    const docs = await fetch(`${server.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain("/api/v1/uploads");
  });

  it("an oversize upload is refused while streaming and leaves no file (real socket, small cap)", async () => {
    const small = await startServeBinary(["--data-dir", dir.dir, "--workers", "0", "--max-upload-mb", "1", "--port", "0"]);
    try {
      const wav = fs.readFileSync(fixture("jfk.wav"));
      const big = Buffer.concat([wav.subarray(0, 44), Buffer.alloc(1.9 * 1024 * 1024)]);
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(big)]), "big.wav");
      const r = await fetch(`${small.url}/v1/uploads`, { method: "POST", headers: auth(), body: form });
      expect(r.status).toBe(422);
      expect(await r.json()).toMatchObject({ error: "invalid_file", message: expect.stringMatching(/1 MiB/) });
      const tmp = path.join(dir.dir, "audio", "tmp");
      expect(fs.existsSync(tmp) ? fs.readdirSync(tmp) : []).toEqual([]);
      const calls = await (await fetch(`${small.url}/v1/calls?limit=100`, { headers: auth() })).json();
      expect(calls.count).toBe(2);
    } finally {
      await small.stop();
    }
  });
});
