import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../cli/program.js";
import { tempDir } from "../helpers/services.js";

/** The lines of the ```sh blocks of README's "## CLI" section, comments and blank lines dropped. */
function readmeCommands(): string[] {
  const readme = fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
  const section = readme.split(/^## /m).find((s) => s.startsWith("CLI\n"));
  if (!section) throw new Error('README has no "## CLI" section');
  const blocks = [...section.matchAll(/^```sh\n([\s\S]*?)^```/gm)].map((m) => m[1]);
  return blocks
    .flatMap((b) => b.split("\n"))
    .map((l) => l.replace(/\s+#.*$/, "").trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
}

/** Shell-like words: double and single quotes group, nothing else is special (the README keeps to that). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

const commands = readmeCommands();

describe("every command of README's CLI section runs as shown, piped", () => {
  let dir: string;
  let cleanup: () => void;
  beforeAll(() => ({ dir, cleanup } = tempDir()));
  afterAll(() => cleanup());

  it("finds the commands", () => {
    expect(commands.length).toBeGreaterThanOrEqual(10);
    for (const c of commands) expect(c).toMatch(/^callreview /);
  });

  // In order: later lines use what earlier ones created (company 1).
  it.each(commands)("%s", async (line) => {
    const [cliPart, ...pipe] = line.split(" | ");
    let stdout = "";
    let stderr = "";
    // Not a terminal: the same Io a pipe gives (no stdoutIsTty, no ask).
    const code = await runCli(
      words(cliPart).slice(1),
      { out: (t) => void (stdout += t.endsWith("\n") ? t : `${t}\n`), err: (t) => void (stderr += t.endsWith("\n") ? t : `${t}\n`) },
      {
        CALLREVIEW_DATA_DIR: dir,
        CALLREVIEW_MODELS_DIR: path.join(dir, "models"),
      },
    );
    expect({ code, stderr: code === 0 ? "" : stderr }).toEqual({ code: 0, stderr: "" });
    expect(stdout).not.toBe("");
    if (words(cliPart).includes("--json")) expect(() => JSON.parse(stdout)).not.toThrow();
    if (pipe.length > 0) {
      const r = spawnSync("sh", ["-c", pipe.join(" | ")], { input: stdout, encoding: "utf8" });
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).not.toBe("");
    }
  });
});
