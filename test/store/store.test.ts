import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBun } from "../../src/runtime.js";
import { createCompany, getCompany, listCompanies, updateCompany } from "../../src/store/companies.js";
import { appliedMigrations, LATEST_SCHEMA } from "../../src/store/migrate.js";
import { MIGRATIONS } from "../../src/store/migrations/index.js";
import { openStore as openStoreOn, type StoreOptions } from "../../src/store/open.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { tempDir } from "../helpers/services.js";

// Runs under vitest (Node: better-sqlite3, and PostgreSQL through pg) and under `bun test` (bun:sqlite): the same assertions hold for every driver.
describe.each(storeKinds())("store on $name", (kind: StoreKind) => {
  let dir: string;
  let cleanup: () => void;
  let databaseUrl: string | undefined;
  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    databaseUrl = await kind.freshDatabaseUrl();
  });
  afterEach(() => cleanup());
  const openStore = (d: string, opts: StoreOptions = {}) => openStoreOn(d, { databaseUrl, ...opts });

  it("uses the driver of the runtime", async () => {
    const store = await openStore(dir);
    expect(store.driver).toBe(kind.name === "postgres" ? "pg" : isBun ? "bun:sqlite" : "better-sqlite3");
    expect(store.dialect).toBe(kind.name);
    await store.close();
  });

  it("migrates an empty database to the latest schema, with every table", async () => {
    const store = await openStore(dir);
    expect(store.schemaVersion).toBe(LATEST_SCHEMA);
    expect(await appliedMigrations(store.db)).toEqual(Object.keys(MIGRATIONS).sort());
    let tables: string[];
    if (kind.name === "sqlite") {
      expect(store.file).toBe(path.join(dir, "callreview.db"));
      const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(store.db);
      expect(mode.rows[0].journal_mode).toBe("wal");
      const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(store.db);
      expect(Number(fk.rows[0].foreign_keys)).toBe(1);
      tables = (await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`.execute(store.db)).rows.map((r) => r.name);
    } else {
      // The URL is shown with its password masked.
      expect(store.file).not.toContain("callreview-test");
      expect(store.file).toContain("***");
      tables = (await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'`.execute(store.db)).rows.map(
        (r) => r.name,
      );
    }
    expect(tables).toEqual(
      expect.arrayContaining(["api_keys", "audit_log", "call_history", "calls", "companies", "events", "jobs", "reports", "transcripts", "webhook_deliveries"]),
    );
    await store.close();
  });

  it("keeps the audit log append-only", async () => {
    const store = await openStore(dir);
    await store.db
      .insertInto("audit_log")
      .values({
        at: "2026-01-01T00:00:00.000Z",
        actor_type: "cli",
        actor: "test",
        action: "call.read",
        company_id: null,
        call_id: null,
        request_id: null,
        detail: null,
      })
      .execute();
    await expect(store.db.updateTable("audit_log").set({ actor: "someone else" }).execute()).rejects.toThrow(/append-only/);
    await expect(store.db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
    expect(await store.db.selectFrom("audit_log").select("actor").execute()).toEqual([{ actor: "test" }]);
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

  it("lets two stores on one database write at once without a busy error", async () => {
    const one = await openStore(dir);
    const two = await openStore(dir);
    await Promise.all(Array.from({ length: 40 }, (_, i) => createCompany(i % 2 ? one.db : two.db, { name: `c${i}` })));
    expect(await listCompanies(one.db)).toHaveLength(40);
    await one.close();
    await two.close();
  });
});
