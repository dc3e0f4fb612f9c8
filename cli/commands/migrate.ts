import type { Command } from "commander";
import { LATEST_SCHEMA } from "../../src/store/migrate.js";
import { openStore } from "../../src/store/open.js";
import { addConfigOptions, configFrom, type CliContext } from "../context.js";

/**
 * Applies the schema migrations and exits. `serve` and `worker` also migrate
 * at start (concurrent starts are safe: the migrator holds a lock), so this is
 * for operators who upgrade the schema as a step of its own, before rolling
 * new binaries out to many machines. A database written by a newer callreview
 * is refused, as everywhere.
 */
export function migrateCommand(program: Command, ctx: CliContext): void {
  const cmd = program
    .command("migrate")
    .description("Apply database migrations (SQLite data dir or --database-url) and exit")
    .option("--json", "machine-readable output");
  addConfigOptions(cmd, ["dbBusyTimeoutMs"]);
  cmd.action(async (opts: { json?: boolean }, command: Command) => {
    const config = configFrom(command, ctx);
    const store = await openStore(config.dataDir, { databaseUrl: config.databaseUrl, busyTimeoutMs: config.dbBusyTimeoutMs });
    try {
      const out = { database: store.file, driver: store.driver, schema_version: store.schemaVersion, latest_schema: LATEST_SCHEMA, applied: store.migrated };
      if (opts.json) ctx.io.out(JSON.stringify(out));
      else
        ctx.io.out(
          store.migrated.length > 0
            ? `applied ${store.migrated.join(", ")}; schema ${store.schemaVersion} (${store.file})`
            : `schema ${store.schemaVersion} is current (${store.file})`,
        );
    } finally {
      await store.close();
    }
  });
}
