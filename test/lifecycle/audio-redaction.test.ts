import fs from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { audioPath } from "../../src/audio/store.js";
import { readPcm16Window, readWavInfo } from "../../src/audio/wav.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { updateCompany } from "../../src/store/companies.js";
import { apiHarness, type ApiHarness } from "../helpers/api.js";
import { cli, json } from "../helpers/cli.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

const VTT = `WEBVTT

00:00:00.000 --> 00:00:04.000
<v Anna>Hi Ben, this call is being recorded. Can I take your card number?

00:00:04.000 --> 00:00:09.000
<v Ben>It's four one one one one one one one one one one one one one one one.

00:00:09.000 --> 00:00:11.000
<v Anna>Thank you.
`;

describe("company update --redact-audio on", () => {
  let h: ApiHarness;
  beforeEach(async () => {
    h = await apiHarness();
  });
  afterEach(() => h.dispose());

  async function uploadWithTranscript(): Promise<{ id: number; sha: string }> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(fs.readFileSync(fixture("jfk.wav")))], { type: "audio/wav" }), "call.wav");
    const up = await h.request("/v1/uploads", { method: "POST", body: form });
    expect(up.status).toBe(201);
    const id = (await up.json()).call_id as number;
    const imp = await h.request(`/v1/calls/${id}/transcript?rep_speaker=Anna`, { method: "POST", body: VTT, headers: { "content-type": "text/vtt" } });
    expect(imp.status).toBe(202);
    const sha = (await h.s.store.db.selectFrom("calls").select("audio_sha256").where("id", "=", id).executeTakeFirstOrThrow()).audio_sha256!;
    expect((await runOnce(h.s))?.result).toBe("completed");
    return { id, sha };
  }

  it("silences the segment that held the card number, keeps the rest of the recording, and drops the unredacted file", async () => {
    await updateCompany(h.s.store.db, h.company.id, { settings: { redact_audio: true } });
    const { id, sha } = await uploadWithTranscript();
    const call = await h.s.store.db.selectFrom("calls").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(call.audio_sha256).not.toBe(sha);
    expect(fs.existsSync(audioPath(h.s.config.audioDir, sha))).toBe(false);

    const before = fixture("jfk.wav");
    const after = audioPath(h.s.config.audioDir, call.audio_sha256!);
    const bi = readWavInfo(before);
    const ai = readWavInfo(after);
    expect([ai.channels, ai.sampleRate, ai.frames]).toEqual([bi.channels, bi.sampleRate, bi.frames]);
    const rate = bi.sampleRate;
    const original = readPcm16Window(before, bi, 0, 0, bi.frames);
    const redacted = readPcm16Window(after, ai, 0, 0, ai.frames);
    const inSpan = redacted.subarray(4 * rate, 9 * rate);
    expect(inSpan.every((v) => v === 0)).toBe(true);
    expect(original.subarray(4 * rate, 9 * rate).some((v) => v !== 0)).toBe(true);
    const bytes = (a: Int16Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    expect(bytes(redacted.subarray(0, 4 * rate)).equals(bytes(original.subarray(0, 4 * rate)))).toBe(true);
    expect(bytes(redacted.subarray(9 * rate)).equals(bytes(original.subarray(9 * rate)))).toBe(true);
  });

  it("is off by default: the recording stays as uploaded", async () => {
    const { id, sha } = await uploadWithTranscript();
    const call = await h.s.store.db.selectFrom("calls").select("audio_sha256").where("id", "=", id).executeTakeFirstOrThrow();
    expect(call.audio_sha256).toBe(sha);
  });
});

describe("--redact-audio (CLI)", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("takes on or off", async () => {
    await cli(["--data-dir", dir, "company", "create", "Acme"]);
    const bad = await cli(["--data-dir", dir, "company", "update", "1", "--redact-audio", "yes"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/invalid --redact-audio "yes" \(expected on or off\)/);
    const on = await cli(["--data-dir", dir, "company", "update", "1", "--redact-audio", "on", "--json"]);
    expect(json(on.stdout).settings.redact_audio).toBe(true);
  });
});
