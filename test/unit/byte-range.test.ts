import { describe, expect, it } from "vitest";
import { parseRange } from "../../src/http/byte-range.js";

describe("parseRange", () => {
  it("reads one byte range, open-ended and suffix ranges, clamps the end", () => {
    expect(parseRange(undefined, 1000)).toEqual({ kind: "all" });
    expect(parseRange("bytes=0-99", 1000)).toEqual({ kind: "partial", start: 0, end: 99 });
    expect(parseRange("bytes=500-", 1000)).toEqual({ kind: "partial", start: 500, end: 999 });
    expect(parseRange("bytes=900-5000", 1000)).toEqual({ kind: "partial", start: 900, end: 999 });
    expect(parseRange("bytes=-100", 1000)).toEqual({ kind: "partial", start: 900, end: 999 });
    expect(parseRange("bytes=-5000", 1000)).toEqual({ kind: "partial", start: 0, end: 999 });
  });

  it("answers 416 for ranges past the end; ignores what it does not support", () => {
    expect(parseRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=5-2", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(parseRange("bytes=0-1,5-6", 1000)).toEqual({ kind: "all" });
    expect(parseRange("items=0-1", 1000)).toEqual({ kind: "all" });
    expect(parseRange("bytes=-", 1000)).toEqual({ kind: "all" });
  });
});
