import { isoNow } from "../time.js";
import type { DbOrTx } from "./db.js";
import type { CompanyRow } from "./schema.js";

export const DEFAULT_LOW_SCORE_THRESHOLD = 60;

/** Per-company settings kept as JSON; later features add keys here rather than columns. */
export interface CompanySettings {
  /** Which stereo channel carries the rep (dual-channel dialers record rep and customer apart). */
  rep_channel?: "left" | "right";
  /** Seconds from the start of a call within which the rep must disclose the recording (default 30). */
  disclosure_window_seconds?: number;
  [key: string]: unknown;
}

export interface Company {
  id: number;
  name: string;
  low_score_threshold: number;
  settings: CompanySettings;
  created_at: string;
  updated_at: string;
}

export function toCompany(row: CompanyRow): Company {
  return { ...row, settings: JSON.parse(row.settings) as CompanySettings };
}

export async function createCompany(db: DbOrTx, input: { name: string; low_score_threshold?: number; settings?: CompanySettings }): Promise<Company> {
  const now = isoNow();
  const row = await db
    .insertInto("companies")
    .values({
      name: input.name,
      low_score_threshold: input.low_score_threshold ?? DEFAULT_LOW_SCORE_THRESHOLD,
      settings: JSON.stringify(input.settings ?? {}),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toCompany(row);
}

export async function getCompany(db: DbOrTx, id: number): Promise<Company | undefined> {
  const row = await db.selectFrom("companies").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toCompany(row) : undefined;
}

export async function listCompanies(db: DbOrTx): Promise<Company[]> {
  const rows = await db.selectFrom("companies").selectAll().orderBy("id").execute();
  return rows.map(toCompany);
}

export async function updateCompany(
  db: DbOrTx,
  id: number,
  patch: { name?: string; low_score_threshold?: number; settings?: CompanySettings },
): Promise<Company | undefined> {
  const row = await db
    .updateTable("companies")
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.low_score_threshold !== undefined ? { low_score_threshold: patch.low_score_threshold } : {}),
      ...(patch.settings !== undefined ? { settings: JSON.stringify(patch.settings) } : {}),
      updated_at: isoNow(),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  return row ? toCompany(row) : undefined;
}
