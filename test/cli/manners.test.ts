import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildProgram, runCli } from "../../cli/program.js";
import { commandPath, EXAMPLES } from "../../cli/examples.js";
import type { Io } from "../../cli/io.js";
import type { Command } from "commander";
import { fixture } from "../helpers/fixtures.js";
import { tempDir } from "../helpers/services.js";

/** Captures output; `tty` makes stdout look like a terminal, `answers` makes someone answer questions. */
function capture(opts: { tty?: boolean; answers?: string[] } = {}) {
  const o = { stdout: "", stderr: "", asked: [] as string[] };
  const io: Io = {
    out: (t) => void (o.stdout += t.endsWith("\n") ? t : `${t}\n`),
    err: (t) => void (o.stderr += t.endsWith("\n") ? t : `${t}\n`),
    stdoutIsTty: opts.tty === true,
    ask: opts.answers
      ? async (q) => {
          o.asked.push(q);
          return opts.answers!.shift() ?? "";
        }
      : undefined,
  };
  return { io, o };
}

describe("CLI manners", () => {
  let dir: string;
  let cleanup: () => void;
  const env = () => ({ CALLREVIEW_DATA_DIR: dir, CALLREVIEW_MODELS_DIR: path.join(dir, "models") });
  const run = async (args: string[], opts: { tty?: boolean; answers?: string[] } = {}) => {
    const { io, o } = capture(opts);
    const code = await runCli(args, io, env());
    return { code, ...o };
  };
  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    expect((await run(["company", "create", "Acme"])).code).toBe(0);
  });
  afterEach(() => cleanup());

  it.each([
    [["nope"], 2, /^callreview: unknown command 'nope'/],
    [["company", "list", "--bogus"], 2, /^callreview: unknown option '--bogus'/],
    [["calls", "list", "--status", "done"], 2, /^callreview: option '--status <status>' argument 'done' is invalid/],
    [["calls", "list", "--limit", "0"], 2, /^callreview: option '--limit <n>' argument '0' is invalid/],
    [["key", "create", "--company", "abc"], 2, /^callreview: invalid --company "abc"/],
    [["key", "create"], 2, /^callreview: required option '--company <id>' not specified/],
    [["calls", "show", "42"], 3, /^callreview: call 42 not found$/],
    [["report", "42"], 3, /^callreview: call 42 not found$/],
    [["company", "update", "9", "--name", "X"], 3, /^callreview: company 9 not found$/],
    [["key", "revoke", "nokey", "--yes"], 3, /^callreview: API key nokey not found$/],
    [["webhook", "remove", "7", "--yes"], 3, /^callreview: webhook endpoint 7 not found$/],
    [["deliveries", "show", "5"], 3, /^callreview: delivery 5 not found$/],
    [["calls", "delete", "1"], 2, /^callreview: refusing to erase call 1 for good without --yes .*pass --yes/],
    [["webhook", "remove", "1"], 2, /^callreview: refusing to remove webhook endpoint 1 .*pass --yes/],
    [["key", "revoke", "abc"], 2, /^callreview: refusing to revoke API key abc .*pass --yes/],
    [["calls", "purge", "--company", "1", "--before", "2025-01-01"], 2, /^callreview: refusing to erase every call of company 1 .*pass --yes/],
    [["serve", "--port", "x"], 2, /^callreview: invalid value for --port: "x"/],
    [["doctor", "--pipeline", "fast"], 2, /^callreview: option '--pipeline <mode>' argument 'fast' is invalid/],
    [["models", "verify", "--models-dir", "/nonexistent-models"], 0, null],
  ] as const)("%j exits %i with one prefixed line", async (args, code, message) => {
    const r = await run([...args]);
    expect(r.code).toBe(code);
    if (message === null) return;
    expect(r.stdout).toBe("");
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr.trim()).toMatch(message);
  });

  it("a refused destructive command changes nothing; on a terminal it asks and acts only on yes", async () => {
    const key = JSON.parse((await run(["key", "create", "--company", "1", "--json"])).stdout);
    expect((await run(["key", "revoke", key.public_id])).code).toBe(2);
    const listed = () => run(["key", "list", "--company", "1", "--json"]).then((r) => JSON.parse(r.stdout)[0]);
    expect((await listed()).revoked_at).toBeNull();

    const no = await run(["key", "revoke", key.public_id], { answers: ["n"] });
    expect(no.code).toBe(2);
    expect(no.asked[0]).toMatch(/About to revoke API key .* Continue\? \[y\/N\]/);
    expect((await listed()).revoked_at).toBeNull();

    const yes = await run(["key", "revoke", key.public_id, "--json"], { answers: ["y"] });
    expect(yes.code).toBe(0);
    expect((await listed()).revoked_at).toMatch(/Z$/);
  });

  it("lists print TSV with a header when piped, an aligned table on a terminal, JSON with --json", async () => {
    await run(["company", "create", "Initech Corporation"]);
    const piped = await run(["company", "list"]);
    const rows = piped.stdout
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(rows[0]).toEqual(["id", "name", "low_score_threshold", "created_at"]);
    expect(rows.slice(1).map((r) => r[1])).toEqual(["Acme", "Initech Corporation"]);

    const tty = await run(["company", "list"], { tty: true });
    const lines = tty.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^ID {2}NAME {17}LOW_SCORE_THRESHOLD {2}CREATED_AT$/);
    expect(lines[1].indexOf("60")).toBe(lines[0].indexOf("LOW_SCORE_THRESHOLD"));
    expect(tty.stdout).not.toContain("\t");

    expect(JSON.parse((await run(["company", "list", "--json"])).stdout)).toHaveLength(2);
  });

  it("every command's help shows examples and the global --data-dir / --models-dir", async () => {
    const program = await buildProgram(capture().io, env());
    const all = (c: Command): Command[] => c.commands.flatMap((x) => [x, ...all(x)]);
    for (const cmd of [program, ...all(program)]) {
      expect(Object.keys(EXAMPLES), commandPath(cmd)).toContain(commandPath(cmd));
      const r = await run([
        ...commandPath(cmd)
          .split(" ")
          .filter((w) => w !== "callreview"),
        "--help",
      ]);
      expect(r.code, commandPath(cmd)).toBe(0);
      expect(r.stdout).toMatch(/\nExamples:\n {2}\$ callreview /);
      if (cmd !== program) expect(r.stdout).toMatch(/Global Options:[\s\S]*--data-dir <dir>[\s\S]*--models-dir <dir>/);
    }
  });

  it("every option listed in README's usage block exists, and --json everywhere it is listed", async () => {
    const readme = fs.readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
    const usage = readme.slice(readme.indexOf("Usage at a glance"));
    const block = usage.slice(usage.indexOf("```\n") + 4, usage.indexOf("\n```", 4));
    for (const line of block.split("\n").filter((l) => l.startsWith("callreview ") && l.includes("--json"))) {
      const [, group, sub] = /^callreview ([a-z-]+)(?: ([a-z-]+))?/.exec(line)!;
      const name = ["company", "key", "webhook", "deliveries", "calls", "models", "audit", "retention", "trackers"].includes(group) ? [group, sub] : [group];
      const help = await run([...name, "--help"]);
      expect(help.stdout, line).toMatch(/--json/);
    }
  });

  it("a data dir that cannot be created fails at once with exit code 1 naming it (no retry loop under /proc)", async () => {
    const r = await run(["--data-dir", "/proc/callreview-nope", "company", "list"]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toMatch(/^callreview: data dir \/proc\/callreview-nope is not writable \(ENOENT\)$/);
  });

  it("doctor ends with next steps, in text and as next_steps in --json", async () => {
    const text = await run(["doctor"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\nNext steps:\n {2}- No whisper model: reports are placeholders\. Copy \S+ into .*models/);
    const doc = JSON.parse((await run(["doctor", "--json"])).stdout);
    expect(doc.next_steps[0]).toMatch(/^No whisper model/);
  });

  it("submit warns when auto falls back to the placeholder pipeline, and marks the calls in --json", async () => {
    const r = await run(["submit", fixture("jfk.wav"), "--company", "1", "--json"]);
    expect(r.code).toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^callreview: warning: pipeline placeholder \(no whisper model installed\).*callreview doctor.*--transcript/);
    expect(JSON.parse(r.stdout)).toMatchObject({ call_id: 1, status: "received", placeholder_report: true });
    const real = await run(["submit", fixture("jfk.wav"), "--company", "1", "--json", "--pipeline", "placeholder"]);
    expect(real.stderr).toBe("");
    // A refused file stays a one-line error: no warning for calls that were never accepted.
    const bad = await run(["submit", path.join(dir, "callreview.db"), "--company", "1"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("analyze takes --json like every listed command", async () => {
    const file = path.join(dir, "call.vtt");
    fs.writeFileSync(
      file,
      "WEBVTT\n\n00:00.000 --> 00:04.000\n<v Anna>Hi, this call is recorded. What budget do you have?\n\n00:04.500 --> 00:08.000\n<v Ben>Around ten thousand.\n",
    );
    const r = await run(["analyze", file, "--rep-speaker", "Anna", "--analyzer", "rules", "--json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ analyzer: "rules", report: { overall_score: expect.any(Number) } });
  });
});
