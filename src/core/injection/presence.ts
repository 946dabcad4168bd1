import { matchAt, type Lead, type PhraseGroups } from './phrases';

/** A set that carries, under an instance's own symbol, its bit in that instance. */
type Marked = ReadonlySet<string> & Record<symbol, number | undefined>;

/**
 * Which of a fixed list of word sets have a word in a text, found in one pass over its words. The
 * lexical signals ask this of some sixty sets per string, and most strings have words of none:
 * answering from two bit masks lets them skip their proximity scans outright. Each listed set
 * carries its bit under this instance's symbol: a test is a property read, not a map lookup.
 */
export class WordSets<G extends string = never> {
  private readonly bit = Symbol('word-set bit');
  /** Each word's index into the mask and lead arrays: one lookup per word answers every set and phrase. */
  private readonly index = new Map<string, number>();
  private readonly low: number[] = [];
  private readonly high: number[] = [];
  /** The phrases a word opens, when `phrases` were given. */
  private readonly leads: (Lead<G> | undefined)[] = [];
  /**
   * The shapes (first letter, last letter, length) of the indexed words: most words of a text have
   * none of them and are passed over without a map lookup (which hashes the word first).
   */
  private readonly shapes = new Uint8Array(SHAPES);

  /**
   * `phrases`, when given, are found by `read` in the same pass over the words (a phrase group's own
   * `find` looks each word up again).
   */
  constructor(sets: readonly ReadonlySet<string>[], phrases?: PhraseGroups<G>) {
    if (sets.length > 62) throw new Error('WordSets holds at most 62 sets');
    const slot = (w: string): number => {
      let k = this.index.get(w);
      if (k === undefined) {
        k = this.low.length;
        this.index.set(w, k);
        this.shapes[shape(w)] = 1;
        this.low.push(0);
        this.high.push(0);
        this.leads.push(undefined);
      }
      return k;
    };
    sets.forEach((set, i) => {
      (set as Marked)[this.bit] = i;
      const masks = i < 31 ? this.low : this.high;
      for (const w of set) masks[slot(w)] |= 1 << i % 31;
    });
    if (phrases) for (const [w, lead] of phrases.leads()) this.leads[slot(w)] = lead;
  }

  /** Listed sets joined, for one test of whether any of them has a word in a text (`read(...).any`). */
  mask(sets: readonly ReadonlySet<string>[]): SetMask {
    let low = 0;
    let high = 0;
    for (const set of sets) {
      const i = (set as Marked)[this.bit];
      if (i === undefined) throw new Error('WordSets.mask: a set that is not listed');
      if (i < 31) low |= 1 << i % 31;
      else high |= 1 << i % 31;
    }
    return { low, high };
  }

  /** In one pass over `ws`: which sets have a word there (`occurs`, `any`), and which phrase groups occur. */
  read(ws: readonly string[]): Reading<G> {
    let low = 0;
    let high = 0;
    const phrases = new Set<G>();
    const shapes = this.shapes;
    for (let i = 0; i < ws.length; i++) {
      if (shapes[shape(ws[i])] === 0) continue;
      const k = this.index.get(ws[i]);
      if (k === undefined) continue;
      low |= this.low[k];
      high |= this.high[k];
      const lead = this.leads[k];
      if (lead !== undefined) matchAt(ws, i, lead, phrases);
    }
    const bit = this.bit;
    return {
      occurs: (set) => {
        const i = (set as Marked)[bit];
        if (i === undefined) return ws.some((w) => set.has(w));
        return ((i < 31 ? low : high) & (1 << i % 31)) !== 0;
      },
      any: (mask) => (low & mask.low) !== 0 || (high & mask.high) !== 0,
      phrases,
    };
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

/** Letters a to z are 0 to 25; any other character is 26. */
function letter(c: number): number {
  return c >= 0x61 && c <= 0x7a ? c - 0x61 : 26;
}
const SHAPES = 27 * 27 * 32;
/** A word's first and last letter and its length (32 and over as one), as one index. */
function shape(w: string): number {
  return (letter(w.charCodeAt(0)) * 27 + letter(w.charCodeAt(w.length - 1))) * 32 + (w.length < 31 ? w.length : 31);
}

/** Several listed sets, as one pair of bit masks. */
export interface SetMask {
  readonly low: number;
  readonly high: number;
}

/** What one pass over a text's words found. */
export interface Reading<G> {
  occurs: (set: ReadonlySet<string>) => boolean;
  /** Whether any set of a mask has a word in the text. */
  any: (mask: SetMask) => boolean;
  /** The phrase groups that occur (those of the PhraseGroups given to WordSets). */
  phrases: Set<G>;
}
