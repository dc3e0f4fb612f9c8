import type { Report } from "../../../report/schema.js";
import { clock, hitsOf, quote, type Evidence } from "./evidence.js";

type Alert = Report["compliance_alerts"][number];

const LABELS: Record<string, string> = {
  prohibited_guarantee: "Guarantee of returns or results",
  prohibited_risk_free: "Investment presented as risk-free",
  pressure_tactics: "Pressure to decide immediately",
  payment_data_request: "Request for card, account or identity numbers on the call",
  misleading_absolute_claim: "Misleading absolute claim (every / never / in full / only)",
};

/**
 * Compliance alerts, each tied to what was said and when. The disclosure check
 * is about an absence, so its detail names the window and the first words instead.
 */
export function complianceAlerts(ev: Evidence): Alert[] {
  if (ev.segments.length === 0) return [];
  const alerts: Alert[] = [];
  const start = ev.segments[0].t_start;
  const disclosures = hitsOf(ev, "disclosure");
  const first = disclosures[0];
  if (!first) {
    const opening = ev.segments[0];
    alerts.push({
      type: "recording_disclosure_missing",
      severity: "high",
      detail: `No recording disclosure by the rep anywhere in the call; it is required within the first ${ev.disclosureWindow} s. The call opens at ${clock(opening.t_start)} with: "${quote(opening.text)}"`,
    });
  } else if (first.t - start > ev.disclosureWindow) {
    alerts.push({
      type: "recording_disclosure_late",
      severity: "medium",
      detail: `Recording disclosure only at ${clock(first.t)} (required within the first ${ev.disclosureWindow} s): "${quote(first.sentence)}"`,
    });
  }
  const seen = new Set<string>();
  for (const h of [...hitsOf(ev, "prohibited_claim"), ...hitsOf(ev, "sensitive_data_request")].sort((a, b) => a.t - b.t || a.segment - b.segment)) {
    const type = h.tracker.type;
    // One alert per kind, at its first occurrence; repeats add weight to the same alert.
    if (seen.has(type)) continue;
    seen.add(type);
    const repeats = [...hitsOf(ev, "prohibited_claim"), ...hitsOf(ev, "sensitive_data_request")].filter((x) => x.tracker.type === type).length;
    alerts.push({
      type,
      severity: h.tracker.severity ?? "high",
      detail: `${LABELS[type] ?? type} at ${clock(h.t)} (${h.speaker}): "${quote(h.sentence, 400)}"${repeats > 1 ? ` (${repeats} times in the call)` : ""}`,
    });
  }
  return alerts;
}
