import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTranscript } from "../../cli/transcript-format.js";
import { acceptCall } from "../../src/intake/accept-call.js";
import type { Transcript } from "../../src/pipeline/ports.js";
import { computeTalkMetrics } from "../../src/pipeline/talk-metrics.js";
import { createCompany } from "../../src/store/companies.js";
import { insertTranscript } from "../../src/store/transcripts.js";
import { cli, json } from "../helpers/cli.js";
import { testServices } from "../helpers/services.js";

const transcript: Transcript = {
  segments: [
    { t_start: 0.5, t_end: 3.2, speaker: "rep", text: "Thanks for taking the call." },
    { t_start: 3.6, t_end: 5.0, speaker: "customer", text: "Sure, go ahead." },
    { t_start: 65.2, t_end: 70, speaker: "rep", text: "What does your team use today?" },
  ],
  metrics: computeTalkMetrics(80, {
    kind: "stereo",
    rep: [
      { start: 0.5, end: 3.2 },
      { start: 65.2, end: 70 },
    ],
    customer: [{ start: 3.6, end: 5 }],
  }),
  language: "en",
  model: "ggml-small.en.bin",
};

describe("formatTranscript", () => {
  it("prints metrics and one line per segment with time and speaker", () => {
    const text = formatTranscript(transcript);
    expect(text).toContain("Transcript (ggml-small.en.bin, en)");
    expect(text).toMatch(/\[00:00\] rep\s+Thanks for taking the call\./);
    expect(text).toMatch(/\[00:03\] customer\s+Sure, go ahead\./);
    expect(text).toMatch(/\[01:05\] rep\s+What does your team use today\?/);
    expect(text).toMatch(/ratio\s+84 % rep, 2 turns/);
  });

  it("an empty mono transcript says so", () => {
    const text = formatTranscript({
      segments: [],
      metrics: computeTalkMetrics(11, { kind: "mono", speech: [{ start: 0.3, end: 10.6 }] }),
      language: "en",
      model: "m.bin",
    });
    expect(text).toContain("(no words recognised)");
    expect(text).toContain("mono recording");
  });
});

describe("callreview calls show --transcript", () => {
  let s: Awaited<ReturnType<typeof testServices>>;
  let withId = 0;
  let withoutId = 0;
  beforeAll(async () => {
    s = await testServices();
    const company = await createCompany(s.store.db, { name: "Acme" });
    withId = (await acceptCall(s.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: "a" } })).call.id;
    withoutId = (await acceptCall(s.store.db, { companyId: company.id, intake: "api", fields: { external_call_id: "b" } })).call.id;
    await insertTranscript(s.store.db, { callId: withId, source: "whisper", transcript, createdAt: new Date().toISOString() });
  });
  afterAll(() => s.dispose());

  it("prints the transcript after the call", async () => {
    const r = await cli(["--data-dir", s.config.dataDir, "calls", "show", String(withId), "--transcript"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\[00:03\] customer\s+Sure, go ahead\./);
  });

  it("--json carries the transcript object; null when none exists", async () => {
    const a = json((await cli(["--data-dir", s.config.dataDir, "calls", "show", String(withId), "--transcript", "--json"])).stdout);
    expect(a.transcript).toMatchObject({ segments: transcript.segments, model: "ggml-small.en.bin", metrics: { turns: 2 } });
    const b = json((await cli(["--data-dir", s.config.dataDir, "calls", "show", String(withoutId), "--transcript", "--json"])).stdout);
    expect(b.transcript).toBeNull();
    const text = await cli(["--data-dir", s.config.dataDir, "calls", "show", String(withoutId), "--transcript"]);
    expect(text.stdout).toContain("Transcript: none yet");
  });
});
