import { formatPointer, normalizeUri, relativePath, resolveRelative, type LintDiagnostic, type WorkspaceIndex } from '../core';
import { findingAnchor } from './anchor';
import { sha256 } from './hash';

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

/** Where a finding sits, as the baseline records it: its case's id and a pointer into the case. */
export function findingPlace(index: WorkspaceIndex, d: LintDiagnostic): { case?: string; path: string } {
  const anchor = findingAnchor(index.docs.get(d.uri), d);
  // A value that does not parse has no path; its line would not survive an edit above it.
  if (anchor.line !== undefined) return { path: '' };
  return { ...(anchor.caseId !== undefined ? { case: anchor.caseId } : {}), path: formatPointer(anchor.path) };
}

function entryKey(e: BaselineEntry): string {
  return JSON.stringify([e.rule, e.file, e.case ?? null, e.path, e.messageHash]);
}

/** One entry per finding, in a stable order; `baselineUri` is the baseline file's URI. */
export function baselineEntries(index: WorkspaceIndex, diagnostics: readonly LintDiagnostic[], baselineUri: string): BaselineEntry[] {
  const base = normalizeUri(baselineUri);
  const entries = diagnostics.map((d): BaselineEntry => {
    const place = findingPlace(index, d);
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

/** The file an entry names, as a URI: its `file` is relative to the baseline's folder. */
export function entryUri(e: BaselineEntry, baselineUri: string): string {
  return normalizeUri(resolveRelative(normalizeUri(baselineUri), e.file));
}

/**
 * The baseline `--write-baseline` writes: this run's findings, and the entries of an earlier
 * baseline for files the run did not lint (`linted` says which files it did). A run of a few files
 * then rewrites their entries and keeps every other file's, where writing only what it found would
 * drop accepted findings it never looked at.
 */
export function mergeEntries(fresh: BaselineEntry[], earlier: Baseline | undefined, baselineUri: string, linted: (uri: string) => boolean): { entries: BaselineEntry[]; kept: number } {
  const kept = earlier ? earlier.entries.filter((e) => !linted(entryUri(e, baselineUri))) : [];
  const entries = [...fresh, ...kept];
  return { entries: entries.sort((a, b) => (entryKey(a) < entryKey(b) ? -1 : entryKey(a) > entryKey(b) ? 1 : 0)), kept: kept.length };
}

export interface BaselineResult {
  /** Findings the baseline does not list: what the run reports. */
  kept: LintDiagnostic[];
  accepted: number;
  /** Entries of files the run linted that matched no finding: fixed since, or moved out of their case. */
  unmatched: number;
  /** Entries of files the run did not lint: neither matched nor stale, only not looked at. */
  unchecked: number;
}

/**
 * Matches findings to entries one for one: two identical findings need two entries. `linted` says
 * which files the run linted (by URI): only their entries can be found to no longer match.
 */
export function applyBaseline(
  index: WorkspaceIndex,
  diagnostics: readonly LintDiagnostic[],
  baseline: Baseline,
  baselineUri: string,
  linted: (uri: string) => boolean = () => true,
): BaselineResult {
  const budget = new Map<string, { left: number; entry: BaselineEntry }>();
  for (const e of baseline.entries) {
    const key = entryKey(e);
    const held = budget.get(key);
    if (held) held.left++;
    else budget.set(key, { left: 1, entry: e });
  }
  const base = normalizeUri(baselineUri);
  const kept: LintDiagnostic[] = [];
  let accepted = 0;
  for (const d of diagnostics) {
    const place = findingPlace(index, d);
    const key = entryKey({ rule: d.code, file: relativePath(base, normalizeUri(d.uri)), case: place.case, path: place.path, messageHash: sha256(d.message).slice(0, 16) });
    const held = budget.get(key);
    if (held && held.left > 0) {
      held.left--;
      accepted++;
    } else kept.push(d);
  }
  let unmatched = 0;
  let unchecked = 0;
  for (const { left, entry } of budget.values()) {
    if (left === 0) continue;
    if (linted(entryUri(entry, base))) unmatched += left;
    else unchecked += left;
  }
  return { kept, accepted, unmatched, unchecked };
}
