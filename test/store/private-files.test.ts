import { defaultAudioDir } from "../../src/config.js";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { storeAudioFile } from "../../src/audio/store.js";
import { createCompany } from "../../src/store/companies.js";
import { openStore } from "../../src/store/open.js";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

const mode = (p: string) => fs.statSync(p).mode & 0o777;

// Under umask 000 a file created without an explicit mode is world-writable: the store must not rely on the umask.
describe("data dir permissions", () => {
  let parent: string;
  let cleanup: () => void;
  let oldUmask: number;
  beforeEach(() => {
    ({ dir: parent, cleanup } = tempDir());
    oldUmask = process.umask(0);
  });
  afterEach(() => {
    process.umask(oldUmask);
    cleanup();
  });

  it("a new data dir is 0700, the database and its -wal / -shm files 0600, stored audio and its folders private", async () => {
    const dataDir = path.join(parent, "data");
    const store = await openStore(dataDir);
    try {
      await createCompany(store.db, { name: "Acme" });
      expect(mode(dataDir)).toBe(0o700);
      for (const f of ["callreview.db", "callreview.db-wal", "callreview.db-shm"]) expect([f, mode(path.join(dataDir, f))]).toEqual([f, 0o600]);
      const stored = await storeAudioFile(defaultAudioDir(dataDir), fixture("jfk.wav"), { maxBytes: 1 << 30 });
      expect(mode(stored.path)).toBe(0o600);
      expect(mode(path.dirname(stored.path))).toBe(0o700);
      expect(mode(path.join(dataDir, "audio"))).toBe(0o700);
      expect(mode(path.join(dataDir, "audio", "tmp"))).toBe(0o700);
    } finally {
      await store.close();
    }
  });

  it("tightens a data dir and database an older version left open", async () => {
    const dataDir = path.join(parent, "old");
    fs.mkdirSync(dataDir, { mode: 0o777 });
    fs.chmodSync(dataDir, 0o755);
    const first = await openStore(dataDir);
    await first.close();
    fs.chmodSync(path.join(dataDir, "callreview.db"), 0o644);
    fs.chmodSync(dataDir, 0o755);
    const store = await openStore(dataDir);
    try {
      await createCompany(store.db, { name: "Acme" });
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(path.join(dataDir, "callreview.db"))).toBe(0o600);
      expect(mode(path.join(dataDir, "callreview.db-wal"))).toBe(0o600);
    } finally {
      await store.close();
    }
  });
});
