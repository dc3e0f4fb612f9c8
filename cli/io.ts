import readline from "node:readline/promises";

/** Where commands write. Tests pass buffers; the executable passes stdout/stderr. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** stdout is a terminal: lists print aligned tables rather than TSV. */
  readonly stdoutIsTty?: boolean;
  /** Someone can answer a question (stdin and stderr are terminals); absent in tests and pipes. */
  ask?(question: string): Promise<string>;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t.endsWith("\n") ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith("\n") ? t : `${t}\n`),
  get stdoutIsTty() {
    return process.stdout.isTTY === true;
  },
  get ask() {
    if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
    return async (question: string) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      try {
        return await rl.question(question);
      } finally {
        rl.close();
      }
    };
  },
};

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/**
 * Redraws one status line in place (a spinner) when stderr is a terminal.
 * Returns false when it cannot, so callers print plain lines instead.
 */
export function spinLine(text: string): boolean {
  if (!process.stderr.isTTY) return false;
  process.stderr.write(`\r\x1b[K${text}`);
  return true;
}
