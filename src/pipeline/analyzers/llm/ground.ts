import type { Report } from "../../../report/schema.js";
import type { Transcript } from "../../ports.js";
import { locateQuote } from "../post-check.js";

type Items = Pick<Report, "objections" | "buying_signals">;

/** Quoted passages in a free-text item: "…" or “…”. */
function quotes(text: string): string[] {
  return [...text.matchAll(/["“]([^"”]{4,})["”]/g)].map((m) => m[1]);
}

const said = (text: string, transcript: Transcript | null) => quotes(text).some((q) => locateQuote(transcript, q) !== null);
const kind = (text: string) => /^([a-z_]+) at /.exec(text)?.[1];

/**
 * A model's objections and buying signals, kept only when they quote words
 * that were said; the trackers' own (always real quotes) fill in the kinds the
 * model left out, so dropping an invented item never loses a real finding.
 */
export function groundItems(draft: Items, rules: Items, transcript: Transcript | null): Items {
  const objections = draft.objections.filter((o) => said(o.objection, transcript));
  for (const o of rules.objections) if (!objections.some((x) => kind(x.objection) === kind(o.objection))) objections.push(o);
  const buying_signals = draft.buying_signals.filter((s) => said(s.signal, transcript));
  for (const s of rules.buying_signals) if (!buying_signals.some((x) => kind(x.signal) === kind(s.signal))) buying_signals.push(s);
  return { objections: objections.slice(0, 100), buying_signals: buying_signals.slice(0, 100) };
}
