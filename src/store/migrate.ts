import { Migrator, sql, type Kysely } from "kysely";
import { AppError } from "../errors.js";
import { isPostgres } from "./dialect.js";
import { MIGRATIONS } from "./migrations/index.js";

const TABLE = "kysely_migration";

export const LATEST_SCHEMA = Object.keys(MIGRATIONS).sort().at(-1)!;

/** Names of migrations already applied to this database (empty for a new file). */
export async function appliedMigrations(db: Kysely<any>): Promise<string[]> {
  const exists = isPostgres(db)
    ? await sql<{ n: number }>`SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ${TABLE}`.execute(db)
    : await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${TABLE}`.execute(db);
  if (!exists.rows[0] || Number(exists.rows[0].n) === 0) return [];
  const rows = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`.execute(db);
  return rows.rows.map((r) => r.name);
}

/**
 * Brings the schema up to date. A database touched by a newer callreview has
 * migrations this build does not know: refuse it rather than run on a schema we
 * cannot read correctly.
 */
export async function migrateToLatest(db: Kysely<any>, file: string): Promise<{ schemaVersion: string; applied: string[] }> {
  const applied = await appliedMigrations(db);
  const unknown = applied.filter((name) => !(name in MIGRATIONS));
  if (unknown.length > 0) {
    throw new AppError(
      "invalid_config",
      `database ${file} was written by a newer version of callreview (unknown schema version ${unknown.at(-1)}); upgrade callreview to open it`,
    );
  }
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new AppError("internal_error", `database migration ${failed} failed: ${(error as Error).message ?? String(error)}`, { cause: error });
  }
  return { schemaVersion: LATEST_SCHEMA, applied: (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName) };
}
