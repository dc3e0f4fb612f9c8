import { Option, type Command } from "commander";
import { intRange } from "../arg-parsers.js";
import { toAuditView } from "../../src/lifecycle/audit.js";
import { listAuditEntries } from "../../src/store/audit-log.js";
import { parseId, withServices, type CliContext } from "../context.js";
import { parseIsoOption } from "../dates.js";
import { printJson } from "../io.js";
import { printTable } from "../table.js";

/** `audit list`: who read or erased what (append-only; never holds a call's words). */
export function auditCommand(program: Command, ctx: CliContext): void {
  const auditCmd = program.command("audit").description("Read the audit trail");
  auditCmd
    .command("list")
    .description("List audit entries, newest first")
    .option("--company <id>", "only this company's entries")
    .option("--call <id>", "only entries about this call (erased calls included)")
    .option("--since <date>", "only entries at or after this ISO 8601 date or date-time")
    .addOption(new Option("--limit <n>", "how many (1-10000)").argParser(intRange(1, 10_000)).default(100))
    .option("--json", "print the entries as JSON")
    .action(async (opts: { company?: string; call?: string; since?: string; limit: number; json?: boolean }, cmd: Command) => {
      const companyId = opts.company !== undefined ? parseId(opts.company, "--company") : undefined;
      const callId = opts.call !== undefined ? parseId(opts.call, "--call") : undefined;
      const since = opts.since !== undefined ? parseIsoOption(opts.since, "--since") : undefined;
      const limit = opts.limit;
      const rows = (await withServices(cmd, ctx, (s) => listAuditEntries(s.store.db, { companyId, callId, since, limit }))).map(toAuditView);
      if (opts.json) printJson(ctx.io, rows);
      else if (rows.length === 0) ctx.io.out("No audit entries.");
      else
        printTable(
          ctx.io,
          ["at", "action", "actor", "company", "call", "request", "detail"],
          rows.map((r) => [r.at, r.action, `${r.actor_type}:${r.actor}`, r.company_id, r.call_id, r.request_id, r.detail ? JSON.stringify(r.detail) : null]),
        );
    });
}
