import path from "node:path";
import type { Command } from "commander";
import { AppError } from "../../src/errors.js";
import { copyData } from "../../src/store/copy-data.js";
import { openStore } from "../../src/store/open.js";
import { isPostgresUrl } from "../../src/store/postgres.js";
import type { CliContext } from "../context.js";

/**
 * Moves an installation from its SQLite data dir to PostgreSQL. Stop `serve`
 * on the data dir first: calls accepted after the copy started are not in it.
 * The audio files stay where they are; point --audio-dir (or the data dir) of
 * every node at them.
 */
export function copyDataCommand(program: Command, ctx: CliContext): void {
  program
    .command("copy-data")
    .description("Copy every table from a SQLite data dir into an empty PostgreSQL database, verified by counts and checksums")
    .requiredOption("--from <dir>", "SQLite data dir (holding callreview.db)")
    .requiredOption("--to <url>", "postgres://… target (migrated here if needed; must hold no data)")
    .option("--json", "print the per-table counts and checksums as JSON")
    .action(async (opts: { from: string; to: string; json?: boolean }) => {
      if (!isPostgresUrl(opts.to)) throw new AppError("invalid_config", "--to must be a postgres:// or postgresql:// URL");
      const from = path.resolve(opts.from);
      const source = await openStore(from);
      try {
        const target = await openStore(from, { databaseUrl: opts.to });
        try {
          const summary = await copyData(source.db, target.db);
          if (opts.json) ctx.io.out(JSON.stringify({ from: source.file, to: target.file, tables: summary }));
          else {
            for (const t of summary) ctx.io.out(`${t.table.padEnd(22)} ${String(t.rows).padStart(9)}  sha256 ${t.sha256}`);
            ctx.io.err(`copied ${source.file} to ${target.file}; every table verified`);
          }
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    });
}
