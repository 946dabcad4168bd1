import { foldForLiterals, holdsRuns, requiredText, type RequiredText } from '../text/literals';
import type { Predicate, RespondPattern } from './patterns';

/**
 * `respond` patterns over many answers: every adversarial case of a family of thousands against
 * every benign case's final answer (scope-contradiction) was a product, and a generator that writes
 * a pattern per case made it one of tens of millions of RE2 runs. Here patterns with the same schema
 * are tested once per distinct answer, and a pattern whose `pattern` keyword requires some text
 * (text/literals.ts) is tested only on the answers that hold it, found through an index of its
 * rarest three characters. What matches is exactly what testing every pattern gives.
 */

interface Group<T> {
  entries: T[];
  respond: Extract<Predicate, { state: 'ok' }>;
  required?: RequiredText;
  /** The answer this group was last a candidate for (one test per answer). */
  seen: number;
}

/** Keys a group's index key is chosen among. */
const GRAMS = 64;

/** Three code units as one number: a key with no string built per position of an answer. */
function trigram(s: string, i: number): number {
  return (s.charCodeAt(i) * 65536 + s.charCodeAt(i + 1)) * 65536 + s.charCodeAt(i + 2);
}

/** The schema's own `pattern` keyword: every string the schema accepts matches it (Ajv reads a `$ref`'s siblings in every draft). */
function ownPattern(schema: unknown): string | undefined {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
  const p = (schema as Record<string, unknown>).pattern;
  return typeof p === 'string' ? p : undefined;
}

/** A matcher of answer texts against respond patterns: the entries whose pattern accepts the text, in the order given. */
export function answerMatcher<T extends { pattern: RespondPattern }>(entries: readonly T[]): (text: string) => T[] {
  if (entries.length === 0) return () => [];
  const order = new Map<T, number>();
  const bySchema = new Map<string, Group<T>>();
  const groups: Group<T>[] = [];
  for (const e of entries) {
    order.set(e, order.size);
    const respond = e.pattern.respond;
    // Equal schemas accept the same texts; a schema that cannot run accepts none, and is left out.
    if (respond.state !== 'ok') continue;
    const key = JSON.stringify(respond.schema) ?? '';
    let g = bySchema.get(key);
    if (!g) {
      const pattern = ownPattern(respond.schema);
      bySchema.set(key, (g = { entries: [], respond, required: pattern === undefined ? undefined : requiredText(pattern), seen: -1 }));
      groups.push(g);
    }
    g.entries.push(e);
  }
  // Each indexed group under the three characters of its required text that the fewest groups share,
  // chosen among the first GRAMS of them: a pattern of 4,096 plain characters offers no better key.
  const counts = new Map<number, number>();
  const gramsOf = (g: Group<T>): Set<number> => {
    const grams = new Set<number>();
    for (const run of g.required!.runs) for (let i = 0; i + 3 <= run.length && grams.size < GRAMS; i++) grams.add(trigram(run, i));
    return grams;
  };
  const always: Group<T>[] = [];
  const indexed: { g: Group<T>; grams: Set<number> }[] = [];
  for (const g of groups) {
    if (!g.required) {
      always.push(g);
      continue;
    }
    const grams = gramsOf(g);
    for (const k of grams) counts.set(k, (counts.get(k) ?? 0) + 1);
    indexed.push({ g, grams });
  }
  const exactIndex = new Map<number, Group<T>[]>();
  const foldedIndex = new Map<number, Group<T>[]>();
  for (const { g, grams } of indexed) {
    let best = -1;
    let bestCount = Infinity;
    for (const k of grams) {
      const n = counts.get(k)!;
      if (n < bestCount) {
        best = k;
        bestCount = n;
      }
    }
    const index = g.required!.foldCase ? foldedIndex : exactIndex;
    const list = index.get(best);
    if (list) list.push(g);
    else index.set(best, [g]);
  }

  let stamp = 0;
  const answers = new Map<string, T[]>();
  return (text) => {
    const known = answers.get(text);
    if (known) return known;
    const now = ++stamp;
    const candidates: Group<T>[] = [];
    const take = (list: Group<T>[] | undefined) => {
      if (!list) return;
      for (const g of list) {
        if (g.seen === now) continue;
        g.seen = now;
        candidates.push(g);
      }
    };
    let folded: string | undefined;
    const foldedText = () => (folded ??= foldForLiterals(text));
    if (exactIndex.size) for (let i = 0; i + 3 <= text.length; i++) take(exactIndex.get(trigram(text, i)));
    if (foldedIndex.size) {
      const f = foldedText();
      for (let i = 0; i + 3 <= f.length; i++) take(foldedIndex.get(trigram(f, i)));
    }
    const out: T[] = [];
    for (const g of always) if (g.respond.test(text)) for (const e of g.entries) out.push(e);
    for (const g of candidates) if (holdsRuns(g.required!, text, foldedText) && g.respond.test(text)) for (const e of g.entries) out.push(e);
    if (out.length > 1) out.sort((a, b) => order.get(a)! - order.get(b)!);
    answers.set(text, out);
    return out;
  };
}
