export const SCOPES = ["calls:write", "calls:read", "reports:read", "calls:delete"] as const;
export type Scope = (typeof SCOPES)[number];
/** What a key gets when no scopes are named: erasure (calls:delete) is only ever granted on purpose. */
export const DEFAULT_SCOPES: readonly Scope[] = ["calls:write", "calls:read", "reports:read"];

export function parseScopes(input: string): Scope[] {
  const names = input
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = names.filter((n) => !(SCOPES as readonly string[]).includes(n));
  if (bad.length > 0) throw new Error(`unknown scope ${bad.map((b) => `"${b}"`).join(", ")} (known: ${SCOPES.join(", ")})`);
  if (names.length === 0) throw new Error(`no scope given (known: ${SCOPES.join(", ")})`);
  return [...new Set(names)] as Scope[];
}
