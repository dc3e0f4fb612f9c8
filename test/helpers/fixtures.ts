import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The shared fixtures live beside the repo (../shared/fixtures); CALLREVIEW_FIXTURES overrides for other checkouts. */
export const fixturesDir = process.env.CALLREVIEW_FIXTURES ?? path.resolve(repoRoot, "../shared/fixtures");

export function fixture(...parts: string[]): string {
  return path.join(fixturesDir, ...parts);
}
