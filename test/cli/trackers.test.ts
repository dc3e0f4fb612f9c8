import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RulesAnalyzer } from "../../src/pipeline/analyzers/rules/analyzer.js";
import { EVAL_COMPANY, evalCall } from "../eval/run.js";
import { cli, json } from "../helpers/cli.js";
import { tempDir } from "../helpers/services.js";
import { WORKS_COUNCIL_TRACKER } from "../helpers/trackers.js";

const TRACKERS = {
  trackers: [
    {
      ...WORKS_COUNCIL_TRACKER,
      patterns: ["works council NEAR/5 (approve|agree|sign*)"],
      exclude: ["already NEAR/4 (approved|agreed)"],
    },
  ],
};

describe("callreview trackers test", () => {
  it("shows what fires on a line and why, and what an exclusion held back (--json)", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, "trackers.json");
      fs.writeFileSync(file, JSON.stringify(TRACKERS, null, 2));
      const r = await cli([
        "trackers",
        "test",
        file,
        "--text",
        "Honestly, the works council has to approve any monitoring tool.",
        "--speaker",
        "customer",
        "--json",
      ]);
      expect(r.code).toBe(0);
      const doc = json(r.stdout);
      const hit = doc.segments[0].hits.find((h: { tracker: string }) => h.tracker === "objection_works_council");
      expect(hit).toMatchObject({
        source: "file",
        category: "objection",
        type: "works_council",
        by: "pattern",
        pattern: "works council NEAR/5 (approve|agree|sign*)",
      });
      expect(typeof hit.score).toBe("number");

      const held = json(
        (await cli(["trackers", "test", file, "--text", "The works council already approved it last year.", "--speaker", "customer", "--json"])).stdout,
      );
      expect(held.segments[0].hits.map((h: { tracker: string }) => h.tracker)).not.toContain("objection_works_council");
      expect(held.segments[0].suppressed).toContainEqual(
        expect.objectContaining({ tracker: "objection_works_council", why: 'exclusion "already NEAR/4 (approved|agreed)"' }),
      );
    } finally {
      cleanup();
    }
  });

  it("explains built-in hits in text, and negation holds a guarantee back", async () => {
    const r = await cli([
      "trackers",
      "test",
      "builtin",
      "--speaker",
      "rep",
      "--text",
      "Heads up, I keep a recording of these calls. I can't guarantee any return on this fund.",
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/FIRES disclosure\/recording_disclosure {2}\[disclosure, built-in\]/);
    expect(r.stdout).not.toMatch(/FIRES prohibited_claim\/prohibited_guarantee/);
  });

  it("reads a transcript file", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const vtt = path.join(dir, "call.vtt");
      fs.writeFileSync(
        vtt,
        "WEBVTT\n\n00:00:00.000 --> 00:00:04.000\n<v Sam>This rate disappears when we hang up, so I need a yes now.\n\n00:00:04.500 --> 00:00:08.000\n<v Kim>Then I'll have to loop in Priya before we go further.\n",
      );
      const doc = json((await cli(["trackers", "test", "builtin", "--transcript", vtt, "--rep-speaker", "Sam", "--json"])).stdout);
      expect(doc.segments.map((s: { speaker: string }) => s.speaker)).toEqual(["rep", "customer"]);
      expect(doc.segments[0].hits.map((h: { type: string }) => h.type)).toContain("pressure_tactics");
      expect(doc.segments[1].hits.map((h: { type: string }) => h.type)).toContain("authority");
    } finally {
      cleanup();
    }
  });

  it("refuses bad input with one clear line each", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const bad = path.join(dir, "bad.json");
      fs.writeFileSync(bad, '{\n  "trackers": [\n    {"id": "x", "category": "objection", "type": "price", "patterns": ["(too dear"]}\n  ]\n}');
      const r1 = await cli(["trackers", "test", bad, "--text", "hello"]);
      expect(r1.code).not.toBe(0);
      expect(r1.stderr).toMatch(/invalid tracker file: .*bad\.json line 3: trackers\.0\.patterns\.0: missing \)/);
      const r2 = await cli(["trackers", "test", "builtin"]);
      expect(r2.code).not.toBe(0);
      expect(r2.stderr).toMatch(/give exactly one of --text or --transcript/);
      const r3 = await cli(["trackers", "test", path.join(dir, "nope.json"), "--text", "hi"]);
      expect(r3.stderr).toMatch(/cannot read tracker file .*nope\.json: ENOENT/);
      const r4 = await cli(["trackers", "test", "builtin", "--text", "hi", "--speaker", "boss"]);
      expect(r4.stderr).toMatch(/option '--speaker <role>' argument 'boss' is invalid\. Allowed choices are rep, customer, unknown/);
    } finally {
      cleanup();
    }
  });
});

describe("company update --disclosure-window", () => {
  it("stores the window, the analyzer applies it, and a bad value is refused without a change", async () => {
    const { dir, cleanup } = tempDir();
    try {
      await cli(["--data-dir", dir, "company", "create", "Acme"]);
      const ok = await cli(["--data-dir", dir, "company", "update", "1", "--disclosure-window", "60", "--json"]);
      expect(ok.code).toBe(0);
      const company = json(ok.stdout);
      expect(company.settings.disclosure_window_seconds).toBe(60);
      const bad = await cli(["--data-dir", dir, "company", "update", "1", "--disclosure-window", "0"]);
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toMatch(/invalid --disclosure-window "0"/);
      expect(json((await cli(["--data-dir", dir, "company", "list", "--json"])).stdout)[0].settings.disclosure_window_seconds).toBe(60);

      const transcript = {
        segments: [
          { t_start: 0, t_end: 4, speaker: "rep", text: "Hi Sam, thanks for taking the call." },
          { t_start: 5, t_end: 44, speaker: "customer", text: "Sure, go on." },
          { t_start: 45, t_end: 49, speaker: "rep", text: "Before we go on, this call is being recorded." },
        ],
        metrics: null,
        language: "en",
        model: "imported",
      };
      const rules = new RulesAnalyzer();
      const late = await rules.analyze({ call: evalCall(1), company: EVAL_COMPANY, transcript });
      expect(late.compliance_alerts.map((a) => a.type)).toEqual(["recording_disclosure_late"]);
      const wide = await rules.analyze({ call: evalCall(1), company: { ...EVAL_COMPANY, settings: company.settings }, transcript });
      expect(wide.compliance_alerts).toEqual([]);
    } finally {
      cleanup();
    }
  });
});
