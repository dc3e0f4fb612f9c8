/**
 * The closed sets of words the store's state columns hold. The Kysely schema
 * (schema.ts) types its columns with them, so a misspelt state is a type error.
 * No imports: every layer may use these.
 */

/** A call's processing state (spec 3.1); the transitions live in calls/state.ts. */
export const PROCESSING_STATUSES = ["queued", "transcribing", "analyzing", "complete", "failed"] as const;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

/** A call whose work is over: no job will move it again until it is re-queued. */
export const TERMINAL_STATUSES = ["complete", "failed"] as const satisfies readonly ProcessingStatus[];
export type TerminalStatus = (typeof TERMINAL_STATUSES)[number];

export function isTerminal(status: ProcessingStatus): status is TerminalStatus {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export type ReportStatus = "pending" | "ready";

/** How the call came in. */
export type Intake = "api" | "upload" | "inbound_webhook" | "cli";

export type JobStatus = "queued" | "running" | "completed" | "failed";

/** Who wrote the transcript: transcribed here, or brought by the client. */
export type TranscriptSource = "whisper" | "imported";

export const DELIVERY_STATUSES = ["pending", "delivered", "retrying", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Deliveries still to be sent (a first attempt or a retry). */
export const SENDABLE_DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "retrying"];

export type AttemptTrigger = "scheduled" | "replay";
