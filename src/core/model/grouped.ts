import type { CaseModel } from './case';

/**
 * How one of the index's grouped maps (cases by id, by family, tool users by tool) takes its
 * entries from a case. A from-scratch build walks every case in order and appends each entry to its
 * key's list, so every list is in case order and the keys are in the order of their first entry.
 */
export interface Grouping<K, V> {
  /** The keys a case contributes to, in order (no values built: used to re-order keys). */
  keys(c: CaseModel, visit: (key: K) => void): void;
  entries(c: CaseModel, add: (key: K, value: V) => void): void;
  caseOf(value: V): CaseModel;
}

/** The cases of one document before and after a change. */
export interface DocCases {
  before: readonly CaseModel[];
  after: readonly CaseModel[];
}

/**
 * What a change replaced in one document: `before[from, beforeEnd)` became `after[from, afterEnd)`,
 * and the models before and after that stretch are the same objects in the same order. An edit of
 * one case of a thousand keeps the others' models (model/case.ts), so the stretch is that case.
 */
interface Stretch {
  from: number;
  beforeEnd: number;
  afterEnd: number;
}

function stretchOf({ before, after }: DocCases): Stretch {
  const n = Math.min(before.length, after.length);
  let from = 0;
  while (from < n && before[from] === after[from]) from++;
  let kept = 0;
  while (kept < n - from && before[before.length - 1 - kept] === after[after.length - 1 - kept]) kept++;
  return { from, beforeEnd: before.length - kept, afterEnd: after.length - kept };
}

/**
 * The stretches a change replaced, in order. A document that keeps its number of cases, some of
 * them new models here and there (an edited tool file gives new models to its users, wherever they
 * sit in the file), has one stretch per run of new models; any other change has one stretch. A
 * single stretch from the first new model to the last spanned most of a 500-case file, and every
 * case in it was regrouped.
 */
function stretchesOf(doc: DocCases): Stretch[] {
  const whole = stretchOf(doc);
  const { before, after } = doc;
  if (before.length !== after.length || whole.afterEnd - whole.from < 2) return [whole];
  const out: Stretch[] = [];
  for (let i = whole.from; i < whole.afterEnd; i++) {
    if (before[i] === after[i]) continue;
    let j = i + 1;
    while (j < whole.afterEnd && before[j] !== after[j]) j++;
    out.push({ from: i, beforeEnd: j, afterEnd: j });
    i = j;
  }
  return out;
}

/** What a change brings one key in one document: the stretches it is in (before or after), and its new entries with their cases' places. */
interface KeyChange<V> {
  stretches: number[];
  values: V[];
  places: number[];
}

/**
 * Updates a grouped map after some documents' cases changed, so that it equals a from-scratch build:
 * lists in case order and keys in first-entry order, since rules report in the order they iterate
 * (and suggest names in that order). Only the keys of the cases a change replaced get new lists;
 * lists are replaced, never modified. Returns `map`, or a new map when the key order moved; a key
 * added or dropped counts as moved, so a map returned again has the same keys in the same order
 * (readers keep what they derive from the keys alone: unresolved-reference's id index). `rank`
 * gives each document's position in the workspace (distinct integers, for every document before
 * and after: the caller updates only a workspace whose files stay the same), `cases` every case in
 * order.
 */
export function regroup<K, V>(
  map: Map<K, V[]>,
  grouping: Grouping<K, V>,
  changed: ReadonlyMap<string, DocCases>,
  rank: (uri: string) => number,
  cases: readonly CaseModel[],
): Map<K, V[]> {
  const stretches = new Map<string, Stretch[]>();
  const byKey = new Map<K, Map<string, KeyChange<V>>>();
  const changeOf = (k: K, uri: string, si: number): KeyChange<V> => {
    let byUri = byKey.get(k);
    if (!byUri) byKey.set(k, (byUri = new Map()));
    let change = byUri.get(uri);
    if (!change) byUri.set(uri, (change = { stretches: [], values: [], places: [] }));
    // Stretches are visited in order: the last one noted is the only one it can repeat.
    if (change.stretches[change.stretches.length - 1] !== si) change.stretches.push(si);
    return change;
  };
  for (const [uri, doc] of changed) {
    const replaced = stretchesOf(doc);
    stretches.set(uri, replaced);
    replaced.forEach((s, si) => {
      for (let i = s.from; i < s.beforeEnd; i++) grouping.keys(doc.before[i], (k) => void changeOf(k, uri, si));
      for (let i = s.from; i < s.afterEnd; i++) {
        grouping.entries(doc.after[i], (k, v) => {
          const change = changeOf(k, uri, si);
          change.values.push(v);
          change.places.push(i);
        });
      }
    });
  }

  // The changed documents in workspace order.
  const order = [...changed.keys()].map((uri) => ({ uri, rank: rank(uri), stretches: stretches.get(uri)!, before: changed.get(uri)!.before })).sort((a, b) => a.rank - b.rank);
  const was = new Map<K, V[] | undefined>();
  let keysMoved = false;
  for (const [k, byUri] of byKey) {
    const held = map.get(k);
    const previous = held ?? [];
    was.set(k, held);
    // A list is runs of entries per document, in document order: each changed document's run is
    // found by binary search on the rank, and within it the entries of each replaced stretch by
    // binary search on the case's place; they give way to the stretch's new entries, the rest is
    // copied in slices. A walk over every entry cost milliseconds an edit for a tool that
    // thousands of cases use, and a walk over every case of the file for a file of thousands.
    const parts: V[][] = [];
    let from = 0;
    for (const { uri, rank: r, stretches: replaced, before } of order) {
      // A document whose stretches hold no entry of the key, before or after, leaves its run as it was.
      const change = byUri.get(uri);
      if (!change) continue;
      // A key new to the workspace has no runs to cut (a renamed tool, a new id).
      const start = previous.length ? firstAtRank(previous, from, previous.length, r, grouping, rank) : 0;
      const end = previous.length ? firstAtRank(previous, start, previous.length, r + 1, grouping, rank) : 0;
      let next = 0;
      for (const si of change.stretches) {
        const s = replaced[si];
        if (previous.length) {
          const head = s.from === 0 ? start : firstAtPlace(previous, Math.max(from, start), end, s.from, before, grouping);
          const tail = s.beforeEnd === before.length ? end : firstAtPlace(previous, head, end, s.beforeEnd, before, grouping);
          if (head > from) parts.push(previous.slice(from, head));
          from = tail;
        }
        const first = next;
        while (next < change.places.length && change.places[next] < s.afterEnd) next++;
        if (next > first) parts.push(first === 0 && next === change.values.length ? change.values : change.values.slice(first, next));
      }
    }
    if (from < previous.length) parts.push(from === 0 ? previous : previous.slice(from));
    const list = parts.length === 1 ? parts[0] : ([] as V[]).concat(...parts);
    if (list.length === 0) {
      map.delete(k);
      keysMoved = true;
    } else {
      if (!previous.length) keysMoved = true;
      map.set(k, list);
    }
  }
  if (!keysMoved) keysMoved = firstsMoved(was, map, grouping, changed, stretches);
  if (!keysMoved) return map;
  const ordered = new Map<K, V[]>();
  for (const c of cases) grouping.keys(c, (k) => ordered.has(k) || ordered.set(k, map.get(k)!));
  return ordered;
}

/** The first index in `list[lo, hi)` whose entry's document ranks `r` or later (entries are in document order). */
function firstAtRank<V>(list: readonly V[], lo: number, hi: number, r: number, grouping: Grouping<unknown, V>, rank: (uri: string) => number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rank(grouping.caseOf(list[mid]).doc.uri) < r) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first index in `list[lo, hi)` (entries of one document, in case order) whose case sits at `place` or later in `before`. */
function firstAtPlace<V>(list: readonly V[], lo: number, hi: number, place: number, before: readonly CaseModel[], grouping: Grouping<unknown, V>): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (placeIn(before, grouping.caseOf(list[mid])) < place) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each model's place in its document's list, built when a list must be cut at a stretch (once for the three maps). */
const places = new WeakMap<readonly CaseModel[], Map<CaseModel, number>>();

function placeIn(before: readonly CaseModel[], c: CaseModel): number {
  let at = places.get(before);
  if (!at) {
    places.set(before, (at = new Map()));
    for (let i = 0; i < before.length; i++) at.set(before[i], i);
  }
  return at.get(c)!;
}

/**
 * Whether the key order can differ from before (`was`: the touched keys' lists before; every one
 * of them has entries before and after, or the caller already knows the order moved). Keys are
 * ordered by where their first entry sits, and only a document's replaced stretches gain or lose
 * entries: the order stands while, in each replaced stretch, the keys whose first entry lies in it
 * are the same keys in the same order before and after. (A key whose first entry is a
 * case no change replaced still has it there: anything earlier would be a new entry, from a
 * stretch, and put the key in that stretch's list after but not before.)
 */
function firstsMoved<K, V>(
  was: ReadonlyMap<K, V[] | undefined>,
  now: ReadonlyMap<K, V[]>,
  grouping: Grouping<K, V>,
  changed: ReadonlyMap<string, DocCases>,
  stretches: ReadonlyMap<string, readonly Stretch[]>,
): boolean {
  const firstCase = (list: V[] | undefined) => (list?.length ? grouping.caseOf(list[0]) : undefined);
  const firsts = (cases: readonly CaseModel[], from: number, to: number, listOf: (k: K) => V[] | undefined): K[] => {
    const seen = new Set<K>();
    const out: K[] = [];
    for (let i = from; i < to; i++) {
      const c = cases[i];
      grouping.keys(c, (k) => {
        if (seen.has(k)) return;
        seen.add(k);
        if (firstCase(listOf(k)) === c) out.push(k);
      });
    }
    return out;
  };
  for (const [uri, { before, after }] of changed) {
    // Stretch by stretch: a key whose first entry moved from one stretch to a later one may now
    // come after a key whose first entry lies between them.
    for (const s of stretches.get(uri)!) {
      const a = firsts(before, s.from, s.beforeEnd, (k) => was.get(k));
      const b = firsts(after, s.from, s.afterEnd, (k) => now.get(k));
      if (a.length !== b.length || a.some((k, i) => k !== b[i])) return true;
    }
  }
  return false;
}
