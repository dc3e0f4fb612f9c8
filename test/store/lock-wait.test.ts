import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isAppError } from "../../src/errors.js";
import { createCompany, listCompanies } from "../../src/store/companies.js";
import { openStore, type Store } from "../../src/store/open.js";
import { tempDir } from "../helpers/services.js";

// Runs under vitest (better-sqlite3) and `bun test` (bun:sqlite): both drivers wait for a lock without blocking the event loop.
describe("waiting for another connection's write lock", () => {
  let dir: string;
  let cleanup: () => void;
  let holder: Store;
  let store: Store;
  let release: () => void;
  let held: Promise<void>;

  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    holder = await openStore(dir);
    store = await openStore(dir, { busyTimeoutMs: 60_000 });
    await createCompany(store.db, { name: "Before" });
    // The other connection takes the write lock (BEGIN IMMEDIATE) and keeps it until release().
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    held = holder.db.transaction().execute(async () => {
      locked();
      await new Promise<void>((r) => (release = r));
    });
    await isLocked;
  });
  afterEach(async () => {
    release?.();
    await held.catch(() => undefined);
    await store.close();
    await holder.close();
    cleanup();
  });

  it("a write waits without blocking the event loop, reads answer meanwhile, and the write lands once the lock is free", async () => {
    let done = false;
    const write = createCompany(store.db, { name: "During" }).then((c) => {
      done = true;
      return c;
    });
    // Timers keep firing and reads keep answering while the write waits.
    let ticks = 0;
    for (let i = 0; i < 10; i++) {
      await new Promise((r) => setTimeout(r, 5));
      ticks++;
      expect((await listCompanies(store.db)).map((c) => c.name)).toEqual(["Before"]);
    }
    expect(ticks).toBe(10);
    expect(done).toBe(false);
    release();
    await held;
    expect((await write).name).toBe("During");
    expect((await listCompanies(store.db)).map((c) => c.name)).toEqual(["Before", "During"]);
  });

  it("past the busy timeout a write fails with database_busy and writes nothing", async () => {
    const impatient = await openStore(dir, { busyTimeoutMs: 50 });
    try {
      const err = await createCompany(impatient.db, { name: "Refused" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isAppError(err) && err.code).toBe("database_busy");
      expect(isAppError(err) && err.status).toBe(503);
    } finally {
      await impatient.close();
    }
    release();
    await held;
    expect((await listCompanies(store.db)).map((c) => c.name)).toEqual(["Before"]);
  });
});
