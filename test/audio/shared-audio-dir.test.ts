import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FOREIGN_TEMP_MAX_AGE_MS, audioPath, audioTempDir, storeAudioFile, sweepAudioTemp, tempHost } from "../../src/audio/store.js";
import { loadConfig } from "../../src/config.js";
import { AppError } from "../../src/errors.js";
import { createServices } from "../../src/services.js";
import { fixture } from "../helpers/fixtures.js";
import { silentLogger } from "../../src/logger.js";
import { tempDir, testConfig } from "../helpers/services.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
function dir(): string {
  const d = tempDir();
  cleanups.push(d.cleanup);
  return d.dir;
}

describe("--audio-dir", () => {
  it("defaults to <data dir>/audio; the flag beats the environment", () => {
    expect(loadConfig({ dataDir: "/srv/cr" }, {}).audioDir).toBe("/srv/cr/audio");
    expect(loadConfig({ dataDir: "/srv/cr" }, { CALLREVIEW_AUDIO_DIR: "/mnt/audio" }).audioDir).toBe("/mnt/audio");
    expect(loadConfig({ dataDir: "/srv/cr", audioDir: "/nfs/a" }, { CALLREVIEW_AUDIO_DIR: "/mnt/audio" }).audioDir).toBe("/nfs/a");
  });

  it("an audio dir that cannot be written stops the start with invalid_config, before the store is opened", async () => {
    const data = dir();
    const blocker = path.join(dir(), "a-file");
    fs.writeFileSync(blocker, "not a directory");
    const e = await createServices(testConfig(data, { audioDir: path.join(blocker, "audio") }), { logger: silentLogger }).catch((x) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe("invalid_config");
    expect((e as AppError).message).toMatch(/^audio dir .* is not writable/);
    expect(fs.existsSync(path.join(data, "callreview.db"))).toBe(false);
  });

  it("stored audio goes to the audio dir, content-addressed, and nothing of it into the data dir", async () => {
    const data = dir();
    const audio = path.join(dir(), "shared");
    const s = await createServices(testConfig(data, { audioDir: audio }), { logger: silentLogger });
    try {
      const stored = await storeAudioFile(s.config.audioDir, fixture("jfk.wav"), { maxBytes: 1 << 30 });
      expect(stored.path).toBe(audioPath(audio, stored.sha256));
      expect(stored.path).toBe(path.join(audio, stored.sha256.slice(0, 2), stored.sha256));
      expect(fs.readFileSync(stored.path).equals(fs.readFileSync(fixture("jfk.wav")))).toBe(true);
      expect(fs.readdirSync(audioTempDir(audio))).toEqual([]);
      expect(fs.existsSync(path.join(data, "audio"))).toBe(false);
    } finally {
      await s.close();
    }
  });

  it("two writers of the same audio (two nodes) end with one whole file and no temp files", async () => {
    const audio = dir();
    const [a, b] = await Promise.all([
      storeAudioFile(audio, fixture("jfk.wav"), { maxBytes: 1 << 30 }),
      storeAudioFile(audio, fixture("jfk.wav"), { maxBytes: 1 << 30 }),
    ]);
    expect(a.path).toBe(b.path);
    expect(fs.readFileSync(a.path).equals(fs.readFileSync(fixture("jfk.wav")))).toBe(true);
    expect(fs.readdirSync(audioTempDir(audio))).toEqual([]);
  });
});

describe("temp sweep on a directory shared by several hosts", () => {
  const deadPid = 2 ** 22 + 17;
  it("temp names carry this host and this pid", async () => {
    const audio = dir();
    // A source that never ends keeps the temp file open while we look.
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    async function* slow() {
      yield new Uint8Array(Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt "));
      await gate;
    }
    const { storeAudioStream } = await import("../../src/audio/store.js");
    const writing = storeAudioStream(audio, slow(), { maxBytes: 1 << 20 }).catch((e) => e);
    await new Promise((r) => setTimeout(r, 50));
    const names = fs.readdirSync(audioTempDir(audio));
    expect(names).toHaveLength(1);
    expect(names[0].startsWith(`${tempHost()}~${process.pid}-`)).toBe(true);
    release();
    await writing;
  });

  it("sweeps this host's dead writers; keeps another host's files until they are a day old", async () => {
    const audio = dir();
    const tmp = audioTempDir(audio);
    fs.mkdirSync(tmp, { recursive: true });
    const mine = `${tempHost()}~${deadPid}-1700000000000-00aa.part`;
    const otherFresh = `other-node~${deadPid}-1700000000000-00bb.part`;
    const otherOld = `other-node~${deadPid}-1700000000000-00cc.part`;
    const otherWorkDir = `other-node~${deadPid}-silence-7-abc123`;
    for (const f of [mine, otherFresh, otherOld]) fs.writeFileSync(path.join(tmp, f), "partial");
    fs.mkdirSync(path.join(tmp, otherWorkDir));
    const now = Date.now();
    const dayAgo = new Date(now - FOREIGN_TEMP_MAX_AGE_MS - 60_000);
    fs.utimesSync(path.join(tmp, otherOld), dayAgo, dayAgo);

    expect(await sweepAudioTemp(audio, now)).toBe(2);
    expect(fs.readdirSync(tmp).sort()).toEqual([otherFresh, otherWorkDir].sort());
  });
});
