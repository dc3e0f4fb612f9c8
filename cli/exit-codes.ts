/** Exit codes of the CLI: 0 success, 1 any other failure, 2 a usage error, 3 something named was not found. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_NOT_FOUND = 3;

/** An error that ends the command with its own exit code (runCli prints the message). */
export class CliExit extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
