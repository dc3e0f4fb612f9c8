import { libraryTracker, type TrackerDef } from "../format.js";
import { COMPLIANCE_TRACKERS } from "./compliance.js";
import { CONVERSATION_TRACKERS } from "./conversation.js";
import { CRAFT_TRACKERS } from "./craft.js";
import { OBJECTION_TRACKERS } from "./objections.js";
import { SIGNAL_TRACKERS } from "./signals.js";

/** The built-in tracker library, in the company file format (docs/analyzers.md). */
export const BUILTIN_TRACKERS: TrackerDef[] = [
  ...OBJECTION_TRACKERS,
  ...SIGNAL_TRACKERS,
  ...CONVERSATION_TRACKERS,
  ...COMPLIANCE_TRACKERS,
  ...CRAFT_TRACKERS,
].map(libraryTracker);

export { CUSTOMER_NEUTRAL, REP_NEUTRAL } from "./negatives.js";
