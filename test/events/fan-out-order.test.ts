import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createWebhookEndpoint } from "../../src/events/endpoints.js";
import { fanOutBatch } from "../../src/events/fan-out.js";
import { recordEvent } from "../../src/events/outbox.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import type { CallRow } from "../../src/store/schema.js";
import { storeKinds, type StoreKind } from "../helpers/postgres.js";
import { servicesWithCompany } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof servicesWithCompany>>["s"];

/** Resolves when `open()` is called: holds a transaction open at a chosen point. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

// Only PostgreSQL lets two writers commit ids out of order; on SQLite the second writer waits for the first.
const kinds = storeKinds().filter((k) => k.name === "postgres");

describe.skipIf(kinds.length === 0).each(kinds)("webhook fan-out with concurrent writers on $name", (kind: StoreKind) => {
  let s: S;
  let companyId: number;
  let call: CallRow;
  beforeEach(async () => {
    ({ s, companyId } = await servicesWithCompany({ databaseUrl: await kind.freshDatabaseUrl() }));
    await createWebhookEndpoint(s.store.db, { companyId, url: "http://127.0.0.1:9/hook" }, new Date());
    call = (await acceptCall(s.store.db, { companyId, intake: "api", fields: {} })).call;
    await fanOutBatch(s.store.db, new Date());
  });
  afterEach(() => s.dispose());

  it("an event whose id is smaller but commits later is still fanned out", async () => {
    const held = gate();
    const recorded = gate();
    let earlierId = "";
    // Writer 1 takes the smaller id and stays open.
    const writer1 = s.store.db.transaction().execute(async (trx) => {
      earlierId = (await recordEvent(trx, call, "call.processing_started")).id;
      recorded.open();
      await held.wait;
    });
    await recorded.wait;
    // Writer 2 takes the larger id and commits first.
    const laterId = await s.store.db.transaction().execute(async (trx) => (await recordEvent(trx, call, "call.report_completed")).id);
    // The fan-out runs while the smaller id is still invisible: it can only see the larger one.
    const first = await fanOutBatch(s.store.db, new Date()).finally(() => held.open());
    expect(first).toMatchObject({ events: 1 });
    await writer1;
    const ids = await s.store.db.selectFrom("events").select(["id", "event_id"]).where("event_id", "in", [earlierId, laterId]).execute();
    expect(ids.find((r) => r.event_id === earlierId)!.id).toBeLessThan(ids.find((r) => r.event_id === laterId)!.id);
    expect(await fanOutBatch(s.store.db, new Date())).toMatchObject({ events: 1 });

    const delivered = await s.store.db.selectFrom("webhook_deliveries").select("event_id").where("event_id", "in", [earlierId, laterId]).execute();
    expect(delivered.map((d) => d.event_id).sort()).toEqual([earlierId, laterId].sort());
    expect(await fanOutBatch(s.store.db, new Date())).toEqual({ events: 0, deliveries: 0 });
  });

  it("two fan-outs at once take disjoint events and create each delivery once", async () => {
    for (let i = 0; i < 40; i++) await acceptCall(s.store.db, { companyId, intake: "api", fields: {} });
    const results = await Promise.all([fanOutBatch(s.store.db, new Date(), 7), fanOutBatch(s.store.db, new Date(), 7), fanOutBatch(s.store.db, new Date(), 7)]);
    let total = results.reduce((n, r) => n + r.events, 0);
    for (;;) {
      const r = await fanOutBatch(s.store.db, new Date(), 7);
      if (r.events === 0) break;
      total += r.events;
    }
    expect(total).toBe(40);
    const rows = await s.store.db.selectFrom("webhook_deliveries").select("event_row_id").execute();
    expect(rows).toHaveLength(41);
    expect(new Set(rows.map((r) => r.event_row_id)).size).toBe(41);
  });
});
