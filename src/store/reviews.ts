import type { DbOrTx } from "./db.js";

export const ALERT_DECISIONS = ["confirmed", "dismissed"] as const;
export type AlertDecision = (typeof ALERT_DECISIONS)[number];

export interface AlertReviewView {
  alert_index: number;
  alert_type: string;
  decision: string;
  note: string | null;
  by: string;
  at: string;
}

export async function upsertAlertReview(
  db: DbOrTx,
  input: {
    callId: number;
    reportVersion: number;
    alertIndex: number;
    alertType: string;
    decision: AlertDecision;
    note: string | null;
    userId: number;
    at: string;
  },
): Promise<void> {
  await db
    .insertInto("alert_reviews")
    .values({
      call_id: input.callId,
      report_version: input.reportVersion,
      alert_index: input.alertIndex,
      alert_type: input.alertType,
      decision: input.decision,
      note: input.note,
      user_id: input.userId,
      at: input.at,
    })
    .onConflict((oc) =>
      oc
        .columns(["call_id", "report_version", "alert_index"])
        .doUpdateSet({ decision: input.decision, note: input.note, user_id: input.userId, at: input.at, alert_type: input.alertType }),
    )
    .execute();
}

export async function alertReviewsOf(db: DbOrTx, callId: number, reportVersion: number): Promise<AlertReviewView[]> {
  return db
    .selectFrom("alert_reviews as a")
    .innerJoin("users as u", "u.id", "a.user_id")
    .select(["a.alert_index", "a.alert_type", "a.decision", "a.note", "u.email as by", "a.at"])
    .where("a.call_id", "=", callId)
    .where("a.report_version", "=", reportVersion)
    .orderBy("a.alert_index")
    .execute();
}

export async function setCallReviewed(db: DbOrTx, input: { callId: number; userId: number; note: string | null; at: string }): Promise<void> {
  await db
    .insertInto("call_console")
    .values({ call_id: input.callId, review_state: "reviewed", reviewed_by: input.userId, reviewed_at: input.at, review_note: input.note })
    .onConflict((oc) =>
      oc.column("call_id").doUpdateSet({ review_state: "reviewed", reviewed_by: input.userId, reviewed_at: input.at, review_note: input.note }),
    )
    .execute();
}

export async function callReviewOf(db: DbOrTx, callId: number) {
  return db
    .selectFrom("call_console as c")
    .leftJoin("users as u", "u.id", "c.reviewed_by")
    .select(["c.review_state", "c.reviewed_at", "c.review_note", "u.email as reviewed_by", "c.alert_count"])
    .where("c.call_id", "=", callId)
    .executeTakeFirst();
}
