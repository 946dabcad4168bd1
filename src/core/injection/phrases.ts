import { pushTo } from '../text/multimap';

/**
 * Groups of fixed phrases, found in one pass over a word list. Testing each phrase as a substring
 * of the joined words costs a search per phrase (the lexical signals test a few hundred); indexing
 * them by first word costs one map lookup per word. The answers are the same: a phrase occurs when
 * its space-separated words are consecutive words of the text (words hold no spaces, so a phrase
 * with an empty word, from a leading, trailing or double space, never occurs).
 */
export class PhraseGroups<G extends string> {
  private readonly byFirst = new Map<string, { group: G; rest: string[] }[]>();

  constructor(groups: Record<G, readonly string[]>) {
    for (const group of Object.keys(groups) as G[]) {
      for (const phrase of groups[group]) {
        if (!/^[^ ]+( [^ ]+)*$/.test(phrase)) continue;
        const [first, ...rest] = phrase.split(' ');
        pushTo(this.byFirst, first, { group, rest });
      }
    }
  }

  /** The groups that have a phrase occurring in `ws`. */
  find(ws: readonly string[]): Set<G> {
    const found = new Set<G>();
    for (let i = 0; i < ws.length; i++) {
      const candidates = this.byFirst.get(ws[i]);
      if (!candidates) continue;
      for (const { group, rest } of candidates) {
        if (found.has(group) || i + rest.length >= ws.length) continue;
        let k = 0;
        while (k < rest.length && ws[i + 1 + k] === rest[k]) k++;
        if (k === rest.length) found.add(group);
      }
    }
    return found;
  }
}
