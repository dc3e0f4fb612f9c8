import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendAuditEntry, listAuditEntries } from "../../src/store/audit-log.js";
import { createCompany } from "../../src/store/companies.js";
import { openStore, type Store } from "../../src/store/open.js";
import { scrubWriteAheadLog } from "../../src/store/scrub.js";
import { quickCheck, snapshotInto } from "../../src/store/snapshot.js";
import { tempDir } from "../helpers/services.js";

/** Runs on better-sqlite3 (vitest) and bun:sqlite (`bun test test/store`): the SQLite-only pieces of the lifecycle. */
describe("lifecycle store pieces", () => {
  let store: Store;
  let dir: string;
  let cleanup: () => void;
  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    store = await openStore(dir);
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const entry = {
    at: "2030-01-01T00:00:00.000Z",
    actor_type: "cli",
    actor: "cli",
    action: "call.delete",
    company_id: 1,
    call_id: 7,
    request_id: null,
    detail: null,
  };

  it("the audit log is append-only", async () => {
    await appendAuditEntry(store.db, entry);
    await expect(store.db.updateTable("audit_log").set({ actor: "someone else" }).execute()).rejects.toThrow(/append-only/);
    await expect(store.db.deleteFrom("audit_log").execute()).rejects.toThrow(/append-only/);
    expect(await listAuditEntries(store.db, { callId: 7, limit: 10 })).toEqual([expect.objectContaining({ actor: "cli", action: "call.delete" })]);
  });

  it("secure_delete zeroes deleted rows and the WAL scrub empties the log", async () => {
    const phrase = "ultramarine gazebo sonnet";
    const c = await createCompany(store.db, { name: phrase });
    const files = () => ["callreview.db", "callreview.db-wal"].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f));
    expect(files().some((f) => fs.readFileSync(f).includes(Buffer.from(phrase)))).toBe(true);
    await store.db.deleteFrom("companies").where("id", "=", c.id).execute();
    expect(await scrubWriteAheadLog(store.db)).toBe(true);
    expect(fs.statSync(path.join(dir, "callreview.db-wal")).size).toBe(0);
    expect(files().filter((f) => fs.readFileSync(f).includes(Buffer.from(phrase)))).toEqual([]);
    const mode = await sql<{ secure_delete: number }>`PRAGMA secure_delete`.execute(store.db);
    expect(Number(mode.rows[0].secure_delete)).toBe(1);
  });

  it("snapshotInto writes a consistent copy that passes quick_check", async () => {
    await createCompany(store.db, { name: "Acme" });
    const copyDir = path.join(dir, "copy");
    fs.mkdirSync(copyDir);
    await snapshotInto(store.db, path.join(copyDir, "callreview.db"));
    const copy = await openStore(copyDir);
    try {
      expect(await quickCheck(copy.db)).toBe("ok");
      expect((await copy.db.selectFrom("companies").select("name").execute()).map((r) => r.name)).toEqual(["Acme"]);
    } finally {
      await copy.close();
    }
  });
});
