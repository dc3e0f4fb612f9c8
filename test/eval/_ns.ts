import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { compiledTrackers } from "../../src/pipeline/analyzers/rules/tracker-config.js";
import { gatherEvidence } from "../../src/pipeline/analyzers/rules/evidence.js";
import { nextSteps } from "../../src/pipeline/analyzers/rules/next-steps.js";
import { corpusTranscript, loadSplit } from "./corpus.js";
const ids = process.argv.slice(2);
for (const c of loadSplit("dev").filter((c) => ids.includes(c.id))) {
  const ev = gatherEvidence(corpusTranscript(c), compiledTrackers(undefined));
  const f = nextSteps(ev);
  console.log("##", c.id, "labelled", c.outcome, c.next_step_agreed);
  for (const h of ev.hits) if (["next_step", "rejection"].includes(h.tracker.category) || ["next_step_acceptance", "commitment"].includes(h.tracker.type)) console.log(`  ${h.segment} ${h.tracker.id} [${h.reason.by} ${h.reason.score}] ${h.speaker}: ${h.sentence}`);
  console.log("  agreed:", f.agreed?.segment, f.agreed?.sentence, "dated", f.dated, "commit", f.commitment?.segment, "rej", f.rejection?.segment);
}
