import { randomBytes } from "node:crypto";
import pg from "pg";
import * as vitest from "vitest";

/**
 * The stores a suite runs on: `describe.each(storeKinds())`. SQLite always;
 * PostgreSQL when the run's server (test/helpers/postgres-global.ts) started.
 * Each call of freshDatabaseUrl() creates an empty database of its own on that
 * server, so tests never see each other's rows.
 */
export interface StoreKind {
  name: "sqlite" | "postgres";
  /** undefined for SQLite (the data dir's file); a new empty database's URL for PostgreSQL. */
  freshDatabaseUrl(): Promise<string | undefined>;
}

/** The admin URL handed over by globalSetup; under `bun test` (no globalSetup) only CALLREVIEW_TEST_PG_URL can name one. */
export function pgAdminUrl(): string | null {
  const inject = (vitest as { inject?: (k: "pgAdminUrl") => string | null }).inject;
  try {
    if (inject) return inject("pgAdminUrl") ?? null;
  } catch {
    // not inside vitest
  }
  return process.env.CALLREVIEW_TEST_PG_URL || null;
}

export async function createDatabase(adminUrl: string): Promise<string> {
  const name = `t_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

export const SQLITE: StoreKind = { name: "sqlite", freshDatabaseUrl: async () => undefined };

export function storeKinds(): StoreKind[] {
  const admin = pgAdminUrl();
  if (!admin) return [SQLITE];
  return [SQLITE, { name: "postgres", freshDatabaseUrl: () => createDatabase(admin) }];
}
