import { defaultAudioDir } from "../../src/config.js";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { transitionCall } from "../../src/calls/state.js";
import { audioPath } from "../../src/audio/store.js";
import { BASES, apiHarness, type ApiHarness } from "../helpers/api.js";
import { fixture } from "../helpers/fixtures.js";

const wav = () => fs.readFileSync(fixture("jfk.wav"));
const mp3 = () => fs.readFileSync(fixture("jfk.mp3"));
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

function form(parts: Record<string, string | { data: Buffer; name: string; type?: string }>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(parts)) {
    if (typeof v === "string") f.append(k, v);
    else f.append(k, new Blob([new Uint8Array(v.data)], { type: v.type ?? "application/octet-stream" }), v.name);
  }
  return f;
}

/** Every file under the audio store (temp files included). */
function storedFiles(dataDir: string): string[] {
  const root = defaultAudioDir(dataDir);
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile());
}

describe("POST /uploads and POST /calls/{id}/audio", () => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness({ maxUploadMb: 1 });
  });
  afterEach(() => h.dispose());

  const upload = (parts: FormData, base = "/v1", key?: string) => h.request(`${base}/uploads`, { method: "POST", body: parts, key });
  const calls = () => h.s.store.db.selectFrom("calls").selectAll().execute();

  it.each(BASES)("stores jfk.wav content-addressed and creates a call (%s)", async (base) => {
    const data = wav();
    const r = await upload(form({ file: { data, name: "jfk.wav" }, rep_name: "Ann", customer_name: "Bob", duration_seconds: "11" }), base);
    expect(r.status).toBe(201);
    const b = await r.json();
    expect(b).toEqual({ call_id: expect.any(Number), status: "received", processing_status_url: `/api/v1/calls/${b.call_id}` });
    expect("report_url" in b).toBe(false);
    const row = (await calls())[0];
    expect(row).toMatchObject({
      intake: "upload",
      audio_sha256: sha(data),
      audio_format: "wav",
      audio_bytes: data.length,
      rep_name: "Ann",
      customer_name: "Bob",
      duration_seconds: 11,
      processing_status: "queued",
    });
    expect(fs.readFileSync(audioPath(h.s.config.audioDir, sha(data))).equals(data)).toBe(true);
    expect(storedFiles(h.s.config.dataDir)).toHaveLength(1);
  });

  it("recognises jfk.mp3 by content even when named .wav with a wrong declared type", async () => {
    const r = await upload(form({ file: { data: mp3(), name: "call.wav", type: "audio/wav" } }));
    expect(r.status).toBe(201);
    expect((await calls())[0].audio_format).toBe("mp3");
  });

  it("the same content uploaded twice is two calls sharing one stored file", async () => {
    for (let i = 0; i < 2; i++) expect((await upload(form({ file: { data: wav(), name: "a.wav" } }))).status).toBe(201);
    expect(await calls()).toHaveLength(2);
    expect(storedFiles(h.s.config.dataDir)).toHaveLength(1);
  });

  it("a text file renamed .wav is 422 invalid_file and leaves nothing behind", async () => {
    const r = await upload(form({ file: { data: Buffer.from("hello, this is not audio at all\n".repeat(20)), name: "notes.wav", type: "audio/wav" } }));
    expect(r.status).toBe(422);
    const b = await r.json();
    expect(b.error).toBe("invalid_file");
    expect(b.message).toMatch(/not a supported audio type/);
    expect(await calls()).toHaveLength(0);
    expect(storedFiles(h.s.config.dataDir)).toEqual([]);
  });

  it("an empty file is 422 invalid_file", async () => {
    const r = await upload(form({ file: { data: Buffer.alloc(0), name: "empty.wav" } }));
    expect(r.status).toBe(422);
    expect(await r.json()).toMatchObject({ error: "invalid_file", message: expect.stringMatching(/empty/) });
  });

  it("a missing file part is 422 no_file", async () => {
    const r = await upload(form({ rep_name: "Ann" }));
    expect(r.status).toBe(422);
    expect((await r.json()).error).toBe("no_file");
    // A file under another part name is not the `file` part.
    const r2 = await upload(form({ audio: { data: wav(), name: "a.wav" } }));
    expect(r2.status).toBe(422);
    expect((await r2.json()).error).toBe("no_file");
    expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    expect(await calls()).toHaveLength(0);
  });

  it("a file over --max-upload-mb is 422 invalid_file naming the limit, with no partial file", async () => {
    const big = Buffer.concat([wav().subarray(0, 44), Buffer.alloc(1024 * 1024 + 10)]);
    const r = await upload(form({ file: { data: big, name: "big.wav" }, rep_name: "after the file" }));
    expect(r.status).toBe(422);
    expect(await r.json()).toMatchObject({ error: "invalid_file", message: expect.stringMatching(/larger than the limit of 1 MiB/) });
    expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    expect(await calls()).toHaveLength(0);
  });

  it("a storage failure is 422 invalid_file and leaves no partial file and no call row", async () => {
    const data = wav();
    // The final directory for this content cannot be created: a file sits where it should be.
    fs.mkdirSync(defaultAudioDir(h.s.config.dataDir), { recursive: true });
    fs.writeFileSync(path.join(defaultAudioDir(h.s.config.dataDir), sha(data).slice(0, 2)), "in the way");
    const r = await upload(form({ file: { data, name: "jfk.wav" } }));
    expect(r.status).toBe(422);
    expect(await r.json()).toMatchObject({ error: "invalid_file", message: expect.stringMatching(/could not store/) });
    expect(storedFiles(h.s.config.dataDir)).toEqual([sha(data).slice(0, 2)]);
    expect(fs.readdirSync(path.join(defaultAudioDir(h.s.config.dataDir), "tmp"))).toEqual([]);
    expect(await calls()).toHaveLength(0);
  });

  it("bad text parts are 422 validation_failed and the stored file is removed", async () => {
    const r = await upload(form({ file: { data: wav(), name: "a.wav" }, duration_seconds: "-3", customer_name: "x".repeat(300), extra: "1" }));
    expect(r.status).toBe(422);
    const b = await r.json();
    expect(b.error).toBe("validation_failed");
    expect(Object.keys(b.errors).sort()).toEqual(["customer_name", "duration_seconds", "extra"]);
    expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    expect(await calls()).toHaveLength(0);
  });

  it("bad text parts keep a file that another call already uses", async () => {
    expect((await upload(form({ file: { data: wav(), name: "a.wav" } }))).status).toBe(201);
    const r = await upload(form({ file: { data: wav(), name: "a.wav" }, duration_seconds: "abc" }));
    expect(r.status).toBe(422);
    expect(storedFiles(h.s.config.dataDir)).toHaveLength(1);
  });

  it("a non-multipart request is 415 unsupported_media_type; a multipart request without boundary is 422 invalid_file", async () => {
    const r = await h.postJson("/v1/uploads", { file: "x" });
    expect(r.status).toBe(415);
    expect((await r.json()).error).toBe("unsupported_media_type");
    const r2 = await h.request("/v1/uploads", { method: "POST", headers: { "content-type": "multipart/form-data" }, body: "junk" });
    expect(r2.status).toBe(422);
    expect((await r2.json()).error).toBe("invalid_file");
  });

  it("a truncated multipart body is 422 invalid_file with nothing stored", async () => {
    const boundary = "XyZ123";
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`;
    const body = Buffer.concat([Buffer.from(head), wav().subarray(0, 5000)]);
    const r = await h.request("/v1/uploads", { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body });
    expect(r.status).toBe(422);
    expect((await r.json()).error).toBe("invalid_file");
    expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    expect(await calls()).toHaveLength(0);
  });

  describe("POST /calls/{id}/audio", () => {
    const attach = (id: number | string, parts: FormData, key?: string) => h.request(`/api/v1/calls/${id}/audio`, { method: "POST", body: parts, key });

    it("attaches audio to a queued call without a second job", async () => {
      const { call_id } = await (await h.postJson("/v1/calls", { external_call_id: "no-audio" })).json();
      const r = await attach(call_id, form({ file: { data: mp3(), name: "a.mp3" } }));
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ call_id, processing_status: "queued", report_status: "pending" });
      const row = (await calls())[0];
      expect(row).toMatchObject({ audio_sha256: sha(mp3()), audio_format: "mp3" });
      expect(await h.s.store.db.selectFrom("jobs").selectAll().execute()).toHaveLength(1);
    });

    it("re-queues a failed (no_audio) call with a new job", async () => {
      const { call_id } = await (await h.postJson("/v1/calls", {})).json();
      await h.s.store.db.transaction().execute((trx) => transitionCall(trx, call_id, "failed", { failureReason: "no_audio" }));
      await h.s.store.db.updateTable("jobs").set({ status: "failed" }).execute();
      const r = await attach(call_id, form({ file: { data: wav(), name: "a.wav" } }));
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ processing_status: "queued", failure_reason: null });
      expect(await h.s.store.db.selectFrom("jobs").selectAll().where("status", "=", "queued").execute()).toHaveLength(1);
      const last = await h.s.store.db.selectFrom("call_history").selectAll().orderBy("id", "desc").executeTakeFirstOrThrow();
      expect(last).toMatchObject({ from_status: "failed", to_status: "queued", reason: "audio attached" });
    });

    it("409 conflict while the call is being processed, and the file is not kept", async () => {
      const { call_id } = await (await h.postJson("/v1/calls", {})).json();
      await h.s.store.db.transaction().execute((trx) => transitionCall(trx, call_id, "transcribing"));
      const r = await attach(call_id, form({ file: { data: wav(), name: "a.wav" } }));
      expect(r.status).toBe(409);
      expect(await r.json()).toMatchObject({ error: "conflict", status: "transcribing" });
      expect((await calls())[0].audio_sha256).toBeNull();
      expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    });

    it("404 for unknown, non-integer and other companies' calls; no_file and invalid_file as for uploads", async () => {
      const { call_id } = await (await h.postJson("/v1/calls", {})).json();
      const other = await h.newCompanyKey();
      for (const [id, key] of [
        [call_id, other.key],
        [999, h.key],
        ["nope", h.key],
      ] as const) {
        const r = await attach(id, form({ file: { data: wav(), name: "a.wav" } }), key);
        expect(r.status).toBe(404);
        expect((await r.json()).error).toBe("not_found");
      }
      const nf = await attach(call_id, form({ note: "x" }));
      expect(nf.status).toBe(422);
      expect((await nf.json()).error).toBe("no_file");
      const bad = await attach(call_id, form({ file: { data: Buffer.from("plain text"), name: "x.wav" } }));
      expect(bad.status).toBe(422);
      expect((await bad.json()).error).toBe("invalid_file");
      expect(storedFiles(h.s.config.dataDir)).toEqual([]);
    });
  });
});
