import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The shared fixtures live beside the repo (../shared/fixtures); CALLREVIEW_FIXTURES overrides for other checkouts. */
export const fixturesDir = process.env.CALLREVIEW_FIXTURES ?? path.resolve(repoRoot, "../shared/fixtures");

export function fixture(...parts: string[]): string {
  return path.join(fixturesDir, ...parts);
}

/** A short VTT call with a prohibited claim and pressure, rep "Tony": for imported-transcript runs through the executable. */
export const VTT = `WEBVTT

00:00:00.500 --> 00:00:05.000
<v Tony>Hi, Tony from Summit Capital. We guarantee a return of nine percent a year.

00:00:05.500 --> 00:00:08.000
<v Ellis>That sounds too good. It's more than we budgeted anyway.

00:00:08.500 --> 00:00:12.000
<v Tony>It's completely risk-free, but you have to decide right now.
`;
