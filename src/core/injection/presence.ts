/** A set that carries, under an instance's own symbol, its bit in that instance. */
type Marked = ReadonlySet<string> & Record<symbol, number | undefined>;

/**
 * Which of a fixed list of word sets have a word in a text, found in one pass over its words. The
 * lexical signals ask this of some sixty sets per string, and most strings have words of none:
 * answering from two bit masks lets them skip their proximity scans outright. Each listed set
 * carries its bit under this instance's symbol: a test is a property read, not a map lookup.
 */
export class WordSets {
  private readonly bit = Symbol('word-set bit');
  /** Each word's index into the two mask arrays: one lookup per word answers every set. */
  private readonly index = new Map<string, number>();
  private readonly low: number[] = [];
  private readonly high: number[] = [];

  constructor(sets: readonly ReadonlySet<string>[]) {
    if (sets.length > 62) throw new Error('WordSets holds at most 62 sets');
    sets.forEach((set, i) => {
      (set as Marked)[this.bit] = i;
      const masks = i < 31 ? this.low : this.high;
      for (const w of set) {
        let k = this.index.get(w);
        if (k === undefined) {
          k = this.low.length;
          this.index.set(w, k);
          this.low.push(0);
          this.high.push(0);
        }
        masks[k] |= 1 << i % 31;
      }
    });
  }

  /** A test of whether a set has a word in `ws`; a set not listed is answered by a scan of `ws`. */
  of(ws: readonly string[]): (set: ReadonlySet<string>) => boolean {
    let low = 0;
    let high = 0;
    for (const w of ws) {
      const k = this.index.get(w);
      if (k === undefined) continue;
      low |= this.low[k];
      high |= this.high[k];
    }
    const bit = this.bit;
    return (set) => {
      const i = (set as Marked)[bit];
      if (i === undefined) return ws.some((w) => set.has(w));
      return ((i < 31 ? low : high) & (1 << i % 31)) !== 0;
    };
  }
}
