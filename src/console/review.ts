import { AppError } from "../errors.js";
import { recordEvent } from "../events/outbox.js";
import { audit, type Actor } from "../lifecycle/audit.js";
import type { Report } from "../report/schema.js";
import { getCompanyCall } from "../store/calls.js";
import type { Db } from "../store/db.js";
import { latestReport } from "../store/reports.js";
import { ALERT_DECISIONS, alertReviewsOf, setCallReviewed, upsertAlertReview, type AlertDecision } from "../store/reviews.js";
import type { SessionUser } from "../store/sessions.js";
import { isoNow } from "../time.js";

const NOTE_MAX = 2000;

export function actorOf(user: SessionUser, requestId?: string | null): Actor {
  return { type: "user", id: user.email, requestId };
}

function cleanNote(note: string | undefined): string | null {
  const n = (note ?? "").trim();
  if (n.length > NOTE_MAX)
    throw new AppError("validation_failed", `the note is longer than ${NOTE_MAX} characters`, { errors: { note: [`at most ${NOTE_MAX} characters`] } });
  return n === "" ? null : n;
}

/** The call, if it is the user's company's; another company's call is simply not found. */
async function companyCall(db: Db, user: SessionUser, callId: number) {
  const call = await getCompanyCall(db, user.company_id, callId);
  if (!call) throw new AppError("not_found", `call ${callId} not found`);
  return call;
}

/** Confirms or dismisses one compliance alert of the call's latest report. */
export async function reviewAlert(
  db: Db,
  user: SessionUser,
  input: { callId: number; alertIndex: number; decision: string; note?: string; requestId?: string | null },
  now: Date,
): Promise<void> {
  const call = await companyCall(db, user, input.callId);
  if (!(ALERT_DECISIONS as readonly string[]).includes(input.decision)) {
    throw new AppError("validation_failed", `invalid decision "${input.decision}" (expected confirmed or dismissed)`, {
      errors: { decision: ["confirmed or dismissed"] },
    });
  }
  const note = cleanNote(input.note);
  const report = await latestReport(db, call.id);
  if (!report) throw new AppError("conflict", `call ${call.id} has no report yet`);
  const alerts = (JSON.parse(report.report) as Report).compliance_alerts;
  const alert = alerts[input.alertIndex];
  if (!Number.isInteger(input.alertIndex) || !alert) throw new AppError("not_found", `alert ${input.alertIndex} not found in report version ${report.version}`);
  await db.transaction().execute(async (trx) => {
    await upsertAlertReview(trx, {
      callId: call.id,
      reportVersion: report.version,
      alertIndex: input.alertIndex,
      alertType: alert.type,
      decision: input.decision as AlertDecision,
      note,
      userId: user.user_id,
      at: isoNow(now),
    });
    await audit(
      trx,
      actorOf(user, input.requestId),
      "alert.review",
      {
        companyId: call.company_id,
        callId: call.id,
        detail: { report_version: report.version, alert_index: input.alertIndex, alert_type: alert.type, decision: input.decision },
      },
      now,
    );
  });
}

/** Marks the call reviewed, with the `call.reviewed` event in the same transaction. */
export async function markCallReviewed(
  db: Db,
  user: SessionUser,
  input: { callId: number; note?: string; requestId?: string | null },
  now: Date,
): Promise<void> {
  const call = await companyCall(db, user, input.callId);
  const note = cleanNote(input.note);
  const report = await latestReport(db, call.id);
  const decisions = report ? await alertReviewsOf(db, call.id, report.version) : [];
  await db.transaction().execute(async (trx) => {
    await setCallReviewed(trx, { callId: call.id, userId: user.user_id, note, at: isoNow(now) });
    await recordEvent(
      trx,
      call,
      "call.reviewed",
      {
        review: {
          reviewed_by: user.email,
          reviewed_at: isoNow(now),
          report_version: report?.version ?? null,
          alerts: decisions.map((d) => ({ index: d.alert_index, type: d.alert_type, decision: d.decision })),
        },
      },
      now,
    );
    await audit(
      trx,
      actorOf(user, input.requestId),
      "call.review",
      { companyId: call.company_id, callId: call.id, detail: { report_version: report?.version ?? null, alerts_reviewed: decisions.length } },
      now,
    );
  });
}
