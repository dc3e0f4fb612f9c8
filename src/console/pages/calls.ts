import { html } from "hono/html";
import { PROCESSING_STATUSES, WORKING_STATUSES, type ProcessingStatus } from "../../calls/state.js";
import type { ConsoleCallRow } from "../../store/console-calls.js";
import type { SessionUser } from "../../store/sessions.js";
import { filterQueryString, type FilterParams } from "../filters.js";
import { clock, page, type Html } from "../layout.js";

export const PAGE_SIZE = 50;

function option(value: string, label: string, selected: string): Html {
  return html`<option value="${value}" ${value === selected ? html`selected` : ""}>${label}</option>`;
}

function row(c: ConsoleCallRow): Html {
  const working = WORKING_STATUSES.includes(c.processing_status as ProcessingStatus);
  return html`<tr data-id="${c.id}" ${working ? html`data-working="1"` : ""}>
  <td><a href="/app/calls/${c.id}">${c.started_at.slice(0, 16).replace("T", " ")}</a></td>
  <td>${c.rep_name ?? "–"}</td>
  <td>${c.customer_name ?? "–"}</td>
  <td class="num">${c.duration_seconds === null ? "–" : clock(c.duration_seconds)}</td>
  <td><span data-col="status" class="${working ? "badge working" : c.processing_status === "failed" ? "badge failed" : ""}">${c.processing_status}</span></td>
  <td class="num" data-col="score">${c.overall_score ?? "–"}</td>
  <td data-col="outcome">${c.outcome ?? "–"}</td>
  <td><span data-col="alerts" class="${c.alert_count > 0 ? "badge alert" : ""}">${c.alert_count > 0 ? `${c.alert_count} alert${c.alert_count > 1 ? "s" : ""}` : ""}</span></td>
  <td>${c.review_state === "reviewed" ? html`<span class="badge reviewed">reviewed</span>` : "–"}</td>
</tr>`;
}

export function callsPage(opts: {
  user: SessionUser;
  csrf: string;
  params: FilterParams;
  reps: string[];
  rows: ConsoleCallRow[];
  total: number;
  page: number;
  error?: string;
}): Html {
  const p = opts.params;
  const pages = Math.max(1, Math.ceil(opts.total / PAGE_SIZE));
  const first = opts.total === 0 ? 0 : (opts.page - 1) * PAGE_SIZE + 1;
  const last = Math.min(opts.total, opts.page * PAGE_SIZE);
  return page(
    { title: "Calls", user: opts.user, csrf: opts.csrf, current: "calls" },
    html`<h1>Calls</h1>
<form class="filters" method="get" action="/app/calls" role="search" aria-label="Filter calls">
  <label>Search transcripts <input type="search" name="q" value="${p.q}"></label>
  <label>Status <select name="status">${option("", "Any", p.status)}${PROCESSING_STATUSES.map((s) => option(s, s, p.status))}</select></label>
  <label>Rep <select name="rep">${option("", "Any", p.rep)}${opts.reps.map((r) => option(r, r, p.rep))}</select></label>
  <label>Review <select name="review">${option("", "Any", p.review)}${option("unreviewed", "Not reviewed", p.review)}${option("reviewed", "Reviewed", p.review)}</select></label>
  <label>Score below <input type="number" name="score_below" min="0" max="101" value="${p.score_below}" size="4"></label>
  <label>From <input type="date" name="from" value="${p.from}"></label>
  <label>To <input type="date" name="to" value="${p.to}"></label>
  <label><span>Compliance alert</span><select name="alerts">${option("", "Any", p.alerts)}${option("1", "Has an alert", p.alerts)}</select></label>
  <button type="submit" class="primary">Apply</button>
  <a class="button" href="/app/calls">Clear</a>
  <a class="button" href="/app/calls.csv${filterQueryString(p)}" download>Export CSV</a>
</form>
${opts.error ? html`<p class="error" role="alert">${opts.error}</p>` : ""}
<p aria-live="polite">${opts.total === 0 ? "No calls match." : `Calls ${first}–${last} of ${opts.total}`}</p>
<table>
  <caption class="skip">Calls, newest first</caption>
  <thead><tr><th scope="col">Time</th><th scope="col">Rep</th><th scope="col">Customer</th><th scope="col">Duration</th><th scope="col">Status</th><th scope="col">Score</th><th scope="col">Outcome</th><th scope="col">Alerts</th><th scope="col">Review</th></tr></thead>
  <tbody>${opts.rows.map(row)}</tbody>
</table>
<nav class="pager" aria-label="Pages">
  ${opts.page > 1 ? html`<a href="/app/calls${filterQueryString(p, { page: String(opts.page - 1) })}" rel="prev">Previous</a>` : ""}
  <span>Page ${opts.page} of ${pages}</span>
  ${opts.page < pages ? html`<a href="/app/calls${filterQueryString(p, { page: String(opts.page + 1) })}" rel="next">Next</a>` : ""}
</nav>`,
  );
}
