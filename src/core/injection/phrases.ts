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

export class PhraseGroups<G extends string> {
  /** One-word phrases by their word. */
  private readonly single = new Map<string, G[]>();
  /** Longer phrases by their first word, then their second. */
  private readonly byPair = new Map<string, Map<string, Entry<G>[]>>();

  constructor(groups: Record<G, readonly string[]>) {
    for (const group of Object.keys(groups) as G[]) {
      for (const phrase of groups[group]) {
        if (!/^[^ ]+( [^ ]+)*$/.test(phrase)) continue;
        const [first, second, ...rest] = phrase.split(' ');
        if (second === undefined) {
          const list = this.single.get(first);
          if (list) list.push(group);
          else this.single.set(first, [group]);
          continue;
        }
        let seconds = this.byPair.get(first);
        if (!seconds) this.byPair.set(first, (seconds = new Map()));
        const list = seconds.get(second);
        if (list) list.push({ group, rest });
        else seconds.set(second, [{ group, rest }]);
      }
    }
  }

  /** The groups that have a phrase occurring in `ws`. */
  find(ws: readonly string[]): Set<G> {
    const found = new Set<G>();
    for (let i = 0; i < ws.length; i++) {
      const one = this.single.get(ws[i]);
      if (one) for (const g of one) found.add(g);
      const seconds = i + 1 < ws.length ? this.byPair.get(ws[i]) : undefined;
      const candidates = seconds?.get(ws[i + 1]);
      if (!candidates) continue;
      for (const { group, rest } of candidates) {
        if (found.has(group) || i + 1 + rest.length >= ws.length) continue;
        let k = 0;
        while (k < rest.length && ws[i + 2 + k] === rest[k]) k++;
        if (k === rest.length) found.add(group);
      }
    }
    return found;
  }
}
