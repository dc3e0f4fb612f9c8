import type { CliContext } from "./context.js";
import { UsageError } from "./exit-codes.js";

/**
 * Destructive commands go ahead with --yes; on a terminal they ask; anywhere
 * else (a script, a pipe, cron) they refuse with exit code 2 rather than guess.
 */
export async function confirmDestructive(ctx: CliContext, yes: boolean | undefined, what: string): Promise<void> {
  if (yes) return;
  if (!ctx.io.ask) throw new UsageError(`refusing to ${what} without --yes (no terminal to confirm on); pass --yes to confirm`);
  const answer = (await ctx.io.ask(`About to ${what}. This cannot be undone. Continue? [y/N] `)).trim().toLowerCase();
  if (answer !== "y" && answer !== "yes") throw new UsageError(`not confirmed: nothing done (pass --yes to skip this question)`);
}
