import fs from "node:fs";

const CANDIDATES = [process.env.CALLREVIEW_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter((x): x is string => !!x);

/**
 * The Chromium the browser tests drive (Debian package `chromium`), or null.
 * When it is missing the tests are skipped with a banner on stderr: never a
 * silent pass. `.ci/run` installs it.
 */
export function chromiumPath(): string | null {
  const found = CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
  if (!found) {
    console.warn(
      [
        "",
        "#".repeat(78),
        "#  BROWSER TESTS SKIPPED: no Chromium found (looked at " + CANDIDATES.join(", ") + ").",
        "#  Install it with: apt-get update && apt-get install -y chromium",
        "#  (or set CALLREVIEW_CHROMIUM to its path). .ci/run does this.",
        "#".repeat(78),
        "",
      ].join("\n"),
    );
  }
  return found;
}
