import { lemmaOf } from "./lemma.js";
import { splitWord, type Token } from "./text.js";

/**
 * Phrase patterns with proximity, matched on the tokens of one sentence:
 *
 *   word          the word; written in its base form, any form of it ("claim" meets "claims", "claimed")
 *   word*         any word starting with it ("record*": record, recorded, recording)
 *   "two words"   consecutive words
 *   (a|b c|d*)    one of the alternatives; "(both)?" an optional group
 *   @name         a word written with a capital inside the sentence (a company, product or person)
 *   A B           A directly followed by B
 *   A NEAR/n B    A and B within n words of each other, either order
 *   A BEFORE/n B  A, then B within n words
 *   A ... B       A, then B within six words (the older tracker files' gap)
 *
 * e.g. `record* NEAR/6 (call|line|conversation)`, `(only|every|no) NEAR/4 (claim|exception*)`.
 */
export type Unit = { kind: "name" } | { kind: "word"; norm: string; base: boolean } | { kind: "prefix"; prefix: string } | { kind: "alt"; options: Seq[] };
export type Seq = Unit[];
export interface Chain {
  first: Seq;
  rest: Array<{ op: "near" | "gap"; n: number; seq: Seq }>;
  /** Units one of which must be in the sentence for each part: a cheap test before the full match. */
  anchors: Unit[][];
}

export class PatternError extends Error {}

function lex(src: string): string[] {
  const out: string[] = [];
  const re = /\s*(NEAR\/\d+|BEFORE\/\d+|\.\.\.|"[^"]*"|[()|]|[^\s()|"]+)/y;
  let m: RegExpExecArray | null;
  let at = 0;
  re.lastIndex = 0;
  while (at < src.length && (m = re.exec(src))) {
    out.push(m[1]);
    at = re.lastIndex;
  }
  if (src.slice(at).trim()) throw new PatternError(`cannot read "${src.slice(at).trim()}"`);
  return out;
}

function wordUnits(raw: string): Unit[] {
  const words = raw
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .split(/\s+/)
    .filter(Boolean);
  return words.flatMap((w): Unit[] => {
    if (w === "@name") return [{ kind: "name" }];
    if (w.endsWith("*")) {
      const prefix = w.slice(0, -1).replace(/[^a-z0-9]/g, "");
      if (prefix.length < 2) throw new PatternError(`"${w}": a wildcard needs at least two letters before *`);
      return [{ kind: "prefix", prefix }];
    }
    const parts = splitWord(w.replace(/[^a-z0-9']/g, "")).filter(Boolean);
    if (parts.length === 0) throw new PatternError(`"${w}" is not a word`);
    return parts.map((norm) => ({ kind: "word", norm, base: /^[0-9]/.test(norm) || lemmaOf(norm) === norm }));
  });
}

export function parsePattern(src: string): Chain {
  const toks = lex(src);
  let i = 0;
  const parseSeq = (stop: Set<string>): Seq => {
    const seq: Seq = [];
    while (i < toks.length && !stop.has(toks[i]) && !/^(NEAR|BEFORE)\/\d+$/.test(toks[i]) && toks[i] !== "...") {
      const t = toks[i++];
      if (t === "(") {
        const options: Seq[] = [];
        for (;;) {
          const s = parseSeq(new Set(["|", ")"]));
          if (s.length === 0) throw new PatternError("empty alternative in ( | )");
          options.push(s);
          if (toks[i] === "|") {
            i++;
            continue;
          }
          if (toks[i] === ")") {
            i++;
            break;
          }
          throw new PatternError("missing )");
        }
        // "(…)?" makes the group optional: an empty alternative.
        if (toks[i] === "?") {
          i++;
          options.push([]);
        }
        seq.push({ kind: "alt", options });
      } else if (t === ")" || t === "|") {
        throw new PatternError(`unexpected "${t}"`);
      } else if (t.startsWith('"')) {
        seq.push(...wordUnits(t.slice(1, -1)));
      } else {
        seq.push(...wordUnits(t));
      }
    }
    return seq;
  };
  const first = parseSeq(new Set(["|", ")"]));
  if (first.length === 0) throw new PatternError("pattern has no words");
  const rest: Chain["rest"] = [];
  while (i < toks.length) {
    const op = toks[i++];
    const near = /^NEAR\/(\d+)$/.exec(op);
    const before = /^BEFORE\/(\d+)$/.exec(op);
    if (!near && !before && op !== "...") throw new PatternError(`unexpected "${op}"`);
    const seq = parseSeq(new Set(["|", ")"]));
    if (seq.length === 0) throw new PatternError(`nothing after ${op}`);
    rest.push(near ? { op: "near", n: Math.min(50, Number(near[1])), seq } : { op: "gap", n: before ? Math.min(50, Number(before[1])) : 6, seq });
  }
  return { first, rest, anchors: [first, ...rest.map((r) => r.seq)].map(firstUnits) };
}

function firstUnits(seq: Seq): Unit[] {
  const u = seq[0];
  if (!u) return [];
  if (u.kind !== "alt") return [u];
  const optional = u.options.some((o) => o.length === 0);
  return [...u.options.flatMap(firstUnits), ...(optional ? firstUnits(seq.slice(1)) : [])];
}

function unitAt(u: Unit, words: Token[], at: number): number[] {
  const t = words[at];
  if (!t) return [];
  if (u.kind === "name") return t.name ? [at + 1] : [];
  // A word written in its base form meets every form of it ("claim": claims, claimed); an inflected one only itself.
  if (u.kind === "word") return t.norm === u.norm || (u.base && t.lemma === u.norm) ? [at + 1] : [];
  if (u.kind === "prefix") return t.norm.startsWith(u.prefix) || t.lemma.startsWith(u.prefix) ? [at + 1] : [];
  return u.options.flatMap((s) => seqEnds(s, words, at));
}

const NONE: readonly number[] = Object.freeze([]);

/** Every end position of `seq` matched from `at`. */
function seqEnds(seq: Seq, words: Token[], at: number): readonly number[] {
  // Plain words up to the first group: one position to follow, nothing to allocate (most patterns stop here).
  let k = 0;
  let pos = at;
  for (; k < seq.length && seq[k].kind !== "alt"; k++, pos++) if (pos >= words.length || !startsHere(seq[k], words[pos])) return NONE;
  if (k === seq.length) return [pos];
  let ends = [pos];
  for (; k < seq.length; k++) {
    const u = seq[k];
    const next: number[] = [];
    for (const e of ends) for (const x of unitAt(u, words, e)) if (!next.includes(x)) next.push(x);
    if (next.length === 0) return [];
    ends = next;
  }
  return ends;
}

/** Could the unit match the word at `at`? Cheap and allocation-free, to skip most start positions. */
function startsHere(u: Unit, t: Token): boolean {
  if (u.kind === "name") return t.name;
  if (u.kind === "word") return t.norm === u.norm || (u.base && t.lemma === u.norm);
  if (u.kind === "prefix") return t.norm.startsWith(u.prefix) || t.lemma.startsWith(u.prefix);
  return u.options.some((o) => o.length === 0 || startsHere(o[0], t));
}

function spans(seq: Seq, words: Token[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let s = 0; s < words.length; s++) {
    if (!startsHere(seq[0], words[s])) continue;
    for (const e of seqEnds(seq, words, s)) out.push([s, e]);
  }
  return out;
}

/** The first match of a pattern in a sentence's words (punctuation left out): the [start, end) word span, or null. */
export function matchPattern(chain: Chain, words: Token[]): [number, number] | null {
  let cur = spans(chain.first, words);
  for (const step of chain.rest) {
    if (cur.length === 0) return null;
    const other = spans(step.seq, words);
    const next: Array<[number, number]> = [];
    for (const a of cur)
      for (const b of other) {
        if (step.op === "gap") {
          if (b[0] >= a[1] && b[0] - a[1] <= step.n) next.push([a[0], b[1]]);
        } else {
          const gap = b[0] >= a[1] ? b[0] - a[1] : a[0] >= b[1] ? a[0] - b[1] : -1;
          if (gap >= 0 && gap <= step.n) next.push([Math.min(a[0], b[0]), Math.max(a[1], b[1])]);
        }
      }
    cur = next;
  }
  return cur.length ? cur.reduce((best, s) => (s[0] < best[0] ? s : best)) : null;
}
