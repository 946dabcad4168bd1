/**
 * Which of a fixed list of word sets have a word in a text, found in one pass over its words. The
 * lexical signals ask this of two dozen sets per string, and most strings have words of none:
 * answering from one bit mask lets them skip their proximity scans outright.
 */
export class WordSets {
  private readonly bits = new Map<ReadonlySet<string>, number>();
  private readonly index = new Map<string, number>();

  constructor(sets: readonly ReadonlySet<string>[]) {
    // One bit per set in a 32-bit integer.
    if (sets.length > 31) throw new Error('WordSets holds at most 31 sets');
    sets.forEach((set, i) => {
      this.bits.set(set, 1 << i);
      for (const w of set) this.index.set(w, (this.index.get(w) ?? 0) | (1 << i));
    });
  }

  /** A test of whether a set has a word in `ws`; a set not listed is answered by a scan of `ws`. */
  of(ws: readonly string[]): (set: ReadonlySet<string>) => boolean {
    let mask = 0;
    for (const w of ws) mask |= this.index.get(w) ?? 0;
    return (set) => {
      const bit = this.bits.get(set);
      return bit === undefined ? ws.some((w) => set.has(w)) : (mask & bit) !== 0;
    };
  }
}
