import { z } from "@hono/zod-openapi";
import { METADATA_TOO_LARGE, metadataFits } from "../../intake/metadata-size.js";

/**
 * CallSubmission (spec 2.1). Strict: an unknown top-level field is a 422, not
 * silently dropped — a typo like `recordng_url` must not create a call with no
 * audio. Free-form extras belong in `metadata`.
 */
const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

export const HttpUrl = z
  .string()
  .max(2048, "must be at most 2048 characters")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, "must be an absolute http(s) URL")
  .openapi({ format: "uri", example: "https://recordings.example.com/call-123.mp3" });

export const Email = z.email("must be an email address").max(320).openapi({ format: "email" });

export const DateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time, e.g. 2024-05-01T14:30:00Z" }).openapi({ format: "date-time" });

export const Duration = z
  .number()
  .int("must be an integer")
  .min(0, "must be >= 0")
  .max(7 * 24 * 3600, "must be at most 604800 (7 days)");

export const Metadata = z
  .looseObject({
    high_value_opportunity: z.boolean("must be a boolean").optional(),
  })
  .refine(metadataFits, METADATA_TOO_LARGE)
  .openapi({
    description: "Free-form object, at most 64 KiB as JSON. `high_value_opportunity: true` flags the call for priority processing and manager review.",
  });

export const CallSubmissionSchema = z
  .strictObject({
    external_call_id: text(255).min(1, "must not be empty").optional().openapi({ description: "Your id for the call; the idempotency key (per company)." }),
    rep_name: text(255).optional(),
    rep_email: Email.optional(),
    customer_name: text(255).optional(),
    customer_phone: text(64).optional(),
    customer_email: Email.optional(),
    call_started_at: DateTime.optional(),
    call_ended_at: DateTime.optional(),
    duration_seconds: Duration.optional(),
    recording_url: HttpUrl.optional(),
    source_system: text(100).optional().openapi({ description: "Origin of the call. Default `generic`." }),
    crm_contact_id: text(255).optional(),
    crm_deal_id: text(255).optional(),
    metadata: Metadata.optional(),
  })
  .openapi("CallSubmission");

export type CallSubmission = z.infer<typeof CallSubmissionSchema>;
