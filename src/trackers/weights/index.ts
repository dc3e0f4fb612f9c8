/**
 * The committed built-in models, one file per tracker category, each imported
 * statically so the executable carries them. One file per family keeps each
 * well under the repository's 2 MB file limit as the corpus grows (all in one
 * file was 2.0 MB with 51 writers). `npm run train:trackers` writes them and
 * refuses a category with models but no entry here.
 */
import type { TrackerCategory } from "../format.js";
import { type BuiltinModels, type StoredWeights, unpackAll } from "../weights-file.js";
import buyingSignal from "./buying_signal.json" with { type: "json" };
import disclosure from "./disclosure.json" with { type: "json" };
import discovery from "./discovery.json" with { type: "json" };
import nextStep from "./next_step.json" with { type: "json" };
import objection from "./objection.json" with { type: "json" };
import prohibitedClaim from "./prohibited_claim.json" with { type: "json" };
import rejection from "./rejection.json" with { type: "json" };
import sensitiveDataRequest from "./sensitive_data_request.json" with { type: "json" };

export const COMMITTED_WEIGHTS: Partial<Record<TrackerCategory, StoredWeights>> = {
  objection,
  buying_signal: buyingSignal,
  rejection,
  next_step: nextStep,
  discovery,
  disclosure,
  prohibited_claim: prohibitedClaim,
  sensitive_data_request: sensitiveDataRequest,
};

/** The committed built-in models, unpacked: what the registry starts from and what the weights test checks. */
export function committedModels(): BuiltinModels {
  return unpackAll(Object.values(COMMITTED_WEIGHTS));
}
