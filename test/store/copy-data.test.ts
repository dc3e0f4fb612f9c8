import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { fanOutBatch } from "../../src/events/fan-out.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { COPIED_TABLES, tableChecksum } from "../../src/store/copy-data.js";
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
    const expected = [];
    for (const t of COPIED_TABLES) expected.push(await tableChecksum(s.store.db, t));
    expect(expected.find((t) => t.table === "reports")!.rows).toBeGreaterThan(0);
    expect(expected.find((t) => t.table === "webhook_fanout_queue")!.rows).toBeGreaterThan(0);
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
