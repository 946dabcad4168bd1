import type { Node } from 'jsonc-parser';
import { type LintDiagnostic, formatPointer, type JsonPath, normalizeUri, relativePath, type CaseModel, type WorkspaceIndex } from '../core';
import { sha256 } from './cache';

/**
 * A baseline (FORMAT §11): findings a team has accepted, so that only new ones are reported.
 * An entry names the rule, the file (relative to the baseline's folder, `/`-separated), the
 * finding's place as a JSON pointer, and a hash of its message. Inside a case with an
 * `instance_id` the pointer is relative to that case and `case` holds the id, so moving the case
 * within its file (or reordering a JSONL file) keeps the entry matching; elsewhere the pointer is
 * from the document's root (a JSONL line's index first).
 */
export interface BaselineEntry {
  rule: string;
  file: string;
  case?: string;
  path: string;
  messageHash: string;
}

export interface Baseline {
  version: 1;
  entries: BaselineEntry[];
}

export const BASELINE_VERSION = 1;

/** The path of the innermost value at `offset` (a key counts as its property's value). */
function pathAtOffset(root: Node, offset: number): JsonPath {
  const path: JsonPath = [];
  let node = root;
  for (;;) {
    const children = node.children;
    if (!children || (node.type !== 'object' && node.type !== 'array')) return path;
    let next: Node | undefined;
    let segment: string | number | undefined;
    // Children are in text order: the last one starting at or before the offset is the only candidate.
    const i = lastStartingBy(children, offset);
    const child = i >= 0 ? children[i] : undefined;
    if (child && offset < child.offset + Math.max(child.length, 1)) {
      if (node.type === 'array') {
        next = child;
        segment = i;
      } else {
        const [key, value] = child.children ?? [];
        if (!key) return path;
        segment = String(key.value);
        // On the key itself: the property is the place; nothing deeper.
        next = value && offset >= value.offset ? value : undefined;
        if (!next) {
          path.push(segment);
          return path;
        }
      }
    }
    if (!next || segment === undefined) return path;
    path.push(segment);
    node = next;
  }
}

/** The index of the last item whose `offset` (or `key`) is at most `at`, by binary search; -1 if none. */
function lastStartingBy<T>(items: readonly T[], at: number, key: (item: T) => number = (item) => (item as { offset: number }).offset): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (key(items[mid]) <= at) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The cases of each document by root and path, for `findingPlace`. */
export type CasesByRoot = Map<string, Map<string, CaseModel>>;

const placeKey = (root: number, path: JsonPath) => JSON.stringify([root, ...path]);

export function casesByRoot(index: WorkspaceIndex): CasesByRoot {
  const out: CasesByRoot = new Map();
  for (const c of index.cases) {
    let places = out.get(c.doc.uri);
    if (!places) out.set(c.doc.uri, (places = new Map()));
    places.set(placeKey(c.root, c.path), c);
  }
  return out;
}

/** Where a finding sits, as the baseline records it: its case's id and a pointer into the case. */
export function findingPlace(index: WorkspaceIndex, d: LintDiagnostic, cases: CasesByRoot): { case?: string; path: string } {
  const doc = index.docs.get(d.uri);
  if (!doc) return { path: '' };
  const roots = doc.parsed.roots;
  // By line first: a JSONL file's other lines' trees are never built (they are built as walked).
  const rootIndex = lastStartingBy(roots, d.range.start.line, (r) => r.line);
  const node = rootIndex >= 0 ? roots[rootIndex].node : undefined;
  if (!node || d.offset < node.offset || d.offset >= node.offset + Math.max(node.length, 1)) return { path: '' };
  const path = pathAtOffset(node, d.offset);
  const places = cases.get(d.uri);
  let owner: CaseModel | undefined;
  // A case is the root itself or an entry of `cases`: look its path up, prefix by prefix.
  for (let k = 0; places && k <= path.length && !owner; k++) owner = places.get(placeKey(rootIndex, path.slice(0, k)));
  if (owner && typeof owner.id !== 'string') owner = undefined;
  if (owner) return { case: owner.id, path: formatPointer(path.slice(owner.path.length)) };
  return { path: formatPointer(doc.kind === 'caseLines' ? [rootIndex, ...path] : path) };
}

function entryKey(e: BaselineEntry): string {
  return JSON.stringify([e.rule, e.file, e.case ?? null, e.path, e.messageHash]);
}

/** One entry per finding, in a stable order; `baselineUri` is the baseline file's URI. */
export function baselineEntries(index: WorkspaceIndex, diagnostics: readonly LintDiagnostic[], baselineUri: string): BaselineEntry[] {
  const cases = casesByRoot(index);
  const base = normalizeUri(baselineUri);
  const entries = diagnostics.map((d): BaselineEntry => {
    const place = findingPlace(index, d, cases);
    return {
      rule: d.code,
      file: relativePath(base, normalizeUri(d.uri)),
      ...(place.case !== undefined ? { case: place.case } : {}),
      path: place.path,
      messageHash: sha256(d.message).slice(0, 16),
    };
  });
  return entries.sort((a, b) => (entryKey(a) < entryKey(b) ? -1 : entryKey(a) > entryKey(b) ? 1 : 0));
}

export function serializeBaseline(entries: BaselineEntry[]): string {
  const baseline: Baseline = { version: BASELINE_VERSION, entries };
  return JSON.stringify(baseline, null, 2) + '\n';
}

/** Reads a baseline file; a string is what is wrong with it. */
export function parseBaseline(text: string): Baseline | string {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\ufeff/, ''));
  } catch (e) {
    return `not JSON (${e instanceof Error ? e.message : String(e)})`;
  }
  const v = value as Partial<Baseline> | null;
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'expected an object with "version" and "entries"';
  if (v.version !== BASELINE_VERSION) return `unsupported version ${JSON.stringify(v.version)} (this litmus-lint writes version ${BASELINE_VERSION})`;
  if (!Array.isArray(v.entries)) return '"entries" must be an array';
  for (const [i, e] of v.entries.entries()) {
    const ok =
      e && typeof e === 'object' && typeof e.rule === 'string' && typeof e.file === 'string' && typeof e.path === 'string' &&
      typeof e.messageHash === 'string' && (e.case === undefined || typeof e.case === 'string');
    if (!ok) return `entry ${i} needs string "rule", "file", "path" and "messageHash" (and "case", when present, a string)`;
  }
  return { version: BASELINE_VERSION, entries: v.entries };
}

export interface BaselineResult {
  /** Findings the baseline does not list: what the run reports. */
  kept: LintDiagnostic[];
  accepted: number;
  /** Entries that matched no finding: fixed since, or moved out of their case. */
  unmatched: number;
}

/** Matches findings to entries one for one: two identical findings need two entries. */
export function applyBaseline(index: WorkspaceIndex, diagnostics: readonly LintDiagnostic[], baseline: Baseline, baselineUri: string): BaselineResult {
  const budget = new Map<string, number>();
  for (const e of baseline.entries) budget.set(entryKey(e), (budget.get(entryKey(e)) ?? 0) + 1);
  const cases = casesByRoot(index);
  const base = normalizeUri(baselineUri);
  const kept: LintDiagnostic[] = [];
  let accepted = 0;
  for (const d of diagnostics) {
    const place = findingPlace(index, d, cases);
    const key = entryKey({ rule: d.code, file: relativePath(base, normalizeUri(d.uri)), case: place.case, path: place.path, messageHash: sha256(d.message).slice(0, 16) });
    const left = budget.get(key) ?? 0;
    if (left > 0) {
      budget.set(key, left - 1);
      accepted++;
    } else kept.push(d);
  }
  let unmatched = 0;
  for (const n of budget.values()) unmatched += n;
  return { kept, accepted, unmatched };
}
