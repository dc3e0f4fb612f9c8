import type { Migration } from "kysely";
import { m001_foundation } from "./001_foundation.js";
import { m002_jobs_events } from "./002_jobs_events.js";
import { m003_reports } from "./003_reports.js";
import { m004_call_history } from "./004_call_history.js";
import { m005_transcripts } from "./005_transcripts.js";
import { m006_pipeline } from "./006_pipeline.js";
import { m007_webhooks } from "./007_webhooks.js";
import { m008_job_pipeline } from "./008_job_pipeline.js";
import { m009_egress } from "./009_egress.js";
import { m010_lifecycle } from "./010_lifecycle.js";
import { m011_console } from "./011_console.js";
import { m012_fanout_queue } from "./012_fanout_queue.js";
import { m013_console_ratio_double } from "./013_console_ratio_double.js";

/**
 * Every migration, imported statically: the compiled executable has no
 * migrations folder to list. Names sort in the order they must run.
 */
export const MIGRATIONS: Record<string, Migration> = {
  "001_foundation": m001_foundation,
  "002_jobs_events": m002_jobs_events,
  "003_reports": m003_reports,
  "004_call_history": m004_call_history,
  "005_transcripts": m005_transcripts,
  "006_pipeline": m006_pipeline,
  "007_webhooks": m007_webhooks,
  "008_job_pipeline": m008_job_pipeline,
  "009_egress": m009_egress,
  "010_lifecycle": m010_lifecycle,
  "011_console": m011_console,
  "012_fanout_queue": m012_fanout_queue,
  "013_console_ratio_double": m013_console_ratio_double,
};
