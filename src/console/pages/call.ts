import { html } from "hono/html";
import type { TalkMetrics, TranscriptSegment } from "../../pipeline/ports.js";
import type { Report } from "../../report/schema.js";
import type { AlertReviewView } from "../../store/reviews.js";
import type { CallRow, ReportRow } from "../../store/schema.js";
import type { SessionUser } from "../../store/sessions.js";
import { barChart } from "../charts.js";
import { clock, page, type Html } from "../layout.js";

export interface CallPageData {
  user: SessionUser;
  csrf: string;
  call: CallRow;
  segments: TranscriptSegment[];
  metrics: TalkMetrics | null;
  versions: Pick<ReportRow, "version" | "analyzer" | "created_at">[];
  report: { version: number; body: Report } | null;
  alertReviews: AlertReviewView[];
  review: { review_state: string; reviewed_at: string | null; reviewed_by: string | null; review_note: string | null } | undefined;
  notice?: string;
}

/**
 * When an alert happened. The report's alerts carry no time of their own; the
 * compliance highlight quoting the same words does, else the "at m:ss" the
 * rules analyzer writes into the detail.
 */
export function alertTime(alert: Report["compliance_alerts"][number], report: Report): number | null {
  const h = (report.transcript_highlights ?? []).find((x) => x.label === "compliance" && x.quote.length > 8 && alert.detail.includes(x.quote.slice(0, 60)));
  if (h) return h.t;
  const m = /\bat (?:(\d+):)?(\d{1,2}):(\d{2})\b/.exec(alert.detail);
  if (m) return Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]);
  return null;
}

function segmentIndexAt(segments: TranscriptSegment[], t: number): number {
  return segments.findIndex((s) => t >= s.t_start - 0.05 && t <= s.t_end + 0.05);
}

function transcript(d: CallPageData): Html {
  if (d.segments.length === 0) return html`<p>No transcript.</p>`;
  const report = d.report?.body;
  const marks = new Map<number, { cls: "hit" | "alert"; tags: string[] }>();
  const mark = (t: number, cls: "hit" | "alert", tag: string) => {
    const i = segmentIndexAt(d.segments, t);
    if (i < 0) return;
    const m = marks.get(i) ?? { cls, tags: [] };
    if (cls === "alert") m.cls = "alert";
    if (!m.tags.includes(tag)) m.tags.push(tag);
    marks.set(i, m);
  };
  for (const h of report?.transcript_highlights ?? []) mark(h.t, h.label === "compliance" ? "alert" : "hit", h.label.replace("_", " "));
  for (const a of report?.compliance_alerts ?? []) {
    const t = alertTime(a, report!);
    if (t !== null) mark(t, "alert", a.type.replace(/_/g, " "));
  }
  return html`<ol class="transcript" aria-label="Transcript">
${d.segments.map((s, i) => {
  const m = marks.get(i);
  return html`<li data-start="${s.t_start}" data-end="${s.t_end}" class="${m?.cls ?? ""}"><button type="button" data-seek="${s.t_start}" aria-label="Play from ${clock(s.t_start)}: ${s.speaker}"><span class="t">${clock(s.t_start)}</span><span class="spk">${s.speaker}</span><span>${s.text}${m ? html`<span class="tag">${m.tags.join(" · ")}</span>` : ""}</span></button></li>`;
})}
</ol>`;
}

function alerts(d: CallPageData): Html {
  const report = d.report?.body;
  if (!report) return html`<p>No report yet.</p>`;
  if (report.compliance_alerts.length === 0) return html`<p>No compliance alerts.</p>`;
  return html`<ul class="alerts">
${report.compliance_alerts.map((a, i) => {
  const t = alertTime(a, report);
  const r = d.alertReviews.find((x) => x.alert_index === i);
  return html`<li id="alert-${i}">
  <strong>${a.type.replace(/_/g, " ")}</strong> <span class="badge alert">${a.severity}</span>
  ${t !== null ? html`<button type="button" data-seek="${t}" aria-label="Play the moment of the ${a.type.replace(/_/g, " ")} alert at ${clock(t)}">▶ ${clock(t)}</button>` : ""}
  <p>${a.detail}</p>
  ${r ? html`<p><span class="decision ${r.decision}">${r.decision}</span> by ${r.by} at ${r.at.slice(0, 16).replace("T", " ")}${r.note ? html` — “${r.note}”` : ""}</p>` : ""}
  <form method="post" action="/app/calls/${d.call.id}/alerts/${i}">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    <input type="hidden" name="version" value="${d.report!.version}">
    <label for="note-${i}">Note</label><input id="note-${i}" name="note" maxlength="2000" value="${r?.note ?? ""}">
    <button type="submit" name="decision" value="confirmed">Confirm alert</button>
    <button type="submit" name="decision" value="dismissed">Dismiss alert</button>
  </form>
</li>`;
})}
</ul>`;
}

function reportSection(d: CallPageData): Html {
  const r = d.report?.body;
  if (!r) return "";
  const breakdown = Object.entries(r.score_breakdown).map(([k, v]) => ({ label: k.replace(/_/g, " "), value: v as number, text: `${v}/10` }));
  return html`<h2>Report (version ${d.report!.version})</h2>
<dl class="kv"><dt>Overall score</dt><dd>${r.overall_score}</dd><dt>Outcome</dt><dd>${r.call_outcome}</dd><dt>Close likelihood</dt><dd>${r.close_likelihood}%</dd><dt>Confidence</dt><dd>${r.confidence_level}</dd></dl>
<p>${r.summary}</p>
${barChart({ title: "Scores (0–10)", bars: breakdown, max: 10 })}
<h2>Objections</h2>
${r.objections.length === 0 ? html`<p>None.</p>` : html`<ul>${r.objections.map((o) => html`<li>${o.objection} <em>(${o.raised_by}, ${o.handled ? "handled" : "not handled"})</em></li>`)}</ul>`}
<h2>Buying signals</h2>
${r.buying_signals.length === 0 ? html`<p>None.</p>` : html`<ul>${r.buying_signals.map((s) => html`<li>${s.signal} <em>(${s.strength})</em></li>`)}</ul>`}
<h2>Coaching</h2>
<p><strong>${r.coaching_notes.priority} priority:</strong> ${r.coaching_notes.detail}</p>
<h2>CRM note</h2>
<p>${r.crm_note}</p>`;
}

function metricsChart(m: TalkMetrics | null): Html {
  if (!m) return "";
  const bars = [
    { label: "speech", value: Math.round(m.speech_seconds), text: clock(m.speech_seconds) },
    {
      label: "rep talk",
      value: m.rep_talk_seconds === null ? null : Math.round(m.rep_talk_seconds),
      text: m.rep_talk_seconds === null ? "–" : clock(m.rep_talk_seconds),
    },
    {
      label: "customer talk",
      value: m.customer_talk_seconds === null ? null : Math.round(m.customer_talk_seconds),
      text: m.customer_talk_seconds === null ? "–" : clock(m.customer_talk_seconds),
    },
    {
      label: "longest rep monologue",
      value: m.longest_monologue_rep_seconds === null ? null : Math.round(m.longest_monologue_rep_seconds),
      text: m.longest_monologue_rep_seconds === null ? "–" : clock(m.longest_monologue_rep_seconds),
    },
  ];
  return html`<h2>Talk metrics</h2>
${barChart({ title: `Talk time (duration ${clock(m.duration_seconds)}, talk ratio ${m.talk_ratio === null ? "–" : Math.round(m.talk_ratio * 100) + "% rep"})`, bars, max: Math.max(1, m.duration_seconds), color: "#1a7f37" })}`;
}

export function callPage(d: CallPageData): Html {
  const c = d.call;
  const reviewed = d.review?.review_state === "reviewed";
  return page(
    { title: `Call ${c.id}`, user: d.user, csrf: d.csrf, current: "calls" },
    html`<p><a href="/app/calls">← Calls</a></p>
<h1>Call ${c.id}${c.customer_name ? ` with ${c.customer_name}` : ""}</h1>
${d.notice ? html`<p class="notice" role="status">${d.notice}</p>` : ""}
<dl class="kv"><dt>Rep</dt><dd>${c.rep_name ?? "–"}</dd><dt>Started</dt><dd>${(c.call_started_at ?? c.created_at).slice(0, 16).replace("T", " ")}</dd><dt>Status</dt><dd>${c.processing_status}</dd><dt>Review</dt><dd>${reviewed ? html`<span class="badge reviewed">reviewed</span> by ${d.review!.reviewed_by} at ${d.review!.reviewed_at!.slice(0, 16).replace("T", " ")}` : "not reviewed"}</dd></dl>
<div class="layout">
<section aria-labelledby="h-transcript">
  ${c.audio_sha256 ? html`<audio id="player" controls preload="metadata" src="/app/calls/${c.id}/audio" aria-label="Call recording"></audio>` : html`<p>No audio stored.</p>`}
  <h2 id="h-transcript">Transcript</h2>
  ${transcript(d)}
  ${metricsChart(d.metrics)}
</section>
<section aria-labelledby="h-alerts">
  <h2 id="h-alerts">Compliance alerts</h2>
  ${alerts(d)}
  <form method="post" action="/app/calls/${c.id}/review">
    <input type="hidden" name="_csrf" value="${d.csrf}">
    <label for="review-note">Review note</label> <input id="review-note" name="note" maxlength="2000">
    <button type="submit" class="primary">${reviewed ? "Mark reviewed again" : "Mark call reviewed"}</button>
  </form>
  ${reportSection(d)}
  <h2>Report versions</h2>
  ${d.versions.length === 0 ? html`<p>None yet.</p>` : html`<ul>${d.versions.map((v) => html`<li>${v.version === d.report?.version ? html`<strong>version ${v.version}</strong>` : html`<a href="/app/calls/${c.id}?version=${v.version}">version ${v.version}</a>`} — ${v.analyzer}, ${v.created_at.slice(0, 16).replace("T", " ")}</li>`)}</ul>`}
</section>
</div>`,
  );
}
