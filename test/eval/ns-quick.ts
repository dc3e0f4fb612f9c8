import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { detect } from "../../src/trackers/engine.js";
import { corpusTranscript, loadSplit } from "./corpus.js";
const ids = process.argv.slice(2);
const trackers = compiledTrackers(undefined);
for (const call of loadSplit("dev")) {
  if (!ids.includes(call.id)) continue;
  console.log(`\n## ${call.id} outcome=${call.outcome} agreed=${call.next_step_agreed}`);
  const t = corpusTranscript(call);
  const hits = detect(t.segments, trackers);
  call.lines.forEach((l, i) => {
    const hs = hits.filter((h) => h.segment === i && ["next_step", "rejection", "buying_signal"].includes(h.tracker.category)).map((h) => `${h.tracker.type}`);
    if (hs.length || l.labels.some((x) => /next_step|commitment/.test(x)) || i >= call.lines.length - 4) console.log(`${i} ${l.s} [${l.labels.join(",")}] {${hs.join(",")}} ${l.text.slice(0, 150)}`);
  });
}
