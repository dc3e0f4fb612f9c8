/** Where commands write. Tests pass buffers; the executable passes stdout/stderr. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: Io = {
  out: (t) => process.stdout.write(t.endsWith("\n") ? t : t + "\n"),
  err: (t) => process.stderr.write(t.endsWith("\n") ? t : t + "\n"),
};

export function printJson(io: Io, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}
