import { describe, expect, it } from "vitest";
import { llamaThreads } from "../../src/engines/thread-plan.js";

describe("llama thread plan", () => {
  it("keeps workers x threads within the cores, at least one thread, an explicit setting winning", () => {
    expect(llamaThreads(1, 0, 2)).toBe(2);
    expect(llamaThreads(2, 0, 2)).toBe(1);
    expect(llamaThreads(3, 0, 2)).toBe(1);
    expect(llamaThreads(2, 0, 16)).toBe(8);
    expect(llamaThreads(3, 0, 16)).toBe(5);
    expect(llamaThreads(0, 0, 4)).toBe(4);
    expect(llamaThreads(2, 6, 4)).toBe(6);
    for (let cores = 1; cores <= 64; cores++) for (let w = 1; w <= 8; w++) expect(Math.max(1, w * llamaThreads(w, 0, cores)) <= Math.max(cores, w)).toBe(true);
  });
});
