import { html } from "hono/html";
import type { RepWeek } from "../../store/console-dashboard.js";
import type { SessionUser } from "../../store/sessions.js";
import { barChart, columnChart } from "../charts.js";
import { page, type Html } from "../layout.js";

/** One rep-week's sums without its keys: the dashboard adds them up per week and per rep. */
type Totals = Omit<RepWeek, "rep" | "week">;

function add(into: Map<string, Totals>, key: string, r: RepWeek): void {
  const t = into.get(key) ?? { calls: 0, scored: 0, score_sum: 0, alerts: 0, ratio_n: 0, ratio_sum: 0 };
  t.calls += r.calls;
  t.scored += r.scored;
  t.score_sum += r.score_sum;
  t.alerts += r.alerts;
  t.ratio_n += r.ratio_n;
  t.ratio_sum += r.ratio_sum;
  into.set(key, t);
}

const avg = (t: Totals) => (t.scored === 0 ? null : Math.round(t.score_sum / t.scored));
const ratio = (t: Totals) => (t.ratio_n === 0 ? null : Math.round((t.ratio_sum / t.ratio_n) * 100));

export function dashboardPage(opts: { user: SessionUser; csrf: string; cells: RepWeek[]; weeks: number }): Html {
  const byWeek = new Map<string, Totals>();
  const byRep = new Map<string, Totals>();
  for (const c of opts.cells) {
    add(byWeek, c.week, c);
    add(byRep, c.rep, c);
  }
  const weeks = [...byWeek.entries()].sort(([a], [b]) => a.localeCompare(b));
  const reps = [...byRep.entries()].sort(([a], [b]) => a.localeCompare(b));
  const wk = (w: string) => w.slice(5);
  const maxCalls = (m: [string, Totals][]) => Math.max(1, ...m.map(([, t]) => t.calls));
  const maxAlerts = (m: [string, Totals][]) => Math.max(1, ...m.map(([, t]) => t.alerts));
  return page(
    { title: "Dashboard", user: opts.user, csrf: opts.csrf, current: "dashboard" },
    html`<h1>Dashboard</h1>
<p>The last ${opts.weeks} weeks, by the call's start date. Weeks start on Monday.</p>
${
  opts.cells.length === 0
    ? html`<p>No calls in this period.</p>`
    : html`
<h2>Per week</h2>
<div class="charts">
${columnChart({ title: "Calls per week", bars: weeks.map(([w, t]) => ({ label: wk(w), value: t.calls })), max: maxCalls(weeks) })}
${columnChart({ title: "Average score per week", bars: weeks.map(([w, t]) => ({ label: wk(w), value: avg(t) })), max: 100, color: "#1a7f37" })}
${columnChart({ title: "Compliance alerts per week", bars: weeks.map(([w, t]) => ({ label: wk(w), value: t.alerts })), max: maxAlerts(weeks), color: "#b3261e" })}
${columnChart({ title: "Rep talk ratio per week (%)", bars: weeks.map(([w, t]) => ({ label: wk(w), value: ratio(t) })), max: 100, color: "#8a5a00" })}
</div>
<h2>Per rep</h2>
<div class="charts">
${barChart({ title: "Calls per rep", bars: reps.map(([r, t]) => ({ label: r, value: t.calls })), max: maxCalls(reps) })}
${barChart({ title: "Average score per rep", bars: reps.map(([r, t]) => ({ label: r, value: avg(t) })), max: 100, color: "#1a7f37" })}
${barChart({ title: "Compliance alerts per rep", bars: reps.map(([r, t]) => ({ label: r, value: t.alerts })), max: maxAlerts(reps), color: "#b3261e" })}
${barChart({ title: "Rep talk ratio (%)", bars: reps.map(([r, t]) => ({ label: r, value: ratio(t), text: ratio(t) === null ? "–" : `${ratio(t)}%` })), max: 100, color: "#8a5a00" })}
</div>
<table>
<caption>Per rep</caption>
<thead><tr><th scope="col">Rep</th><th scope="col">Calls</th><th scope="col">Average score</th><th scope="col">Alerts</th><th scope="col">Talk ratio</th></tr></thead>
<tbody>${reps.map(([r, t]) => html`<tr><td>${r}</td><td class="num">${t.calls}</td><td class="num">${avg(t) ?? "–"}</td><td class="num">${t.alerts}</td><td class="num">${ratio(t) === null ? "–" : `${ratio(t)}%`}</td></tr>`)}</tbody>
</table>`
}`,
  );
}
