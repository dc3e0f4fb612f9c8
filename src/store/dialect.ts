import { CompiledQuery, PostgresAdapter, type Kysely, type QueryResult } from "kysely";

/**
 * The dialect seam for the few statements written as SQL text: SQLite and
 * PostgreSQL share the query builder, and differ here only where the SQL does.
 */
export type StoreDialect = "sqlite" | "postgres";

export function dialectOf(db: Kysely<any>): StoreDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

export function isPostgres(db: Kysely<any>): boolean {
  return dialectOf(db) === "postgres";
}

const numbered = new Map<string, string>();

/** `?` placeholders become `$1, $2, …` on PostgreSQL (none of our SQL texts holds a literal `?`). */
export function placeholders(text: string, dialect: StoreDialect): string {
  if (dialect === "sqlite") return text;
  let out = numbered.get(text);
  if (out === undefined) {
    let n = 0;
    out = text.replace(/\?/g, () => `$${++n}`);
    numbered.set(text, out);
  }
  return out;
}

/** Runs one SQL text with `?` placeholders on either store. */
export function executeRaw<R>(db: Kysely<any>, text: string, params: readonly unknown[]): Promise<QueryResult<R>> {
  return db.executeQuery<R>(CompiledQuery.raw(placeholders(text, dialectOf(db)), [...params]));
}
