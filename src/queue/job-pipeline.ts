import type { Db, DbOrTx } from "../store/db.js";

/**
 * Which workers may run a job: `placeholder` or `live` workers only, or `any`
 * when the job needs only an analyzer (the call's transcript was imported,
 * and both pipelines analyse imported transcripts with the real analyzer).
 */
export const JOB_PIPELINES = ["placeholder", "live", "any"] as const;
export type JobPipeline = (typeof JOB_PIPELINES)[number];

/**
 * The pipeline of the process that opened a database: the jobs it queues ask
 * for it. Kept per database handle (set once by createServices) so the intake
 * functions, which receive only the handle, need no extra parameter.
 */
const pipelines = new WeakMap<Db, "placeholder" | "live">();

export function setQueuePipeline(db: Db, pipeline: "placeholder" | "live"): void {
  pipelines.set(db, pipeline);
}

/** `any` for a handle no process registered (tools, tests opening the file directly). */
export function queuePipelineOf(db: Db): JobPipeline {
  return pipelines.get(db) ?? "any";
}

/** A call whose newest transcript was imported needs only an analyzer, whichever pipeline queued it. */
export async function pipelineForCall(db: DbOrTx, callId: number, queuing: JobPipeline): Promise<JobPipeline> {
  if (queuing === "any") return "any";
  const latest = await db.selectFrom("transcripts").select("source").where("call_id", "=", callId).orderBy("id", "desc").limit(1).executeTakeFirst();
  return latest?.source === "imported" ? "any" : queuing;
}

/** The job pipelines a worker of `mode` can run. */
export function claimablePipelines(mode: "placeholder" | "live"): JobPipeline[] {
  return [mode, "any"];
}
