export const SCOPES = ["calls:write", "calls:read", "reports:read"] as const;
export type Scope = (typeof SCOPES)[number];

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
