import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBun } from "../../src/runtime.js";
import { createCompany, getCompany, listCompanies, updateCompany } from "../../src/store/companies.js";
import { appliedMigrations, LATEST_SCHEMA } from "../../src/store/migrate.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { openStore } from "../../src/store/open.js";
import { tempDir } from "../helpers/services.js";

// Runs under vitest (Node, better-sqlite3) and under `bun test` (bun:sqlite): the same assertions hold for both drivers.
describe(`store on ${isBun ? "bun:sqlite" : "better-sqlite3"}`, () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());

  it("uses the driver of the runtime", async () => {
    const store = await openStore(dir);
    expect(store.driver).toBe(isBun ? "bun:sqlite" : "better-sqlite3");
    await store.close();
  });

  it("migrates an empty file to the latest schema, in WAL mode, with every table", async () => {
    const store = await openStore(dir);
    expect(store.file).toBe(path.join(dir, "callreview.db"));
    expect(store.schemaVersion).toBe(LATEST_SCHEMA);
    expect(await appliedMigrations(store.db)).toEqual(Object.keys(MIGRATIONS).sort());
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(store.db);
    expect(mode.rows[0].journal_mode).toBe("wal");
    const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(store.db);
    expect(Number(fk.rows[0].foreign_keys)).toBe(1);
    const tables = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(store.db);
    expect(tables.rows.map((r) => r.name)).toEqual(expect.arrayContaining(["api_keys", "call_history", "calls", "companies", "events", "jobs", "reports", "transcripts"]));
    await store.close();
  });

  it("keeps data across close and reopen, and reopening migrates nothing twice", async () => {
    const first = await openStore(dir);
    const c = await createCompany(first.db, { name: "Acme", low_score_threshold: 42, settings: { rep_channel: "right" } });
    await first.close();
    const second = await openStore(dir);
    expect(await getCompany(second.db, c.id)).toEqual(c);
    expect(await appliedMigrations(second.db)).toHaveLength(Object.keys(MIGRATIONS).length);
    await second.close();
  });

  it("refuses a database written by a newer version, naming the schema", async () => {
    const store = await openStore(dir);
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(store.db);
    await store.close();
    await expect(openStore(dir)).rejects.toThrow(/newer version of callreview \(unknown schema version 999_from_the_future\)/);
  });

  it("refuses a data dir it cannot create", async () => {
    const file = path.join(dir, "a-file");
    fs.writeFileSync(file, "x");
    await expect(openStore(path.join(file, "data"))).rejects.toThrow(/is not writable/);
  });

  it("creates, lists and updates companies with JSON settings", async () => {
    const store = await openStore(dir);
    const a = await createCompany(store.db, { name: "A" });
    const b = await createCompany(store.db, { name: "B" });
    expect(a.low_score_threshold).toBe(60);
    expect(a.settings).toEqual({});
    const updated = await updateCompany(store.db, b.id, { low_score_threshold: 70, settings: { rep_channel: "left" } });
    expect(updated).toMatchObject({ id: b.id, low_score_threshold: 70, settings: { rep_channel: "left" } });
    expect((await listCompanies(store.db)).map((c) => c.name)).toEqual(["A", "B"]);
    expect(await updateCompany(store.db, 999, { name: "nobody" })).toBeUndefined();
    await store.close();
  });

  it("rolls a failed transaction back completely", async () => {
    const store = await openStore(dir);
    await expect(
      store.db.transaction().execute(async (trx) => {
        await createCompany(trx, { name: "Ghost" });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await listCompanies(store.db)).toEqual([]);
    await store.close();
  });

  it("lets two connections on one file write without SQLITE_BUSY", async () => {
    const one = await openStore(dir);
    const two = await openStore(dir);
    await Promise.all(Array.from({ length: 40 }, (_, i) => createCompany(i % 2 ? one.db : two.db, { name: `c${i}` })));
    expect(await listCompanies(one.db)).toHaveLength(40);
    await one.close();
    await two.close();
  });
});
