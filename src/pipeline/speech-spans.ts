/** Time spans in seconds and the small algebra talk metrics and speech batching need. */
export interface Span {
  start: number;
  end: number;
}

/** Sorted, with overlapping or touching spans (gap <= `join`) merged. */
export function unionSpans(spans: readonly Span[], join = 0): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end + join) last.end = Math.max(last.end, s.end);
    else out.push({ start: s.start, end: s.end });
  }
  return out;
}

export function totalSeconds(spans: readonly Span[]): number {
  return spans.reduce((sum, s) => sum + (s.end - s.start), 0);
}

/** Seconds during which both sets speak at once (both inputs already unioned). */
export function overlapSeconds(a: readonly Span[], b: readonly Span[]): number {
  let i = 0;
  let j = 0;
  let sum = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i].start, b[j].start);
    const hi = Math.min(a[i].end, b[j].end);
    if (hi > lo) sum += hi - lo;
    if (a[i].end < b[j].end) i++;
    else j++;
  }
  return sum;
}

/** Whether any span of `spans` intersects the open interval (from, to). */
export function anyWithin(spans: readonly Span[], from: number, to: number): boolean {
  return spans.some((s) => s.start < to && s.end > from);
}
