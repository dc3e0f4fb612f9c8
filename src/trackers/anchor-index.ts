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

  /** Per chain: the groups it needs present (one unit of each must be in the sentence). */
  private readonly chains: Int32Array[] = [];
  /** Group -> its unit ids; groups are shared between chains. */
  private readonly groups: Int32Array[] = [];
  private readonly groupIds = new Map<string, number>();
  /** Unit -> the groups it belongs to: a present unit stamps them while the sentence is read. */
  private readonly memberOf: number[][] = [];
  /** Group -> stamp of the last sentence holding one of its units. */
  private groupStamps = new Uint32Array(0);
  /** Unit -> the chains whose first part can begin with it. */
  private readonly starts: number[][] = [];
  /** Chain -> stamp of the last sentence holding one of its first words. */
  private chainStamps = new Uint32Array(0);
  private readonly present: number[] = [];
  /** Chains stamped by the last `read`: one of their first words is present. */
  private readonly started: number[] = [];
  /** Word form -> the wildcard units its beginnings meet: calls share most of their words, and a form is sliced once. */
  private readonly prefixMemo = new Map<string, Int32Array>();

  /**
   * Registers a chain and gives its number for `mayMatch`. It needs one of
   * the first part's first words (looked up from the words), and one unit of
   * each of its required groups (a plain word, or a group's first words), for
   * a match meets each of them.
   */
  add(chain: Chain): number {
    const own = new Set<number>();
    for (const units of chain.required) own.add(this.groupOf([...new Set(units.map((u) => this.idOf(u)))].sort((a, b) => a - b)));
    // Of the required groups, the narrowest is the likeliest absent, so it is asked first.
    const n = this.chains.length;
    this.chains.push(Int32Array.from([...own].sort((a, b) => this.groups[a].length - this.groups[b].length || a - b)));
    for (const id of new Set(chain.heads.map((u) => this.idOf(u)))) (this.starts[id] ??= []).push(n);
    return n;
  }

  /** The number of a group of unit ids, shared by every chain that needs the same group. */
  private groupOf(ids: number[]): number {
    const key = ids.join(",");
    let g = this.groupIds.get(key);
    if (g === undefined) {
      g = this.groups.length;
      this.groupIds.set(key, g);
      this.groups.push(Int32Array.from(ids));
      for (const id of ids) (this.memberOf[id] ??= []).push(g);
    }
    return g;
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
        this.prefixMemo.clear();
        if (!this.prefixLengths.includes(u.prefix.length)) this.prefixLengths = [...this.prefixLengths, u.prefix.length].sort((a, b) => a - b);
      }
    }
    return id;
  }

  /** Marks the anchors present in a sentence's words (punctuation left out); `has` answers for these words until the next call. */
  read(words: Token[]): void {
    if (this.stamps.length < this.ids.size) this.stamps = new Uint32Array(this.ids.size);
    if (this.chainStamps.length < this.chains.length) this.chainStamps = new Uint32Array(this.chains.length);
    if (this.groupStamps.length < this.groups.length) this.groupStamps = new Uint32Array(this.groups.length);
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.chainStamps.fill(0);
      this.groupStamps.fill(0);
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
    const gs = this.groupStamps;
    for (const id of present) {
      const l = this.memberOf[id];
      if (l) for (let j = 0; j < l.length; j++) gs[l[j]] = now;
    }
    const cs = this.chainStamps;
    const started = this.started;
    started.length = 0;
    for (const id of present) {
      const l = this.starts[id];
      if (l)
        for (let j = 0; j < l.length; j++)
          if (cs[l[j]] !== now) {
            cs[l[j]] = now;
            started.push(l[j]);
          }
    }
  }

  private markPrefixes(form: string): void {
    let ids = this.prefixMemo.get(form);
    if (!ids) {
      const found: number[] = [];
      const lens = this.prefixLengths;
      for (let k = 0; k < lens.length && lens[k] <= form.length; k++) {
        const l = this.byPrefix.get(form.slice(0, lens[k]));
        if (l) found.push(...l);
      }
      ids = Int32Array.from(found);
      if (this.prefixMemo.size > 100_000) this.prefixMemo.clear();
      this.prefixMemo.set(form, ids);
    }
    for (let j = 0; j < ids.length; j++)
      if (this.stamps[ids[j]] !== this.stamp) {
        this.stamps[ids[j]] = this.stamp;
        this.present.push(ids[j]);
      }
  }

  /**
   * Every chain that could match the words last read, in ascending order,
   * into `out` from index 0; returns how many. A sentence walks the few
   * chains whose words it holds instead of asking each of hundreds.
   */
  candidates(out: Int32Array): number {
    let n = 0;
    for (const c of this.started) if (this.mayMatch(c)) out[n++] = c;
    out.subarray(0, n).sort();
    return n;
  }

  /** How many chains are registered (the size `candidates` may fill). */
  get size(): number {
    return this.chains.length;
  }

  /** Could chain `n` match the words last read? False when none of its first words, or none of a required group, is present. */
  mayMatch(n: number): boolean {
    if (this.chainStamps[n] !== this.stamp) return false;
    const need = this.chains[n];
    for (let g = 0; g < need.length; g++) if (this.groupStamps[need[g]] !== this.stamp) return false;
    return true;
  }
}
