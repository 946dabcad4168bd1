/**
 * Which of a fixed list of word sets have a word in a text, found in one pass over its words. The
 * lexical signals ask this of some forty sets per string, and most strings have words of none:
 * answering from two bit masks lets them skip their proximity scans outright.
 */
export class WordSets {
  /** Each set's bit: bits 0–30 in the low mask, 31–61 in the high one. */
  private readonly bits = new Map<ReadonlySet<string>, number>();
  /** Each word's index into the two mask arrays: one lookup per word answers every set. */
  private readonly index = new Map<string, number>();
  private readonly low: number[] = [];
  private readonly high: number[] = [];

  constructor(sets: readonly ReadonlySet<string>[]) {
    if (sets.length > 62) throw new Error('WordSets holds at most 62 sets');
    sets.forEach((set, i) => {
      this.bits.set(set, i);
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
    return (set) => {
      const i = this.bits.get(set);
      if (i === undefined) return ws.some((w) => set.has(w));
      return ((i < 31 ? low : high) & (1 << i % 31)) !== 0;
    };
  }
}
