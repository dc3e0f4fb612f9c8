import { CommanderError } from "commander";
import { isAppError } from "../src/errors.js";

/** The CLI's exit codes (README "CLI"): scripts branch on them. */
export const EXIT = { ok: 0, failure: 1, usage: 2, notFound: 3 } as const;

/** A command line that cannot run as given: a bad flag value, a missing --yes. Exit code 2. */
export class UsageError extends Error {}

export function exitCodeOf(e: unknown): number {
  if (e instanceof CommanderError) {
    // Help and version exit with 0; every other commander error is a usage error.
    return e.exitCode === 0 || e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help" ? EXIT.ok : EXIT.usage;
  }
  if (e instanceof UsageError) return EXIT.usage;
  if (e instanceof CliExit) return e.exitCode;
  if (isAppError(e) && e.code === "not_found") return EXIT.notFound;
  return EXIT.failure;
}

/** An error that ends the command with its own exit code (runCli prints the message). */
export class CliExit extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
