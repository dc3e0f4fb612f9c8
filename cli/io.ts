/** Where commands write. Tests pass buffers; the executable passes stdout/stderr. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t.endsWith("\n") ? t : `${t}\n`),
  err: (t) => process.stderr.write(t.endsWith("\n") ? t : `${t}\n`),
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
