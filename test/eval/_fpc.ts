import { compiledTrackers } from "../../src/trackers/registry.js";
import { detect } from "../../src/trackers/engine.js";
import { corpusTranscript } from "./corpus.js";
import { devCalls } from "./writers.js";
import { labelOfHit } from "./score-corpus.js";
const tr = compiledTrackers(undefined);
const prefix = process.argv[3] ?? "objection:";
for (const c of devCalls([process.argv[2]])) {
  const hits = detect(corpusTranscript(c).segments, tr);
  c.lines.forEach((l, i) => {
    for (const h of hits.filter((h) => h.segment === i)) { const lab = labelOfHit(h); if (lab?.startsWith(prefix) && !l.labels.includes(lab)) console.log(`FP ${c.id} ${lab} [${h.reason.by} ${h.reason.score} ${h.reason.pattern ?? ""}] ${h.sentence} {${l.labels}}`); }
    for (const lab of l.labels.filter((x) => x.startsWith(prefix))) if (!hits.some((h) => h.segment === i && labelOfHit(h) === lab)) console.log(`FN ${c.id} ${lab}: ${l.text}`);
  });
}
