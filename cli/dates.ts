import { UsageError } from "./exit-codes.js";

/** An ISO 8601 date or date-time option, normalised to the store's UTC form; a bare date is its midnight UTC. */
export function parseIsoOption(value: string, flag: string): string {
  const ms = Date.parse(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms))
    throw new UsageError(`invalid ${flag} "${value}" (expected an ISO 8601 date or date-time, e.g. 2025-01-31)`);
  return new Date(ms).toISOString();
}
