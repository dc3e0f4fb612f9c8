import { sql } from "kysely";
import type { DbOrTx } from "./db.js";

/** One rep in one week: the cell the dashboard adds up per rep and per week. */
export interface RepWeek {
  rep: string;
  /** Monday of the week, YYYY-MM-DD. */
  week: string;
  calls: number;
  scored: number;
  score_sum: number;
  alerts: number;
  ratio_n: number;
  ratio_sum: number;
}

export async function repWeeks(db: DbOrTx, companyId: number, since: string): Promise<RepWeek[]> {
  const started = sql<string>`coalesce(c.call_started_at, c.created_at)`;
  const rows = await db
    .selectFrom("calls as c")
    .leftJoin("call_console as cc", "cc.call_id", "c.id")
    .select([
      sql<string>`coalesce(c.rep_name, '(no rep)')`.as("rep"),
      // The week's Monday: SQLite's weekday 0 is Sunday.
      sql<string>`date(${started}, '-' || ((cast(strftime('%w', ${started}) as integer) + 6) % 7) || ' days')`.as("week"),
      sql<number>`count(*)`.as("calls"),
      sql<number>`count(c.overall_score)`.as("scored"),
      sql<number>`coalesce(sum(c.overall_score), 0)`.as("score_sum"),
      sql<number>`coalesce(sum(cc.alert_count), 0)`.as("alerts"),
      sql<number>`count(cc.talk_ratio)`.as("ratio_n"),
      sql<number>`coalesce(sum(cc.talk_ratio), 0)`.as("ratio_sum"),
    ])
    .where("c.company_id", "=", companyId)
    .where(started, ">=", since)
    .groupBy(["rep", "week"])
    .orderBy("week")
    .execute();
  return rows.map((r) => ({
    ...r,
    calls: Number(r.calls),
    scored: Number(r.scored),
    score_sum: Number(r.score_sum),
    alerts: Number(r.alerts),
    ratio_n: Number(r.ratio_n),
    ratio_sum: Number(r.ratio_sum),
  }));
}
