import type { TestProject } from "vitest/node";
import { startPostgres, type RunningPostgres } from "./postgres-server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the run's PostgreSQL server; null when it could not start (the PostgreSQL half of the suites is then skipped). */
    pgAdminUrl: string | null;
  }
}

let running: RunningPostgres | undefined;

/** vitest globalSetup: one PostgreSQL server per test run. */
export async function setup(project: TestProject): Promise<void> {
  try {
    running = await startPostgres();
    project.provide("pgAdminUrl", running.adminUrl);
  } catch (e) {
    const bar = "!".repeat(78);
    console.warn(
      `\n${bar}\n!! PostgreSQL could not start: every PostgreSQL variant of the store, queue,\n!! pipeline and webhook suites is SKIPPED in this run.\n!! ${String(
        (e as Error).message,
      )
        .split("\n")
        .join("\n!! ")}\n${bar}\n`,
    );
    project.provide("pgAdminUrl", null);
  }
}

export async function teardown(): Promise<void> {
  await running?.stop();
}
