import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acceptCall, type CallFields } from "../../src/intake/accept-call.js";
import { reprocessCall } from "../../src/intake/reprocess.js";
import { placeholderReport } from "../../src/pipeline/analyzers/placeholder.js";
import { runOnce } from "../../src/pipeline/worker.js";
import { ReportSchema, SCORE_CATEGORIES, type Report } from "../../src/report/schema.js";
import { createCompany } from "../../src/store/companies.js";
import { listReports } from "../../src/store/reports.js";
import type { CallRow } from "../../src/store/schema.js";
import { testServices } from "../helpers/services.js";

type S = Awaited<ReturnType<typeof testServices>>;

const submission: CallFields = {
  external_call_id: "det-1",
  rep_name: "Ann Rep",
  customer_name: "Bob Buyer",
  customer_email: "bob@example.com",
  duration_seconds: 840,
  source_system: "dialer",
  crm_deal_id: "D-9",
  metadata: { campaign: "spring", nested: { b: 2, a: 1 } },
};

async function processOne(s: S, fields: CallFields): Promise<{ callId: number; reportJson: string }> {
  const companyId = (await s.store.db.selectFrom("companies").select("id").executeTakeFirst())?.id ?? (await createCompany(s.store.db, { name: "Acme" })).id;
  const { call } = await acceptCall(s.store.db, { companyId, intake: "api", fields });
  expect(await runOnce(s)).toMatchObject({ result: "completed" });
  const reports = await listReports(s.store.db, call.id);
  return { callId: call.id, reportJson: reports.at(-1)!.report };
}

/** The consistency rules every placeholder report keeps. */
function expectConsistent(r: Report, call: Pick<CallRow, "duration_seconds">) {
  expect(ReportSchema.safeParse(r).success).toBe(true);
  const mean = SCORE_CATEGORIES.reduce((a, c) => a + r.score_breakdown[c], 0) / SCORE_CATEGORIES.length;
  expect(r.overall_score).toBe(Math.round(mean * 10));
  expect(r.confidence_level).toBe("low");
  expect(r.summary.startsWith("Placeholder analysis")).toBe(true);
  if (r.call_outcome === "closed_won") expect(r.close_likelihood).toBe(100);
  if (r.call_outcome === "closed_lost") expect(r.close_likelihood).toBeLessThanOrEqual(5);
  if (r.call_outcome === "no_decision") expect(r.close_likelihood).toBeLessThanOrEqual(40);
  if (["follow_up_scheduled", "demo_scheduled"].includes(r.call_outcome)) expect(r.close_likelihood).toBeGreaterThanOrEqual(30);
  const d = call.duration_seconds ?? 0;
  for (const t of r.timeline) expect(t.t).toBeLessThanOrEqual(d);
  expect(r.timeline.map((t) => t.t)).toEqual([...r.timeline.map((t) => t.t)].sort((a, b) => a - b));
  if (r.compliance_alerts.length > 0) expect(r.manager_review_required).toBe(true);
}

describe("placeholder analyzer", () => {
  let a: S;
  let b: S;
  beforeEach(async () => {
    a = await testServices();
    b = await testServices();
  });
  afterEach(async () => {
    await a.dispose();
    await b.dispose();
  });

  it("the same submission gives a byte-identical report on two data dirs and after reprocess", async () => {
    // Another call first on `b`, so the two calls have different ids.
    await processOne(b, { external_call_id: "other" });
    const one = await processOne(a, submission);
    const two = await processOne(b, { ...submission, metadata: { nested: { a: 1, b: 2 }, campaign: "spring" } });
    expect(two.callId).not.toBe(one.callId);
    expect(two.reportJson).toBe(one.reportJson);

    const companyId = (await a.store.db.selectFrom("companies").select("id").executeTakeFirstOrThrow()).id;
    await reprocessCall(a.store.db, { companyId, callId: one.callId });
    expect(await runOnce(a)).toMatchObject({ result: "completed" });
    const versions = await listReports(a.store.db, one.callId);
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
    expect(versions[1].report).toBe(one.reportJson);
  });

  it("a different submission gives a different report", async () => {
    const one = await processOne(a, submission);
    const two = await processOne(b, { ...submission, rep_name: "Someone Else" });
    expect(two.reportJson).not.toBe(one.reportJson);
  });

  it("every generated report is schema-valid and consistent (property test)", () => {
    const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
    const callArb = fc.record({
      external_call_id: opt(fc.string({ maxLength: 200 })),
      rep_name: opt(fc.string({ maxLength: 2000 })),
      rep_email: opt(fc.emailAddress()),
      customer_name: opt(fc.string({ maxLength: 2000 })),
      customer_phone: opt(fc.string({ maxLength: 30 })),
      customer_email: opt(fc.emailAddress()),
      call_started_at: opt(fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString())),
      call_ended_at: opt(fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }).map((d) => d.toISOString())),
      duration_seconds: opt(fc.integer({ min: 0, max: 36_000 })),
      recording_url: opt(fc.webUrl()),
      source_system: fc.string({ maxLength: 50 }),
      crm_contact_id: opt(fc.string({ maxLength: 50 })),
      crm_deal_id: opt(fc.string({ maxLength: 50 })),
      metadata: fc.dictionary(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 2 })).map((m) => JSON.stringify(m)),
      audio_sha256: opt(fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 })),
      high: fc.boolean(),
    });
    fc.assert(
      fc.property(callArb, ({ high, ...c }) => {
        const metadata = high ? JSON.stringify({ ...JSON.parse(c.metadata), high_value_opportunity: true }) : c.metadata;
        const call = { ...c, metadata, id: 1, company_id: 1 } as unknown as CallRow;
        const r = placeholderReport(call);
        const effective =
          c.duration_seconds && c.duration_seconds > 0
            ? c.duration_seconds
            : c.call_started_at && c.call_ended_at
              ? Math.max(0, Math.floor((Date.parse(c.call_ended_at) - Date.parse(c.call_started_at)) / 1000))
              : 0;
        expectConsistent(r, { duration_seconds: effective });
        if (high) expect(r.manager_review_required).toBe(true);
        expect(JSON.stringify(placeholderReport({ ...call, id: 99, created_at: "x" } as CallRow))).toBe(JSON.stringify(r));
      }),
      { numRuns: 400 },
    );
  });
});
