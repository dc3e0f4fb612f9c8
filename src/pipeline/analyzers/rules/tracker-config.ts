/** The rules analyzer's view of the trackers (src/trackers/): a company's compiled set and its file parser. */
export { compiledTrackers, effectiveTrackers } from "../../../trackers/registry.js";
export { parseTrackerFile, TrackerConfigError } from "../../../trackers/file.js";
