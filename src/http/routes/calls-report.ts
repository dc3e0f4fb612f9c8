import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import { AppError } from "../../errors.js";
import { audit } from "../../lifecycle/audit.js";
import { actorOf } from "../audit-actor.js";
import { getCompanyCall } from "../../store/calls.js";
import { latestReport } from "../../store/reports.js";
import { guard } from "../auth.js";
import { parseCallId } from "../call-id.js";
import type { AppEnv } from "../env.js";
import { AUTH_ERRORS, CallIdParams, NOT_FOUND, ReportNotReadySchema, ReportResourceSchema, SECURITY, jsonContent, withRateHeaders } from "../schemas/common.js";
import { CALL_REPORT_EXAMPLE, errorExample } from "../schemas/examples.js";

const CallReportSchema = z.object({ call_id: z.number().int(), report: ReportResourceSchema }).openapi("CallReport");

export const getReportRoute = createRoute({
  method: "get",
  path: "/calls/{id}/report",
  tags: ["Reports"],
  summary: "Get the report",
  description:
    "The latest report of the call. While the call has no ready report (also during a reprocess) the answer is 409 with the current processing status. Scope: reports:read.",
  security: SECURITY,
  middleware: guard("reports:read"),
  request: { params: CallIdParams },
  responses: {
    200: withRateHeaders(jsonContent(CallReportSchema, "The report.", CALL_REPORT_EXAMPLE)),
    409: jsonContent(ReportNotReadySchema, "The report does not exist yet (`report_not_ready`, with `status`).", {
      ...errorExample("report_not_ready", "the report of call 42 is not ready yet (analyzing)"),
      status: "analyzing",
    }),
    ...NOT_FOUND,
    ...AUTH_ERRORS,
  },
});

export function register(v1: OpenAPIHono<AppEnv>): void {
  v1.openapi(getReportRoute, async (c) => {
    const id = parseCallId(c.req.param("id"));
    const db = c.get("services").store.db;
    const call = await getCompanyCall(db, c.get("apiKey").company_id, id);
    if (!call) throw new AppError("not_found", `call ${id} not found`);
    // report_status, not the mere existence of an older version, decides: after a reprocess the old report is history.
    const row = call.report_status === "ready" ? await latestReport(db, id) : undefined;
    if (!row) {
      throw new AppError("report_not_ready", `the report of call ${id} is not ready yet (${call.processing_status})`, {
        extra: { status: call.processing_status },
      });
    }
    await audit(db, actorOf(c), "report.read", { companyId: call.company_id, callId: id, detail: { version: row.version } }, c.get("services").clock.now());
    return c.json({ call_id: id, report: JSON.parse(row.report) }, 200);
  });
}
