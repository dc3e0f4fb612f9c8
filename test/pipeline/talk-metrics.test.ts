import { describe, expect, it } from "vitest";
import { planBatches, toCallTime, PIECE_GAP_SECONDS } from "../../src/pipeline/speech-batches.js";
import { computeTalkMetrics } from "../../src/pipeline/talk-metrics.js";

describe("computeTalkMetrics", () => {
  it("stereo: talk time, ratio, overlap, turns, monologues, silence", () => {
    const m = computeTalkMetrics(100, {
      kind: "stereo",
      rep: [
        { start: 0, end: 10 },
        { start: 11, end: 20 }, // pause of 1 s: same monologue
        { start: 40, end: 50 },
      ],
      customer: [
        { start: 20, end: 30 },
        { start: 45, end: 46 }, // backchannel inside rep speech: overlap, not a turn
        { start: 60, end: 70 },
      ],
    });
    expect(m.rep_talk_seconds).toBe(29);
    expect(m.customer_talk_seconds).toBe(21);
    expect(m.talk_ratio).toBeCloseTo(29 / 50, 4);
    expect(m.overlap_seconds).toBe(1);
    expect(m.speech_seconds).toBe(49);
    expect(m.silence_share).toBeCloseTo(0.51, 4);
    expect(m.longest_monologue_rep_seconds).toBe(20);
    expect(m.longest_monologue_customer_seconds).toBe(10);
    expect(m.turns).toBe(3); // rep -> customer -> rep -> customer
  });

  it("a long pause ends a monologue even when nobody else speaks", () => {
    const m = computeTalkMetrics(60, {
      kind: "stereo",
      rep: [
        { start: 0, end: 5 },
        { start: 10, end: 12 },
      ],
      customer: [],
    });
    expect(m.longest_monologue_rep_seconds).toBe(5);
    expect(m.talk_ratio).toBe(1);
    expect(m.turns).toBe(0);
  });

  it("mono: speaker fields are null, the rest is filled", () => {
    const m = computeTalkMetrics(10, {
      kind: "mono",
      speech: [
        { start: 1, end: 4 },
        { start: 3, end: 6 },
      ],
    });
    expect(m).toEqual({
      duration_seconds: 10,
      speech_seconds: 5,
      silence_share: 0.5,
      rep_talk_seconds: null,
      customer_talk_seconds: null,
      talk_ratio: null,
      longest_monologue_rep_seconds: null,
      longest_monologue_customer_seconds: null,
      turns: null,
      overlap_seconds: null,
    });
  });

  it("no speech at all: ratio null, silence 1", () => {
    const m = computeTalkMetrics(30, { kind: "stereo", rep: [], customer: [] });
    expect(m.talk_ratio).toBeNull();
    expect(m.silence_share).toBe(1);
  });
});

describe("speech batches", () => {
  it("lays speech end to end and maps batch time back to call time", () => {
    const [batch, ...rest] = planBatches(
      [
        { start: 10, end: 12 },
        { start: 100, end: 101 },
      ],
      200,
    );
    expect(rest).toHaveLength(0);
    expect(batch.pieces[0]).toEqual({ srcStart: 9.8, srcEnd: 12.2, at: 0 });
    expect(batch.pieces[1].at).toBeCloseTo(2.4 + PIECE_GAP_SECONDS, 6);
    expect(toCallTime(batch, 1)).toBeCloseTo(10.8, 6);
    expect(toCallTime(batch, batch.pieces[1].at + 0.5)).toBeCloseTo(100.3, 6);
    // Inside the gap: the end of the piece before.
    expect(toCallTime(batch, 2.6)).toBeCloseTo(12.2, 6);
  });

  it("short silences stay in place: a batch is never longer than the speech it covers", () => {
    const speech = Array.from({ length: 50 }, (_, i) => ({ start: i * 2, end: i * 2 + 1.5 }));
    const [batch, ...rest] = planBatches(speech, 100);
    expect(rest).toHaveLength(0);
    expect(batch.pieces).toHaveLength(1);
    expect(batch.seconds).toBeLessThanOrEqual(100);
  });

  it("caps each batch and cuts spans longer than a batch", () => {
    const batches = planBatches([{ start: 0, end: 700 }], 700, 300);
    expect(batches.map((b) => b.pieces.length)).toEqual([1, 1, 1]);
    expect(batches.every((b) => b.seconds <= 300)).toBe(true);
    expect(toCallTime(batches[1], 10)).toBeCloseTo(310, 6);
  });

  it("silence only: nothing to transcribe", () => {
    expect(planBatches([], 3600)).toEqual([]);
  });
});
