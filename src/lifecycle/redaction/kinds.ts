/**
 * What a company has redacted from its transcripts (company.settings.redact).
 * card: payment card numbers (Luhn), CVV and expiry said next to them.
 * ssn: US social security numbers. account: bank account, routing / sort code, IBAN.
 * email, phone: contact details said on the call.
 */
export const REDACTION_KINDS = ["card", "ssn", "account", "email", "phone"] as const;
export type RedactionKind = (typeof REDACTION_KINDS)[number];
export const DEFAULT_REDACTION: readonly RedactionKind[] = ["card"];

/** `--redact card,ssn` or `--redact none`; the error names what is known. */
export function parseRedactKinds(input: string): RedactionKind[] {
  const names = input
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (names.length === 1 && names[0] === "none") return [];
  const bad = names.filter((n) => !(REDACTION_KINDS as readonly string[]).includes(n));
  if (bad.length > 0 || names.length === 0) {
    throw new Error(`invalid --redact "${input}" (expected none or a comma-separated list of ${REDACTION_KINDS.join(", ")})`);
  }
  return REDACTION_KINDS.filter((k) => names.includes(k));
}

/** The company's choice, or the default (cards) when it never made one. */
export function redactionOf(settings: Record<string, unknown>): RedactionKind[] {
  if (!Array.isArray(settings.redact)) return [...DEFAULT_REDACTION];
  return REDACTION_KINDS.filter((k) => (settings.redact as unknown[]).includes(k));
}
