import { PROCESSING_STATUSES } from "../calls/state.js";
import { AppError } from "../errors.js";
import type { CallFilters } from "../store/console-calls.js";
import type { ProcessingStatus } from "../store/states.js";
import { toMatchQuery } from "../store/search-sqlite.js";

/** The calls page's query string, as typed in its form (names are what the form sends). */
export interface FilterParams {
  status: string;
  alerts: string;
  score_below: string;
  rep: string;
  from: string;
  to: string;
  review: string;
  q: string;
}

export const FILTER_NAMES: (keyof FilterParams)[] = ["status", "alerts", "score_below", "rep", "from", "to", "review", "q"];

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function readFilterParams(query: (name: string) => string | undefined): FilterParams {
  const p = {} as FilterParams;
  for (const n of FILTER_NAMES) p[n] = (query(n) ?? "").trim();
  return p;
}

/** Checks each parameter; a bad one is a 422 naming it, never silently ignored. */
export function toCallFilters(p: FilterParams): CallFilters {
  const errors: Record<string, string[]> = {};
  const f: CallFilters = {};
  if (p.status) {
    if ((PROCESSING_STATUSES as readonly string[]).includes(p.status)) f.status = p.status as ProcessingStatus;
    else errors.status = [`one of ${PROCESSING_STATUSES.join(", ")}`];
  }
  if (p.alerts === "1") f.alerts = true;
  else if (p.alerts) errors.alerts = ["1 or empty"];
  if (p.score_below) {
    if (/^\d{1,3}$/.test(p.score_below) && Number(p.score_below) <= 101) f.scoreBelow = Number(p.score_below);
    else errors.score_below = ["an integer from 0 to 101"];
  }
  if (p.rep) f.rep = p.rep;
  for (const k of ["from", "to"] as const) {
    if (!p[k]) continue;
    if (DATE.test(p[k]) && !Number.isNaN(Date.parse(`${p[k]}T00:00:00Z`))) f[k] = p[k];
    else errors[k] = ["a date, YYYY-MM-DD"];
  }
  if (p.review === "reviewed" || p.review === "unreviewed") f.review = p.review;
  else if (p.review) errors.review = ["reviewed or unreviewed"];
  if (p.q) f.match = toMatchQuery(p.q) ?? undefined;
  if (Object.keys(errors).length > 0) throw new AppError("validation_failed", `invalid filter: ${Object.keys(errors).join(", ")}`, { errors });
  return f;
}

export function filterQueryString(p: FilterParams, extra: Record<string, string> = {}): string {
  const u = new URLSearchParams();
  for (const n of FILTER_NAMES) if (p[n]) u.set(n, p[n]);
  for (const [k, v] of Object.entries(extra)) u.set(k, v);
  const s = u.toString();
  return s ? `?${s}` : "";
}
