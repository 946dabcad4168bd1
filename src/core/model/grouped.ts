import type { CaseModel } from './case';
import { pushTo } from '../text/multimap';

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
 * Updates a grouped map after some documents' cases changed, so that it equals a from-scratch build:
 * lists in case order and keys in first-entry order, since rules report in the order they iterate
 * (and suggest names in that order). Only the keys the changed documents held or hold get new
 * lists; lists are replaced, never modified. Returns `map`, or a new map when the key order moved;
 * a key added or dropped counts as moved, so a map returned again has the same keys in the same
 * order (readers keep what they derive from the keys alone: unresolved-reference's id index).
 * `rank` gives each document's position in the workspace (distinct integers, for every document
 * before and after: the caller updates only a workspace whose files stay the same), `cases` every
 * case in order.
 */
export function regroup<K, V>(
  map: Map<K, V[]>,
  grouping: Grouping<K, V>,
  changed: ReadonlyMap<string, DocCases>,
  rank: (uri: string) => number,
  cases: readonly CaseModel[],
): Map<K, V[]> {
  const touched = new Set<K>();
  const fresh = new Map<K, Map<string, V[]>>();
  for (const [uri, { before, after }] of changed) {
    for (const c of before) grouping.keys(c, (k) => touched.add(k));
    for (const c of after) {
      grouping.entries(c, (k, v) => {
        touched.add(k);
        let byUri = fresh.get(k);
        if (!byUri) fresh.set(k, (byUri = new Map()));
        pushTo(byUri, uri, v);
      });
    }
  }

  // The changed documents in workspace order.
  const order = [...changed.keys()].map((uri) => ({ uri, rank: rank(uri) })).sort((a, b) => a.rank - b.rank);
  const was = new Map<K, V[] | undefined>();
  let keysMoved = false;
  for (const k of touched) {
    const previous = map.get(k) ?? [];
    was.set(k, map.get(k));
    // A list is runs of entries per document, in document order: each changed document's run is
    // found by binary search on the rank and replaced by its new run, the rest copied in slices. A
    // walk over every entry cost milliseconds an edit for a tool that thousands of cases use.
    const rankAt = (i: number) => rank(grouping.caseOf(previous[i]).doc.uri);
    const firstFrom = (lo: number, r: number) => {
      let hi = previous.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (rankAt(mid) < r) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    const parts: V[][] = [];
    let from = 0;
    for (const { uri, rank: r } of order) {
      const start = firstFrom(from, r);
      if (start > from) parts.push(previous.slice(from, start));
      const mine = fresh.get(k)?.get(uri);
      if (mine) parts.push(mine);
      from = firstFrom(start, r + 1);
    }
    if (from < previous.length) parts.push(from === 0 ? previous : previous.slice(from));
    const list = parts.length === 1 ? parts[0] : ([] as V[]).concat(...parts);
    if (list.length === 0) {
      map.delete(k);
      keysMoved = true;
    } else {
      if (!previous) keysMoved = true;
      map.set(k, list);
    }
  }
  if (!keysMoved) keysMoved = firstsMoved(was, map, grouping, changed);
  if (!keysMoved) return map;
  const ordered = new Map<K, V[]>();
  for (const c of cases) grouping.keys(c, (k) => ordered.has(k) || ordered.set(k, map.get(k)!));
  return ordered;
}

/**
 * Whether the key order can differ from before (`was`: the touched keys' lists before). Keys are
 * ordered by where their first entry sits: the order stands while every touched key's first entry
 * stays in the same document and, within each changed document, the keys whose first entry it
 * holds come in the same order.
 */
function firstsMoved<K, V>(was: ReadonlyMap<K, V[] | undefined>, now: ReadonlyMap<K, V[]>, grouping: Grouping<K, V>, changed: ReadonlyMap<string, DocCases>): boolean {
  const firstUri = (list: V[] | undefined) => (list?.length ? grouping.caseOf(list[0]).doc.uri : undefined);
  for (const [k, list] of was) if (firstUri(list) !== firstUri(now.get(k))) return true;
  const firsts = (uri: string, cases: readonly CaseModel[], listOf: (k: K) => V[] | undefined): K[] => {
    const seen = new Set<K>();
    const out: K[] = [];
    for (const c of cases) {
      grouping.keys(c, (k) => {
        if (seen.has(k)) return;
        seen.add(k);
        if (firstUri(listOf(k)) === uri) out.push(k);
      });
    }
    return out;
  };
  for (const [uri, { before, after }] of changed) {
    const a = firsts(uri, before, (k) => was.get(k));
    const b = firsts(uri, after, (k) => now.get(k));
    if (a.length !== b.length || a.some((k, i) => k !== b[i])) return true;
  }
  return false;
}
