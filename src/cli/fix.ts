import { applyChanges, type LintDiagnostic, type TextChange, type WorkspaceIndex } from '../core';
import { autoFixable } from './format/context';

export interface AppliedFix {
  uri: string;
  line: number;
  column: number;
  title: string;
  rule: string;
}

/** What earlier passes fixed, by what the fix says (rule, file, message, title). */
export interface FixHistory {
  applied: Map<string, number>;
  /** The most problems with each such key that one pass saw. */
  most: Map<string, number>;
}

export function newFixHistory(): FixHistory {
  return { applied: new Map(), most: new Map() };
}

export interface FixPlan {
  /** New text per document URI. */
  texts: Map<string, string>;
  applied: AppliedFix[];
  /** Fixes left out because they would edit a file outside the given paths. */
  outside: AppliedFix[];
}

function overlaps(a: TextChange, b: TextChange): boolean {
  // Two insertions at one offset would land in an order nobody chose: treat touching as overlapping.
  return a.offset <= b.offset + b.length && b.offset <= a.offset + a.length;
}

/**
 * Picks the fixes `--fix` applies in one pass: the diagnostic's only fix, marked unambiguous, whose
 * edits target the text that was linted and do not overlap an edit already taken. Later passes
 * pick up what overlapping fixes left. `done` counts the fixes applied in earlier passes by what
 * they say (rule, file, message, title), so a fix that does not make its diagnostic go away is never
 * applied twice, while two identical problems at two places (the same typo twice) are both fixed.
 */
export function planFixes(
  index: WorkspaceIndex,
  diagnostics: readonly LintDiagnostic[],
  writable: (uri: string) => boolean,
  done: FixHistory,
): FixPlan {
  const keyOf = (d: LintDiagnostic) => `${d.code}\u0000${d.uri}\u0000${d.message}\u0000${d.fixes[0].title}`;
  const count = new Map<string, number>();
  for (const d of diagnostics) if (autoFixable(d)) count.set(keyOf(d), (count.get(keyOf(d)) ?? 0) + 1);
  for (const [key, n] of count) done.most.set(key, Math.max(n, done.most.get(key) ?? 0));
  const taken = new Map<string, number>();
  const changes = new Map<string, TextChange[]>();
  const applied: AppliedFix[] = [];
  const outside: AppliedFix[] = [];
  for (const d of diagnostics) {
    if (!autoFixable(d)) continue;
    const fix = d.fixes[0];
    const key = keyOf(d);
    // Never more fixes of one kind than problems of that kind were ever seen at once.
    if ((done.applied.get(key) ?? 0) + (taken.get(key) ?? 0) >= (done.most.get(key) ?? 0)) continue;
    const groups = fix.edits.map((g) => ({ uri: g.uri, doc: index.docs.get(g.uri), version: g.version, edits: g.edits }));
    // The log names the file the fix changes: a label fix for a payload in a tool or environment
    // file edits the case that labels it, not the file the diagnostic is in.
    const own = groups.find((g) => g.uri === d.uri && g.edits.length);
    const first = own ? undefined : groups.find((g) => g.edits.length);
    const at = first ? first.edits[0].range.start : d.range.start;
    const entry: AppliedFix = { uri: first ? first.uri : d.uri, line: at.line + 1, column: at.character + 1, title: fix.title, rule: d.code };
    if (groups.some((g) => !g.doc || (g.version !== undefined && g.version !== g.doc.version))) continue;
    if (groups.some((g) => !writable(g.uri))) {
      outside.push(entry);
      continue;
    }
    const clash = groups.some((g) => {
      const existing = changes.get(g.uri) ?? [];
      return g.edits.some((e) => existing.some((t) => overlaps(t, { offset: e.offset, length: e.length, content: e.newText })));
    });
    if (clash) continue;
    for (const g of groups) {
      const list = changes.get(g.uri) ?? [];
      list.push(...g.edits.map((e) => ({ offset: e.offset, length: e.length, content: e.newText })));
      changes.set(g.uri, list);
    }
    taken.set(key, (taken.get(key) ?? 0) + 1);
    applied.push(entry);
  }
  for (const [key, n] of taken) done.applied.set(key, (done.applied.get(key) ?? 0) + n);
  const texts = new Map<string, string>();
  for (const [uri, list] of changes) texts.set(uri, applyChanges(index.docs.get(uri)!.text, list));
  return { texts, applied, outside };
}
