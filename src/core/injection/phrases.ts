/**
 * Groups of fixed phrases, found in one pass over a word list. Testing each phrase as a substring
 * of the joined words costs a search per phrase (the lexical signals test a few hundred); indexing
 * them by their first two words costs two map lookups per word, and common first words ("the",
 * "you", "do") do not make every phrase that starts with them a candidate. The answers are the same:
 * a phrase occurs when its space-separated words are consecutive words of the text (words hold no
 * spaces, so a phrase with an empty word, from a leading, trailing or double space, never occurs).
 */
interface Entry<G> {
  group: G;
  /** Words after the first two. */
  rest: string[];
}

/** What a first word leads to: the one-word phrases it is, and the longer ones it opens, by their second word. */
export interface Lead<G> {
  single?: G[];
  seconds?: Map<string, Entry<G>[]>;
}

export class PhraseGroups<G extends string> {
  /** Every phrase by its first word: one map lookup per word of the text. */
  private readonly byFirst = new Map<string, Lead<G>>();

  constructor(groups: Record<G, readonly string[]>) {
    for (const group of Object.keys(groups) as G[]) {
      for (const phrase of groups[group]) {
        if (!/^[^ ]+( [^ ]+)*$/.test(phrase)) continue;
        const [first, second, ...rest] = phrase.split(' ');
        let lead = this.byFirst.get(first);
        if (!lead) this.byFirst.set(first, (lead = {}));
        if (second === undefined) {
          (lead.single ??= []).push(group);
          continue;
        }
        lead.seconds ??= new Map();
        const list = lead.seconds.get(second);
        if (list) list.push({ group, rest });
        else lead.seconds.set(second, [{ group, rest }]);
      }
    }
  }

  /** Every first word of a phrase with what it leads to (for an index that looks up each word once; see WordSets). */
  leads(): IterableIterator<[string, Lead<G>]> {
    return this.byFirst.entries();
  }

  /** The groups that have a phrase occurring in `ws`. */
  find(ws: readonly string[]): Set<G> {
    const found = new Set<G>();
    for (let i = 0; i < ws.length; i++) {
      const lead = this.byFirst.get(ws[i]);
      if (lead !== undefined) matchAt(ws, i, lead, found);
    }
    return found;
  }
}

/** Adds to `found` the groups of the phrases that `lead` (the lead of `ws[i]`) opens at word `i`. */
export function matchAt<G>(ws: readonly string[], i: number, lead: Lead<G>, found: Set<G>): void {
  if (lead.single) for (const g of lead.single) found.add(g);
  const candidates = lead.seconds !== undefined && i + 1 < ws.length ? lead.seconds.get(ws[i + 1]) : undefined;
  if (!candidates) return;
  for (const { group, rest } of candidates) {
    if (found.has(group) || i + 1 + rest.length >= ws.length) continue;
    let k = 0;
    while (k < rest.length && ws[i + 2 + k] === rest[k]) k++;
    if (k === rest.length) found.add(group);
  }
}
