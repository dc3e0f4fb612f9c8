import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cli, json } from "../helpers/cli.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

describe("callreview backup / restore", () => {
  let root: string;
  let cleanup: () => void;
  let data: string;
  beforeEach(() => {
    ({ dir: root, cleanup } = tempDir());
    data = path.join(root, "data");
  });
  afterEach(() => cleanup());
  const run = (dir: string, ...args: string[]) => cli(["--data-dir", dir, "--models-dir", path.join(root, "models"), ...args]);

  it("backs up the database and audio with a manifest, restores into an empty dir that serves the same calls", async () => {
    await run(data, "company", "create", "Acme");
    const sub = await run(data, "submit", fixture("jfk.wav"), "--company", "1", "--wait", "--json", "--pipeline", "placeholder");
    expect(sub.code).toBe(0);
    expect((await run(data, "submit", fixture("jfk.wav"), "--company", "1", "--wait", "--pipeline", "placeholder")).code).toBe(0);

    const backup = path.join(root, "bk");
    const b = await run(data, "backup", backup, "--json");
    expect(b.stderr).toBe("");
    const manifest = json(b.stdout);
    expect(manifest).toMatchObject({ format: "callreview-backup", version: 1, calls: 2, missing_audio: [] });
    expect(manifest.audio).toHaveLength(1); // both calls share one content-addressed file
    expect(fs.existsSync(path.join(backup, "manifest.json"))).toBe(true);

    const again = await run(data, "backup", backup);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/is not empty/);

    const restored = path.join(root, "restored");
    const r = await run(restored, "restore", backup, "--json");
    expect(r.stderr).toBe("");
    expect(json(r.stdout).restored_to).toBe(restored);
    const calls = json((await run(restored, "calls", "list", "--json")).stdout);
    expect(calls.map((c: { call_id: number; processing_status: string }) => [c.call_id, c.processing_status])).toEqual([
      [2, "complete"],
      [1, "complete"],
    ]);
    expect(json((await run(restored, "report", "1", "--json")).stdout).report.overall_score).toBeTypeOf("number");
    expect(fs.readFileSync(path.join(restored, manifest.audio[0].path)).equals(fs.readFileSync(fixture("jfk.wav")))).toBe(true);
    const audit = json((await run(restored, "audit", "list", "--json")).stdout).map((e: { action: string }) => e.action);
    expect(audit).toContain("backup.restore");

    // Non-empty target: refused, untouched; --force replaces.
    const refused = await run(restored, "restore", backup);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/is not empty.*--force/);
    expect((await run(restored, "restore", backup, "--force", "--yes")).code).toBe(0);
  });

  it("with --audio-dir: backup reads the audio there, restore adds it there and removes nothing else", async () => {
    const shared = path.join(root, "shared-audio");
    const withAudio = (dir: string, ...args: string[]) => run(dir, "--audio-dir", shared, ...args);
    await withAudio(data, "company", "create", "Acme");
    expect((await withAudio(data, "submit", fixture("jfk.wav"), "--company", "1", "--wait", "--pipeline", "placeholder")).code).toBe(0);
    expect(fs.existsSync(path.join(data, "audio"))).toBe(false);
    const backup = path.join(root, "bk");
    const manifest = json((await withAudio(data, "backup", backup, "--json")).stdout);
    expect(manifest.audio).toHaveLength(1);

    // Another installation's file in the shared dir stays; the restored one lands by its content address.
    const other = path.join(shared, "ff", "f".repeat(64));
    fs.mkdirSync(path.dirname(other), { recursive: true });
    fs.writeFileSync(other, "someone else's audio");
    fs.rmSync(path.join(shared, manifest.audio[0].path.slice("audio/".length)));
    const restored = path.join(root, "restored");
    const r = await withAudio(restored, "restore", backup, "--json");
    expect(r.stderr).toBe("");
    expect(fs.readFileSync(path.join(shared, manifest.audio[0].path.slice("audio/".length))).equals(fs.readFileSync(fixture("jfk.wav")))).toBe(true);
    expect(fs.readFileSync(other, "utf8")).toBe("someone else's audio");
    expect(fs.existsSync(path.join(restored, "audio"))).toBe(false);
    expect(fs.readdirSync(path.join(shared, "tmp"))).toEqual([]);
    expect(json((await withAudio(restored, "calls", "list", "--json")).stdout)).toHaveLength(1);
  });

  it("refuses a backup whose files do not match the manifest, leaving the data dir empty", async () => {
    await run(data, "company", "create", "Acme");
    await run(data, "submit", fixture("jfk.wav"), "--company", "1", "--pipeline", "placeholder");
    const backup = path.join(root, "bk");
    expect((await run(data, "backup", backup)).code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(backup, "manifest.json"), "utf8"));
    const audioFile = path.join(backup, manifest.audio[0].path);
    const bytes = fs.readFileSync(audioFile);
    bytes[bytes.length - 1] ^= 0xff;
    fs.writeFileSync(audioFile, bytes);
    const restored = path.join(root, "restored");
    const r = await run(restored, "restore", backup);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not match its sha256/);
    expect(fs.existsSync(path.join(restored, "callreview.db"))).toBe(false);

    fs.rmSync(path.join(backup, "manifest.json"));
    const none = await run(restored, "restore", backup);
    // Something named on the command line does not exist: exit code 3.
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/no manifest\.json/);
  });

  it("leaves nothing half-written: a damaged audio store fails the backup with an empty dir; a newer schema is refused before anything is placed", async () => {
    await run(data, "company", "create", "Acme");
    await run(data, "submit", fixture("jfk.wav"), "--company", "1", "--pipeline", "placeholder");
    const backup = path.join(root, "bk");
    expect((await run(data, "backup", backup)).code).toBe(0);

    const audioDir = path.join(data, "audio");
    const stored = (fs.readdirSync(audioDir, { recursive: true }) as string[])
      .map((p) => path.join(audioDir, p))
      .find((p) => fs.statSync(p).isFile() && /[0-9a-f]{64}$/.test(p))!;
    fs.appendFileSync(stored, "tampered");
    const broken = path.join(root, "bk2");
    const r = await run(data, "backup", broken);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/does not match its content hash/);
    expect(fs.readdirSync(broken)).toEqual([]);

    const manifestFile = path.join(backup, "manifest.json");
    const manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8"));
    fs.writeFileSync(manifestFile, JSON.stringify({ ...manifest, schema_version: "999_future", callreview_version: "9.0.0" }));
    const restored = path.join(root, "restored");
    const newer = await run(restored, "restore", backup);
    expect(newer.code).toBe(1);
    expect(newer.stderr).toMatch(/written by a newer callreview \(9\.0\.0, schema 999_future\)/);
    expect(fs.existsSync(path.join(restored, "callreview.db"))).toBe(false);
  });
});
