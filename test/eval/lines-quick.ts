import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { detect } from "../../src/trackers/engine.js";
import { score } from "../../src/trackers/classifier.js";
import { sentenceFeatures } from "../../src/trackers/features.js";
import { readUtterance } from "../../src/trackers/text.js";
import { corpusTranscript, loadSplit } from "./corpus.js";
import { labelOfHit } from "./score-corpus.js";
const want = process.argv[2] ?? "objection:";
const trackers = compiledTrackers(undefined);
for (const call of loadSplit("dev")) {
  const t = corpusTranscript(call);
  const hits = detect(t.segments, trackers);
  call.lines.forEach((l, i) => {
    const got = hits.filter((h) => h.segment === i).map((h) => [labelOfHit(h), h.reason.by, h.reason.score] as const).filter(([x]) => x && x.startsWith(want));
    const exp = l.labels.filter((x) => x.startsWith(want));
    const gotL = got.map((g) => g[0]);
    const miss = exp.filter((x) => !gotL.includes(x));
    const extra = got.filter((g) => !exp.includes(g[0]!));
    if (!miss.length && !extra.length) return;
    // best classifier score per missed label
    const best = miss.map((m) => {
      const ct = trackers.find((c) => labelOfHit({ tracker: c.def } as never) === m);
      if (!ct?.model) return `${m}`;
      const p = Math.max(...readUtterance(l.text).map((s) => score(ct.model!, sentenceFeatures(s))));
      return `${m}(${p.toFixed(2)})`;
    });
    console.log(`${miss.length ? "MISS " + best.join(",") : ""}${extra.length ? " EXTRA " + extra.map((e) => `${e[0]}/${e[1]}/${e[2]}`).join(",") : ""} | ${l.s}: ${l.text}`);
  });
}
