import { applyChanges, type LintDiagnostic, type TextChange, type WorkspaceIndex } from '../core';
import { autoFixable } from './format/context';

export interface AppliedFix {
  uri: string;
  line: number;
  column: number;
  title: string;
  rule: string;
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

function editKey(rule: string, groups: LintDiagnostic['fixes'][number]['edits']): string {
  const parts = [rule];
  for (const g of groups) for (const e of g.edits) parts.push(`${g.uri}\u0000${e.offset}\u0000${e.length}\u0000${e.newText}`);
  return parts.join('\u0001');
}

/**
 * Picks the fixes `--fix` applies in one pass: the diagnostic's only fix, marked unambiguous, whose
 * edits target the text that was linted and do not overlap an edit already taken. Later passes
 * pick up what overlapping fixes left. `done` holds fixes applied in earlier passes, so a fix that
 * does not make its diagnostic go away is never applied twice.
 */
export function planFixes(
  index: WorkspaceIndex,
  diagnostics: readonly LintDiagnostic[],
  writable: (uri: string) => boolean,
  done: Set<string>,
): FixPlan {
  const changes = new Map<string, TextChange[]>();
  const applied: AppliedFix[] = [];
  const outside: AppliedFix[] = [];
  for (const d of diagnostics) {
    if (!autoFixable(d)) continue;
    const fix = d.fixes[0];
    // The edit itself is the fix's identity: six identical typos have six fixes (same code, file,
    // message and title), and a fix that left its diagnostic in place would make the same edit again.
    const key = editKey(d.code, fix.edits);
    if (done.has(key)) continue;
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
      const taken = changes.get(g.uri) ?? [];
      return g.edits.some((e) => taken.some((t) => overlaps(t, { offset: e.offset, length: e.length, content: e.newText })));
    });
    if (clash) continue;
    for (const g of groups) {
      const list = changes.get(g.uri) ?? [];
      for (const e of g.edits) list.push({ offset: e.offset, length: e.length, content: e.newText });
      changes.set(g.uri, list);
    }
    done.add(key);
    applied.push(entry);
  }
  const texts = new Map<string, string>();
  for (const [uri, list] of changes) texts.set(uri, applyChanges(index.docs.get(uri)!.text, list));
  return { texts, applied, outside };
}
