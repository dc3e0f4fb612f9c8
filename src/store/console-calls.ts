import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { ProcessingStatus } from "./states.js";
import { matchingCallIdsPostgres } from "./search-postgres.js";
import { matchingCallIds } from "./search-sqlite.js";
import { isPostgres } from "./dialect.js";
import type { DbOrTx } from "./db.js";
import type { Database } from "./schema.js";

/** What the calls page filters on; every field optional. */
export interface CallFilters {
  status?: ProcessingStatus;
  alerts?: boolean;
  scoreBelow?: number;
  rep?: string;
  /** Inclusive dates, YYYY-MM-DD, on the call's start (or its creation when no start was given). */
  from?: string;
  to?: string;
  review?: "reviewed" | "unreviewed";
  /** An FTS5 query from toMatchQuery(). */
  match?: string | null;
}

export interface ConsoleCallRow {
  id: number;
  external_call_id: string | null;
  started_at: string;
  rep_name: string | null;
  customer_name: string | null;
  duration_seconds: number | null;
  processing_status: string;
  overall_score: number | null;
  outcome: string | null;
  alert_count: number;
  review_state: string;
  reviewed_at: string | null;
}

type Q = SelectQueryBuilder<Database, "calls" | "call_console", object>;

function filtered(db: DbOrTx, companyId: number, f: CallFilters): Q {
  let q = db.selectFrom("calls").leftJoin("call_console", "call_console.call_id", "calls.id").where("calls.company_id", "=", companyId) as unknown as Q;
  const started = sql<string>`coalesce(calls.call_started_at, calls.created_at)`;
  if (f.status) q = q.where("calls.processing_status", "=", f.status);
  if (f.alerts) q = q.where(sql`coalesce(call_console.alert_count, 0)`, ">", 0);
  if (f.scoreBelow !== undefined) q = q.where("calls.overall_score", "<", f.scoreBelow);
  if (f.rep) q = q.where("calls.rep_name", "=", f.rep);
  if (f.from) q = q.where(started, ">=", f.from);
  if (f.to) q = q.where(started, "<", nextDay(f.to));
  if (f.review === "reviewed") q = q.where("call_console.review_state", "=", "reviewed");
  if (f.review === "unreviewed")
    q = q.where((eb: ExpressionBuilder<Database, "calls" | "call_console">) =>
      eb.or([eb("call_console.review_state", "is", null), eb("call_console.review_state", "=", "unreviewed")]),
    );
  if (f.match) q = q.where("calls.id", "in", isPostgres(db) ? matchingCallIdsPostgres(f.match) : matchingCallIds(f.match));
  return q;
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

/** One page of calls, newest first, and how many match in all. */
export async function listConsoleCalls(
  db: DbOrTx,
  companyId: number,
  f: CallFilters,
  page: { limit: number; offset: number },
): Promise<{ rows: ConsoleCallRow[]; total: number }> {
  const rows = await filtered(db, companyId, f)
    .select([
      "calls.id",
      "calls.external_call_id",
      sql<string>`coalesce(calls.call_started_at, calls.created_at)`.as("started_at"),
      "calls.rep_name",
      "calls.customer_name",
      "calls.duration_seconds",
      "calls.processing_status",
      "calls.overall_score",
      "calls.outcome",
      sql<number>`coalesce(call_console.alert_count, 0)`.as("alert_count"),
      sql<string>`coalesce(call_console.review_state, 'unreviewed')`.as("review_state"),
      "call_console.reviewed_at",
    ])
    .orderBy("calls.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  const total = await filtered(db, companyId, f).select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow();
  return { rows: rows as ConsoleCallRow[], total: Number(total.n) };
}

/** Every matching call, for the CSV export (no paging; the export streams it as one file). */
export async function allConsoleCalls(db: DbOrTx, companyId: number, f: CallFilters): Promise<ConsoleCallRow[]> {
  return (await listConsoleCalls(db, companyId, f, { limit: -1, offset: 0 })).rows;
}

export async function companyReps(db: DbOrTx, companyId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("calls")
    .select("rep_name")
    .distinct()
    .where("company_id", "=", companyId)
    .where("rep_name", "is not", null)
    .orderBy("rep_name")
    .execute();
  return rows.map((r) => r.rep_name!);
}

/** Status and score of a few calls: what the calls page polls while calls are processing. */
export async function callStatuses(db: DbOrTx, companyId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom("calls")
    .leftJoin("call_console", "call_console.call_id", "calls.id")
    .select([
      "calls.id",
      "calls.processing_status",
      "calls.overall_score",
      "calls.outcome",
      sql<number>`coalesce(call_console.alert_count, 0)`.as("alert_count"),
    ])
    .where("calls.company_id", "=", companyId)
    .where("calls.id", "in", ids)
    .execute();
}
