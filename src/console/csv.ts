import type { ConsoleCallRow } from "../store/console-calls.js";

const COLUMNS: (keyof ConsoleCallRow)[] = [
  "id",
  "external_call_id",
  "started_at",
  "rep_name",
  "customer_name",
  "duration_seconds",
  "processing_status",
  "overall_score",
  "outcome",
  "alert_count",
  "review_state",
  "reviewed_at",
];

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula (=, +, -, @) is prefixed with '. */
function cell(v: unknown): string {
  if (v === null || v === undefined) return "";
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function callsCsv(rows: ConsoleCallRow[]): string {
  const header = ["call_id", ...COLUMNS.slice(1)].join(",");
  return [header, ...rows.map((r) => COLUMNS.map((k) => cell(r[k])).join(","))].join("\r\n") + "\r\n";
}
