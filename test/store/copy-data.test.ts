import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { fanOutBatch } from "../../src/events/fan-out.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { sql } from "kysely";
import { COPIED_TABLES, SKIPPED_TABLES, tableChecksum } from "../../src/store/copy-data.js";
import { upsertAlertReview, setCallReviewed } from "../../src/store/reviews.js";
import { insertSession } from "../../src/store/sessions.js";
import { insertUser } from "../../src/store/users.js";
import { openStore } from "../../src/store/open.js";
import { cli, json } from "../helpers/cli.js";
import { createDatabase, pgAdminUrl } from "../helpers/postgres.js";
import { servicesWithCompany } from "../helpers/services.js";

const admin = pgAdminUrl();

describe.skipIf(!admin)("copy-data from a SQLite data dir to PostgreSQL", () => {
  let s: Awaited<ReturnType<typeof servicesWithCompany>>["s"];
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany()));
  afterEach(() => s.dispose());

  it("copies every table, verified by counts and checksums; ids continue after the copied ones", async () => {
    await createWebhookEndpoint(s.store.db, { companyId, url: "http://127.0.0.1:9/hook" }, new Date());
    for (let i = 0; i < 7; i++) await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: `c-${i}`, metadata: { n: i } } });
    // Some calls processed (reports, history, more events), some events fanned out, some still queued for it.
    for (let i = 0; i < 4; i++) await runOnce(s);
    await fanOutBatch(s.store.db, new Date(), 5);
    await s.store.db
      .insertInto("audit_log")
      .values({
        at: new Date().toISOString(),
        actor_type: "cli",
        actor: "cli",
        action: "call.read",
        company_id: companyId,
        call_id: 1,
        request_id: null,
        detail: null,
      })
      .execute();
    // The review console's tables: a user, a session, a reviewed call and a decided alert.
    const now = new Date().toISOString();
    const user = await insertUser(s.store.db, { companyId, email: "lead@acme.test", role: "admin", passwordHash: "scrypt$x", now });
    await insertSession(s.store.db, { tokenHash: "t".repeat(64), userId: user.id, csrfToken: "c", now, expiresAt: "2099-01-01T00:00:00.000Z" });
    await setCallReviewed(s.store.db, { callId: 1, userId: user.id, note: "checked", at: now });
    await upsertAlertReview(s.store.db, {
      callId: 1,
      reportVersion: 1,
      alertIndex: 0,
      alertType: "pressure_tactics",
      decision: "confirmed",
      note: null,
      userId: user.id,
      at: now,
    });
    const expected = [];
    for (const t of COPIED_TABLES) expected.push(await tableChecksum(s.store.db, t));
    expect(expected.find((t) => t.table === "reports")!.rows).toBeGreaterThan(0);
    expect(expected.find((t) => t.table === "webhook_fanout_queue")!.rows).toBeGreaterThan(0);
    for (const t of ["users", "sessions", "call_console", "alert_reviews"]) expect(expected.find((x) => x.table === t)!.rows).toBeGreaterThan(0);
    const sqliteTables = (
      await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`.execute(s.store.db)
    ).rows.map((r) => r.name);
    await s.close();

    const url = await createDatabase(admin!);
    const r = await cli(["copy-data", "--from", s.dir, "--to", url, "--json"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const out = json(r.stdout);
    expect(out.to).not.toContain("callreview-test");
    expect(out.tables).toEqual(expected);

    const pg = await openStore(s.dir, { databaseUrl: url });
    try {
      // Every table of either schema is copied or left out on purpose: a new table fails here until it is one or the other.
      const pgTables = (
        await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`.execute(pg.db)
      ).rows.map((r) => r.name);
      const unaccounted = [...new Set([...sqliteTables, ...pgTables])].filter(
        (t) => !(COPIED_TABLES as readonly string[]).includes(t) && !SKIPPED_TABLES.some((x) => x.name.test(t)),
      );
      expect(unaccounted).toEqual([]);
      expect((await pg.db.selectFrom("call_console").selectAll().where("call_id", "=", 1).executeTakeFirstOrThrow()).review_state).toBe("reviewed");
      const next = await acceptCall(pg.db, { companyId, intake: "api", fields: { external_call_id: "after-move" } });
      expect(next.call.id).toBe(8);
      // Idempotency survives the move.
      expect((await acceptCall(pg.db, { companyId, intake: "api", fields: { external_call_id: "c-3" } })).duplicate).toBe(true);
    } finally {
      await pg.close();
    }

    // A second copy into the now non-empty database is refused and changes nothing.
    const again = await cli(["copy-data", "--from", s.dir, "--to", url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already holds companies/);
  });

  it("refuses a target that is not a PostgreSQL URL", async () => {
    const r = await cli(["copy-data", "--from", s.dir, "--to", "mysql://x@localhost/db"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--to must be a postgres:\/\//);
  });
});
