import type { Command } from "commander";
import { AppError } from "../../src/errors.js";
import { audit, CLI_ACTOR } from "../../src/lifecycle/audit.js";
import type { Report } from "../../src/report/schema.js";
import { getCall } from "../../src/store/calls.js";
import { latestReport } from "../../src/store/reports.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { printJson } from "../io.js";

/** `report <call_id>`: the latest report, readable, or raw with --json (the API's {call_id, report} body). */
export function reportCommand(program: Command, ctx: CliContext): void {
  program
    .command("report <call_id>")
    .description("Print a call's report")
    .option("--json", "print {call_id, report} as JSON")
    .action(async (idArg: string, opts: { json?: boolean }, cmd: Command) => {
      const id = parseId(idArg, "call id");
      const report = await withServices(cmd, ctx, async (s) => {
        const call = await getCall(s.store.db, id);
        if (!call) throw new AppError("not_found", `call ${id} not found`);
        const row = call.report_status === "ready" ? await latestReport(s.store.db, id) : undefined;
        if (!row)
          throw new AppError(
            "report_not_ready",
            `call ${id} has no report yet (status ${call.processing_status}${call.failure_reason ? `, ${call.failure_reason}` : ""})`,
          );
        await audit(s.store.db, CLI_ACTOR, "report.read", { companyId: call.company_id, callId: id, detail: { version: row.version } }, s.clock.now());
        return JSON.parse(row.report) as Report;
      });
      if (opts.json) printJson(ctx.io, { call_id: id, report });
      else ctx.io.out(formatReport(id, report));
    });
}

export function formatReport(callId: number, r: Report): string {
  const list = (title: string, xs: string[] | undefined) => (xs?.length ? [`${title}:`, ...xs.map((x) => `  - ${x}`)] : []);
  const width = Math.max(...Object.keys(r.score_breakdown).map((k) => k.length));
  return [
    `Report for call ${callId}`,
    `Overall score ${r.overall_score}/100 · outcome ${r.call_outcome} · close likelihood ${r.close_likelihood}% · confidence ${r.confidence_level}${r.manager_review_required ? " · MANAGER REVIEW" : ""}`,
    "",
    r.summary,
    "",
    "Score breakdown:",
    ...Object.entries(r.score_breakdown).map(([k, v]) => `  ${k.padEnd(width)}  ${"#".repeat(v).padEnd(10, ".")} ${v}/10`),
    ...list(
      "Compliance alerts",
      r.compliance_alerts.map((a) => `[${a.severity}] ${a.type}: ${a.detail}`),
    ),
    ...list(
      "Buying signals",
      r.buying_signals.map((b) => `${b.signal} (${b.strength})`),
    ),
    ...list(
      "Objections",
      r.objections.map((o) => `${o.objection} — ${o.handled ? "handled" : "not handled"}; try: ${o.suggested_response}`),
    ),
    ...list("Customer needs", r.customer_needs),
    ...list("Pain points", r.pain_points),
    ...list("Strengths", r.rep_strengths),
    ...list("Weaknesses", r.rep_weaknesses),
    ...list("Missed opportunities", r.missed_opportunities),
    ...list("Recommended training", r.recommended_training),
    `Coaching (${r.coaching_notes.priority}): ${r.coaching_notes.detail}`,
    `Follow-up: ${r.suggested_follow_up}`,
    `CRM note: ${r.crm_note}`,
    ...list(
      "Timeline",
      r.timeline.map((t) => `${t.t}s ${t.phase}`),
    ),
  ].join("\n");
}
