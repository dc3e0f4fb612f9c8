import type { LabelledLine } from "../../src/trackers/labelled-lines.js";
import { loadSplit, type CorpusCall } from "./corpus.js";

/**
 * The dev split's batches the built-in models learn from, one per writer: a call's id starts with its
 * batch ("dev-", "dev2-", ...). dev30 and dev31 are left out on purpose: scored with the committed
 * models only, they are the next release's unseen measurement (test/eval/corpus/WRITING.md).
 */
export const WRITERS = [
  "dev",
  "dev2",
  "dev3",
  "dev4",
  "dev7",
  "dev8",
  "dev9",
  "dev10",
  "dev11",
  "dev12",
  "dev13",
  "dev14",
  "dev15",
  "dev16",
  "dev17",
  "dev18",
  "dev19",
  "dev20",
  "dev21",
  "dev22",
  "dev23",
  "dev24",
  "dev25",
  "dev26",
  "dev27",
  "dev28",
  "dev29",
  "dev32",
  "dev33",
  "dev34",
  "dev35",
  "dev36",
  "dev37",
  "dev38",
  "dev39",
  "dev40",
  "dev41",
  "dev42",
  "dev43",
  "dev44",
  "dev45",
  "dev46",
  "dev47",
  "dev48",
  "dev49",
  "dev50",
  "dev51",
  "dev52",
  "dev53",
  "dev54",
  "dev55",
  "dev56",
  "dev57",
  "dev58",
  "dev59",
  "dev60",
  "dev61",
  "dev62",
  "dev63",
] as const;

export function writerOf(call: CorpusCall): string {
  return call.id.slice(0, call.id.indexOf("-"));
}

export function devCalls(writers: readonly string[]): CorpusCall[] {
  return loadSplit("dev").filter((c) => writers.includes(writerOf(c)));
}

/** Calls -> the labelled lines training reads. */
export function labelledLines(calls: CorpusCall[]): LabelledLine[] {
  return calls.flatMap((c) =>
    c.lines.map((l, i) => ({
      speaker: l.s === "R" ? ("rep" as const) : ("customer" as const),
      text: l.text,
      labels: l.labels,
      prev: i > 0 && l.s === "C" && c.lines[i - 1].s === "R" ? c.lines[i - 1].text : undefined,
    })),
  );
}
