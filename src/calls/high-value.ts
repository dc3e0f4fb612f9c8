/**
 * `metadata.high_value_opportunity: true` flags a call for priority processing
 * and manager review. The one reading of that flag: from the parsed object, or
 * from the JSON text the store holds (unreadable JSON is not high value).
 */
export function isHighValue(metadata: string | Record<string, unknown> | null | undefined): boolean {
  if (typeof metadata !== "string") return metadata?.high_value_opportunity === true;
  try {
    const parsed: unknown = JSON.parse(metadata || "{}");
    return typeof parsed === "object" && parsed !== null && (parsed as Record<string, unknown>).high_value_opportunity === true;
  } catch {
    return false;
  }
}
