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
  /** The units a match can begin with: one of them must be in the sentence, a cheap test before the full match. */
  heads: Unit[];
  /**
   * Every word a match cannot do without, as groups one unit of which must be
   * in the sentence: a plain word stands alone, a group that is not optional
   * gives its alternatives' first words ("(worry|concern) though" needs
   * worry or concern, and though).
   */
  required: Unit[][];
  /** Per part (first, then each of rest): the part as a word automaton, for matching without allocation. */
  automata: Automaton[];
}

type PlainUnit = Exclude<Unit, { kind: "alt" }>;

/**
 * A part read as an automaton with one state per word unit (every unit
 * stands for exactly one word): the states a match can begin with, which
 * state may follow which, and the states a match can end on. Matching then
 * walks the sentence once per start position, keeping the live states in
 * scratch lists: no arrays built per word as a group-by-group walk would.
 */
interface Automaton {
  units: PlainUnit[];
  first: Int32Array;
  follow: Int32Array[];
  last: Uint8Array;
  /** The part can match no word at all ("(very)?"). */
  empty: boolean;
  /** The forms a first state meets by itself (surface forms, and lemmas of base-form words), to pass over most start positions with two lookups. */
  firstNorms: Set<string>;
  firstLemmas: Set<string>;
  /** A first state is a wildcard or a name: every start position is tried. */
  firstAny: boolean;
  /** State -> the step it was last added in (no clearing between steps). */
  seen: Uint32Array;
}

function automaton(seq: Seq): Automaton {
  const units: PlainUnit[] = [];
  const follow: number[][] = [];
  // first/last state sets and whether the piece can be empty, for a sequence of units, built inside out.
  type Piece = { first: number[]; last: number[]; empty: boolean };
  const link = (from: number[], to: number[]) => {
    for (const a of from) for (const b of to) if (!follow[a].includes(b)) follow[a].push(b);
  };
  const ofSeq = (items: Seq): Piece => {
    const out: Piece = { first: [], last: [], empty: true };
    for (const u of items) {
      const p: Piece =
        u.kind === "alt"
          ? u.options.map(ofSeq).reduce((acc, o) => ({ first: [...acc.first, ...o.first], last: [...acc.last, ...o.last], empty: acc.empty || o.empty }), {
              first: [] as number[],
              last: [] as number[],
              empty: false,
            })
          : (() => {
              units.push(u);
              follow.push([]);
              return { first: [units.length - 1], last: [units.length - 1], empty: false };
            })();
      link(out.last, p.first);
      if (out.empty) out.first.push(...p.first);
      out.last = p.empty ? [...out.last, ...p.last] : p.last;
      out.empty &&= p.empty;
    }
    return out;
  };
  const whole = ofSeq(seq);
  const last = new Uint8Array(units.length);
  for (const l of whole.last) last[l] = 1;
  const firsts = [...new Set(whole.first)].map((k) => units[k]);
  const words = firsts.filter((u) => u.kind === "word");
  return {
    units,
    first: Int32Array.from(new Set(whole.first)),
    firstNorms: new Set(words.map((u) => u.norm)),
    firstLemmas: new Set(words.filter((u) => u.base).map((u) => u.norm)),
    firstAny: firsts.some((u) => u.kind !== "word"),
    follow: follow.map((f) => Int32Array.from(f)),
    last,
    empty: whole.empty,
    seen: new Uint32Array(units.length),
  };
}

export class PatternError extends Error {}

function lex(src: string): string[] {
  const out: string[] = [];
  // "?" is a token of its own, so "(up )?to" reads as an optional group then "to", not as the word "?to".
  const re = /\s*(NEAR\/\d+|BEFORE\/\d+|\.\.\.|"[^"]*"|[()|?]|[^\s()|"?]+)/y;
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
  const parts = [first, ...rest.map((r) => r.seq)];
  return { first, rest, heads: firstUnits(first), required: parts.flatMap(requiredUnits), automata: parts.map(automaton) };
}

/** Can the unit match no word at all: a group with an optional or all-optional alternative. */
const nullable = (u: Unit): boolean => u.kind === "alt" && u.options.some((o) => o.every(nullable));

/** The units a match of the sequence can begin with. */
function firstUnits(seq: Seq): Unit[] {
  const u = seq[0];
  if (!u) return [];
  const head = u.kind === "alt" ? u.options.flatMap(firstUnits) : [u];
  return nullable(u) ? [...head, ...firstUnits(seq.slice(1))] : head;
}

function requiredUnits(seq: Seq): Unit[][] {
  return seq.filter((u) => !nullable(u)).map((u) => (u.kind === "alt" ? u.options.flatMap(firstUnits) : [u]));
}

/** Does the unit meet the word? */
function meets(u: PlainUnit, t: Token): boolean {
  if (u.kind === "name") return t.name;
  // A word written in its base form meets every form of it ("claim": claims, claimed); an inflected one only itself.
  if (u.kind === "word") return t.norm === u.norm || (u.base && t.lemma === u.norm);
  return t.norm.startsWith(u.prefix) || t.lemma.startsWith(u.prefix);
}

// Scratch lists reused from sentence to sentence: matching is synchronous and never re-entered.
let live: number[] = [];
let nextLive: number[] = [];
let step = 0;

/** Writes a part's [start, end) spans into `out` as start, end pairs from index 0; returns how many numbers it wrote. */
function spansInto(a: Automaton, words: Token[], out: number[]): number {
  let n = 0;
  for (let s = 0; s < words.length; s++) {
    if (a.empty) {
      out[n++] = s;
      out[n++] = s;
    }
    const w = words[s];
    if (!a.firstAny && !a.firstNorms.has(w.norm) && !a.firstLemmas.has(w.lemma)) continue;
    let cur = live;
    let next = nextLive;
    cur.length = 0;
    for (let j = 0; j < a.first.length; j++) if (meets(a.units[a.first[j]], words[s])) cur.push(a.first[j]);
    for (let pos = s; cur.length > 0; ) {
      for (let j = 0; j < cur.length; j++)
        if (a.last[cur[j]]) {
          out[n++] = s;
          out[n++] = pos + 1;
          break;
        }
      if (++pos >= words.length) break;
      if (++step === 0xffffffff) step = 1;
      next.length = 0;
      for (let j = 0; j < cur.length; j++) {
        const f = a.follow[cur[j]];
        for (let k = 0; k < f.length; k++) {
          const st = f[k];
          if (a.seen[st] === step) continue;
          a.seen[st] = step;
          if (meets(a.units[st], words[pos])) next.push(st);
        }
      }
      [cur, next] = [next, cur];
    }
    live = cur;
    nextLive = next;
  }
  return n;
}

let curBuf: number[] = [];
let nextBuf: number[] = [];
const partBuf: number[] = [];

/** The leftmost match of a pattern in a sentence's words (punctuation left out): a [start, end) word span, or null. */
export function matchPattern(chain: Chain, words: Token[]): [number, number] | null {
  let cur = curBuf;
  let next = nextBuf;
  let nCur = spansInto(chain.automata[0], words, cur);
  for (let r = 0; r < chain.rest.length && nCur > 0; r++) {
    const { op, n: max } = chain.rest[r];
    const nPart = spansInto(chain.automata[r + 1], words, partBuf);
    let nNext = 0;
    for (let i = 0; i < nCur; i += 2) {
      const a0 = cur[i];
      const a1 = cur[i + 1];
      for (let j = 0; j < nPart; j += 2) {
        const b0 = partBuf[j];
        const b1 = partBuf[j + 1];
        const gap = op === "gap" ? (b0 >= a1 ? b0 - a1 : -1) : b0 >= a1 ? b0 - a1 : a0 >= b1 ? a0 - b1 : -1;
        if (gap < 0 || gap > max) continue;
        next[nNext++] = op === "gap" ? a0 : Math.min(a0, b0);
        next[nNext++] = op === "gap" ? b1 : Math.max(a1, b1);
      }
    }
    [cur, next] = [next, cur];
    nCur = nNext;
  }
  curBuf = cur;
  nextBuf = next;
  if (nCur === 0) return null;
  let best = 0;
  for (let i = 2; i < nCur; i += 2) if (cur[i] < cur[best]) best = i;
  return [cur[best], cur[best + 1]];
}
