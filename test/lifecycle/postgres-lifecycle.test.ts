import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { fanOutBatch } from "../../src/events/fan-out.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import { eraseCall } from "../../src/lifecycle/erase-call.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { cli } from "../helpers/cli.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { servicesWithCompany, tempDir } from "../helpers/services.js";

const pgKinds = storeKinds().filter((k) => k.name === "postgres");

describe.skipIf(pgKinds.length === 0).each(pgKinds)("lifecycle on $name", (kind: StoreKind) => {
  let s: Awaited<ReturnType<typeof servicesWithCompany>>["s"];
  let companyId: number;
  beforeEach(async () => ({ s, companyId } = await servicesWithCompany({ databaseUrl: await kind.freshDatabaseUrl() })));
  afterEach(() => s.dispose());

  it("erasing a call removes its rows, announces call.deleted, audits it, and vacuums", async () => {
    await createWebhookEndpoint(s.store.db, { companyId, url: "http://127.0.0.1:9/hook" }, new Date());
    const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "gone", customer_name: "Jane Roe" } });
    const keep = (await acceptCall(s.store.db, { companyId, intake: "api", fields: { external_call_id: "kept" } })).call;
    while (await runOnce(s)) {
      // process both calls
    }
    await fanOutBatch(s.store.db, new Date());
    const erased = await eraseCall(s, { callId: call.id, actor: { type: "cli", id: "cli" } });
    expect(erased.log_emptied).toBe(true);
    expect(erased.rows).toMatchObject({ reports: 1 });
    expect(await s.store.db.selectFrom("calls").select("id").execute()).toEqual([{ id: keep.id }]);
    for (const t of ["reports", "call_history", "jobs", "transcripts"] as const) {
      expect(await s.store.db.selectFrom(t).select("call_id").where("call_id", "=", call.id).execute()).toEqual([]);
    }
    const payloads = await s.store.db.selectFrom("events").select("payload").execute();
    expect(payloads.filter((p) => p.payload.includes("Jane Roe"))).toEqual([]);
    expect(await s.store.db.selectFrom("events").select("type").where("type", "=", "call.deleted").execute()).toHaveLength(1);
    expect(await s.store.db.selectFrom("audit_log").select(["action", "call_id"]).where("action", "=", "call.delete").execute()).toEqual([
      { action: "call.delete", call_id: call.id },
    ]);
    // The deleted event is queued for fan-out like any other.
    expect((await fanOutBatch(s.store.db, new Date())).events).toBe(1);
  });

  it("backup refuses a PostgreSQL store, naming pg_dump, and leaves the backup dir empty", async () => {
    const out = tempDir();
    try {
      const r = await cli(["--database-url", s.config.databaseUrl!, "--data-dir", s.dir, "backup", out.dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/pg_dump/);
      const fs = await import("node:fs");
      expect(fs.readdirSync(out.dir)).toEqual([]);
    } finally {
      out.cleanup();
    }
  });
});
