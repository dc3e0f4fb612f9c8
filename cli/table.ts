import type { Io } from "./io.js";

type Cell = string | number | null | undefined;

/**
 * A list for people and for pipes: an aligned table with a header on a
 * terminal, tab-separated values with a header line otherwise (cut, awk and
 * spreadsheets read it; tabs and newlines inside a cell become spaces).
 * `--json` is the form for programs.
 */
export function printTable(io: Io, headers: string[], rows: Cell[][]): void {
  const text = rows.map((r) => r.map((c) => (c === null || c === undefined || c === "" ? "-" : String(c).replace(/[\t\r\n]+/g, " "))));
  if (!io.stdoutIsTty) {
    io.out([headers, ...text].map((r) => r.join("\t")).join("\n"));
    return;
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  io.out([line(headers.map((h) => h.toUpperCase())), ...text.map(line)].join("\n"));
}
