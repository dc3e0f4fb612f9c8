import type { Chain, Unit } from "./pattern.js";
import type { Token } from "./text.js";

/** Wildcards longer than this are checked word by word (the sentence index keeps beginnings up to this length). */
const MAX_PREFIX = 16;

/**
 * The anchor words of every pattern of a tracker set, numbered once when the
 * set is compiled, so a sentence is read once for all trackers: each word is
 * looked up in a few maps and marks the anchors it meets, and "could this
 * pattern match?" becomes a few array reads. Same answer as testing each
 * anchor against the sentence's word sets, without building those sets.
 */
export class AnchorIndex {
  private readonly ids = new Map<string, number>();
  /** Word units by surface form (every word unit meets its own form). */
  private readonly byNorm = new Map<string, number[]>();
  /** Base-form word units by lemma ("claim" meets "claimed"). */
  private readonly byLemma = new Map<string, number[]>();
  private readonly byPrefix = new Map<string, number[]>();
  private prefixLengths: number[] = [];
  private readonly longPrefixes: Array<[string, number]> = [];
  private readonly names: number[] = [];
  /** Unit -> stamp of the last sentence it was present in: no clearing between sentences. */
  private stamps = new Uint32Array(0);
  private stamp = 0;

  /** Per chain: what it needs present, as lists of unit ids one of which must be in the sentence. */
  private readonly chains: Int32Array[][] = [];
  /** Unit -> the chains whose first part can begin with it. */
  private readonly starts: number[][] = [];
  /** Chain -> stamp of the last sentence holding one of its first words. */
  private chainStamps = new Uint32Array(0);
  private readonly present: number[] = [];

  /**
   * Registers a chain and gives its number for `mayMatch`. It needs one of
   * each part's first words (the first part's are looked up from the words),
   * and every plain word of every part, for a match meets each of them.
   */
  add(chain: Chain): number {
    const groups = chain.anchors.map((units) => Int32Array.from(units.map((u) => this.idOf(u))));
    const singles = new Set(groups.filter((g) => g.length === 1).map((g) => g[0]));
    for (const seq of [chain.first, ...chain.rest.map((r) => r.seq)])
      for (const u of seq) {
        if (u.kind === "alt") continue;
        const id = this.idOf(u);
        if (!singles.has(id)) groups.push(Int32Array.of(id));
        singles.add(id);
      }
    const n = this.chains.length;
    this.chains.push(groups);
    for (const id of new Set(groups[0] ?? [])) (this.starts[id] ??= []).push(n);
    return n;
  }

  private idOf(u: Unit): number {
    const key = u.kind === "name" ? "n" : u.kind === "word" ? `${u.base ? "b" : "w"}:${u.norm}` : u.kind === "prefix" ? `p:${u.prefix}` : "";
    if (!key) throw new Error("an anchor is never a group");
    let id = this.ids.get(key);
    if (id !== undefined) return id;
    id = this.ids.size;
    this.ids.set(key, id);
    const post = (m: Map<string, number[]>, k: string) => {
      const l = m.get(k);
      if (l) l.push(id!);
      else m.set(k, [id!]);
    };
    if (u.kind === "name") this.names.push(id);
    else if (u.kind === "word") {
      post(this.byNorm, u.norm);
      if (u.base) post(this.byLemma, u.norm);
    } else if (u.kind === "prefix") {
      if (u.prefix.length > MAX_PREFIX) this.longPrefixes.push([u.prefix, id]);
      else {
        post(this.byPrefix, u.prefix);
        if (!this.prefixLengths.includes(u.prefix.length)) this.prefixLengths = [...this.prefixLengths, u.prefix.length].sort((a, b) => a - b);
      }
    }
    return id;
  }

  /** Marks the anchors present in a sentence's words (punctuation left out); `has` answers for these words until the next call. */
  read(words: Token[]): void {
    if (this.stamps.length < this.ids.size) this.stamps = new Uint32Array(this.ids.size);
    if (this.chainStamps.length < this.chains.length) this.chainStamps = new Uint32Array(this.chains.length);
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.chainStamps.fill(0);
      this.stamp = 1;
    }
    const st = this.stamps;
    const now = this.stamp;
    const present = this.present;
    present.length = 0;
    const mark = (l: number[] | undefined) => {
      if (l)
        for (let j = 0; j < l.length; j++)
          if (st[l[j]] !== now) {
            st[l[j]] = now;
            present.push(l[j]);
          }
    };
    let name = false;
    for (const t of words) {
      if (t.name) name = true;
      mark(this.byNorm.get(t.norm));
      mark(this.byLemma.get(t.lemma));
      this.markPrefixes(t.norm);
      if (t.lemma !== t.norm) this.markPrefixes(t.lemma);
      for (const [p, id] of this.longPrefixes) if (st[id] !== now && (t.norm.startsWith(p) || t.lemma.startsWith(p))) mark([id]);
    }
    if (name) mark(this.names);
    const cs = this.chainStamps;
    for (const id of present) {
      const l = this.starts[id];
      if (l) for (let j = 0; j < l.length; j++) cs[l[j]] = now;
    }
  }

  private markPrefixes(form: string): void {
    const lens = this.prefixLengths;
    for (let k = 0; k < lens.length && lens[k] <= form.length; k++) {
      const l = this.byPrefix.get(form.slice(0, lens[k]));
      if (l)
        for (let j = 0; j < l.length; j++)
          if (this.stamps[l[j]] !== this.stamp) {
            this.stamps[l[j]] = this.stamp;
            this.present.push(l[j]);
          }
    }
  }

  /** Could chain `n` match the words last read? False when a part's first word or a plain word is absent. */
  mayMatch(n: number): boolean {
    if (this.chainStamps[n] !== this.stamp) return false;
    const groups = this.chains[n];
    for (let g = 1; g < groups.length; g++) {
      const part = groups[g];
      let any = false;
      for (let j = 0; j < part.length && !any; j++) any = this.stamps[part[j]] === this.stamp;
      if (!any) return false;
    }
    return true;
  }
}
