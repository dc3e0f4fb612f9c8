import { z } from "zod";

/**
 * A tracker: what kind of moment it finds (category + type), who must say it,
 * and how it is recognised — example sentences a classifier learns from,
 * phrase patterns with proximity (pattern.ts), and exclusions (patterns that
 * veto a sentence, negated or conditional framings).
 */
export const TRACKER_CATEGORIES = [
  "objection",
  "buying_signal",
  "rejection",
  "next_step",
  "discovery",
  "qualification",
  "pain_point",
  "value",
  "rapport",
  "listening",
  "closing_ask",
  "price_mention",
  "hedging",
  "disclosure",
  "prohibited_claim",
  "sensitive_data_request",
] as const;
export type TrackerCategory = (typeof TRACKER_CATEGORIES)[number];

/** Files written for the phrase trackers of earlier versions used "commitment" as a category of its own. */
export const LEGACY_CATEGORIES = ["commitment"] as const;

export const TRACKER_SPEAKERS = ["rep", "customer", "either"] as const;
export type TrackerSpeaker = (typeof TRACKER_SPEAKERS)[number];

const COMPLIANCE = new Set<TrackerCategory>(["prohibited_claim", "sensitive_data_request", "disclosure"]);

export interface TrackerDef {
  id: string;
  category: TrackerCategory;
  /** Sub-kind within the category: objection kind, signal kind, compliance alert type. */
  type: string;
  speaker: TrackerSpeaker;
  /** Sentences that mean this, as people say them: the classifier's positives. */
  examples: string[];
  /** Sentences that look like it but are not (hard negatives): the classifier's negatives. */
  negatives: string[];
  /** Phrase patterns (pattern.ts); a match fires the tracker unless an exclusion applies. */
  patterns: string[];
  /** Patterns that veto a sentence for this tracker. */
  exclude: string[];
  /** A pattern match whose first word is in the scope of a negation does not count ("there's no guarantee"). */
  negatable: boolean;
  /** A conditional or wished-for sentence does not count ("if price were an issue", "risk-free would be nice"). */
  skip_hypothetical: boolean;
  /** Classifier probability at or above which the tracker fires (0..1). */
  threshold: number;
  strength?: "weak" | "moderate" | "strong";
  severity?: "low" | "medium" | "high" | "critical";
}

const slug = (what: string) => z.string().regex(/^[a-z0-9_]{1,64}$/, `${what} must be 1-64 characters of a-z, 0-9 and _`);
const sentence = z.string().trim().min(1, "must not be empty").max(400);

export const TrackerFileEntrySchema = z
  .strictObject({
    id: slug("id"),
    category: z.enum([...TRACKER_CATEGORIES, ...LEGACY_CATEGORIES]),
    type: slug("type"),
    speaker: z.enum([...TRACKER_SPEAKERS, "any"]).default("either"),
    examples: z.array(sentence).max(1000).default([]),
    negatives: z.array(sentence).max(2000).default([]),
    patterns: z.array(z.string().trim().min(1, "pattern must not be empty").max(600)).max(500).default([]),
    /** The earlier format's phrase list: read as patterns (its `word*` and `...` mean the same). */
    phrases: z.array(z.string().trim().min(1, "phrase must not be empty").max(200)).max(500).optional(),
    exclude: z.array(z.string().trim().min(1, "pattern must not be empty").max(600)).max(200).default([]),
    negatable: z.boolean().optional(),
    skip_hypothetical: z.boolean().optional(),
    threshold: z.number().min(0.05).max(0.999).default(0.5),
    strength: z.enum(["weak", "moderate", "strong"]).optional(),
    severity: z.enum(["low", "medium", "high", "critical"]).optional(),
  })
  .refine((t) => t.examples.length > 0 || t.patterns.length > 0 || (t.phrases?.length ?? 0) > 0, {
    message: "a tracker needs examples, patterns or phrases",
  })
  .refine((t) => t.examples.length === 0 || t.examples.length >= 3, { message: "give at least 3 examples (or none, and patterns)", path: ["examples"] });

export const TrackerFileSchema = z.strictObject({
  trackers: z.array(TrackerFileEntrySchema).max(300).default([]),
  disable: z.array(z.string()).max(300).default([]),
  replace_builtins: z.boolean().default(false),
});
export type TrackerFile = z.infer<typeof TrackerFileSchema>;
export type TrackerFileEntry = z.infer<typeof TrackerFileEntrySchema>;

/** A validated file entry -> a tracker, both formats alike: "any" is "either", phrases are patterns, "commitment" is a buying signal. */
export function toTrackerDef(e: TrackerFileEntry): TrackerDef {
  const category: TrackerCategory = e.category === "commitment" ? "buying_signal" : e.category;
  return {
    id: e.id,
    category,
    type: e.category === "commitment" ? "commitment" : e.type,
    speaker: e.speaker === "any" ? "either" : e.speaker,
    examples: e.examples,
    negatives: e.negatives,
    patterns: [...e.patterns, ...(e.phrases ?? [])],
    exclude: e.exclude,
    negatable: e.negatable ?? COMPLIANCE.has(category),
    skip_hypothetical: e.skip_hypothetical ?? COMPLIANCE.has(category),
    threshold: e.threshold,
    ...(e.strength ? { strength: e.strength } : {}),
    ...(e.severity ? { severity: e.severity } : {}),
  };
}

/** Built-in trackers are written in the file format and completed the same way. */
export type LibraryTracker = z.input<typeof TrackerFileEntrySchema>;
export function libraryTracker(t: LibraryTracker): TrackerDef {
  return toTrackerDef(TrackerFileEntrySchema.parse(t));
}
