import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextDocumentEdit, type TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { type Fix, type LintDiagnostic, normalizeUri } from '../core';
import { diagnosticKey, keyOf, toLspDiagnostic } from './diagnostics';
import { SELECT_RANGE_COMMAND, SHOW_RULE_DOCS_COMMAND } from './protocol';
import { suppressionEdit, UNSUPPRESSIBLE } from './suppress';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.litmus`;

/** The editor's current version of a file: a number when open, undefined when only on disk. */
export type VersionOf = (uri: string) => number | undefined;

/**
 * A fix as a versioned workspace edit, or undefined when a file it edits has changed since the fix
 * was computed (the edit's offsets would land in the wrong text).
 */
export function fixToEdit(fix: Fix, versionOf: VersionOf): TextDocumentEdit[] | undefined {
  const out: TextDocumentEdit[] = [];
  for (const target of fix.edits) {
    const current = versionOf(target.uri);
    if (current !== target.version) return undefined;
    out.push({
      textDocument: { uri: target.uri, version: target.version ?? null },
      edits: target.edits.map((e): TextEdit => ({ range: e.range, newText: e.newText })),
    });
  }
  return out;
}

const before = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character < b.character);
/** Whether two ranges share a position (touching counts: a cursor at a squiggle's end is on it). */
function touches(a: Range, b: Range): boolean {
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** A client's diagnostic as far as we read it: anything else in the list (null, a number) is skipped. */
function isDiagnostic(d: unknown): d is Diagnostic {
  return typeof d === 'object' && d !== null && !Array.isArray(d);
}

/**
 * One quick fix per core fix of each of our diagnostics the client sent, or of ours at the range
 * when it sent none of ours yet (see `matching`): fixes are never held back for want of the
 * client's copy.
 */
export function quickFixes(current: readonly LintDiagnostic[], sent: readonly unknown[], versionOf: VersionOf, range?: Range): CodeAction[] {
  const actions: CodeAction[] = [];
  const targets = matching(current, sent, range);
  for (const d of targets) {
    d.fixes.forEach((fix) => {
      const edits = fixToEdit(fix, versionOf);
      if (!edits) return;
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [toLspDiagnostic(d)],
        isPreferred: fix.unambiguous && !fix.changesClaim && d.fixes.length === 1,
        edit: { documentChanges: edits },
      });
    });
  }
  return actions;
}

/**
 * Every unambiguous fix whose edits stay in this file, skipping any that would overlap an edit
 * already taken: what `editor.codeActionsOnSave` applies without asking.
 */
export function fixAllAction(uri: string, current: readonly LintDiagnostic[], versionOf: VersionOf): CodeAction | undefined {
  const target = normalizeUri(uri);
  const taken: { start: number; end: number }[] = [];
  const edits: TextEdit[] = [];
  const fixed: LintDiagnostic[] = [];
  let version: number | undefined;
  for (const d of current) {
    // A fix that changes what the suite claims is never applied without asking (FORMAT §10).
    const fix = d.fixes.find((f) => f.unambiguous && !f.changesClaim);
    if (!fix || !fix.edits.every((e) => normalizeUri(e.uri) === target)) continue;
    if (!fixToEdit(fix, versionOf)) continue;
    const spans = fix.edits.flatMap((e) => e.edits.map((x) => ({ start: x.offset, end: x.offset + x.length })));
    const clash = spans.some((s) => taken.some((t) => (s.start < t.end && t.start < s.end) || s.start === t.start));
    if (clash) continue;
    for (const span of spans) taken.push(span);
    for (const e of fix.edits) {
      version = e.version;
      for (const x of e.edits) edits.push({ range: x.range, newText: x.newText });
    }
    fixed.push(d);
  }
  if (!edits.length) return undefined;
  return {
    title: `Fix all auto-fixable LITMUS problems (${fixed.length})`,
    kind: FIX_ALL_KIND,
    diagnostics: fixed.map(toLspDiagnostic),
    edit: { documentChanges: [{ textDocument: { uri, version: version ?? null }, edits }] },
  };
}

/** True when the client asked for kinds that include ours (`source.fixAll` covers `source.fixAll.litmus`). */
export function wants(only: string[] | undefined, kind: string): boolean {
  if (!only) return kind === CodeActionKind.QuickFix;
  return only.some((k) => kind === k || kind.startsWith(`${k}.`));
}

/** Our current diagnostics that the client's copies (from a code-action request) stand for. */
/**
 * Our current diagnostics among those the client sent (matched by key; null or junk entries are
 * skipped). A client that sent none of ours may not have them yet (a file just opened: the request
 * races the first publish), so then ours at the requested range answer instead.
 */
function matching(current: readonly LintDiagnostic[], sent: readonly unknown[], range?: Range): LintDiagnostic[] {
  const byKey = new Map(current.map((d) => [diagnosticKey(d), d]));
  const out: LintDiagnostic[] = [];
  const clientDiags = sent.filter(isDiagnostic);
  for (const clientDiag of clientDiags) {
    const key = keyOf(clientDiag);
    const d = key ? byKey.get(key) : undefined;
    if (d && !out.includes(d)) out.push(d);
  }
  if (range && !clientDiags.some((d) => keyOf(d) !== undefined)) {
    for (const d of current) if (touches(d.range, range) && !out.includes(d)) out.push(d);
  }
  return out;
}

/**
 * Per rule among the diagnostics asked about: "Disable <rule> for this line" (a §11 suppression on
 * the open document's version, its reason selected afterwards when the client can be asked to)
 * and "Show documentation for <rule>". One of each per rule and line, as vscode-eslint offers them.
 * Only for a document whose text the last lint saw: the diagnostics describe that text.
 */
export function ruleActions(current: readonly LintDiagnostic[], sent: readonly unknown[], doc: TextDocument, canSelect: boolean, range?: Range): CodeAction[] {
  const disable: CodeAction[] = [];
  const docs: CodeAction[] = [];
  const seenLine = new Set<string>();
  const seenRule = new Set<string>();
  for (const d of matching(current, sent, range)) {
    const line = d.range.start.line;
    if (normalizeUri(doc.uri) === normalizeUri(d.uri) && !UNSUPPRESSIBLE.has(d.code) && !seenLine.has(`${d.code}@${line}`)) {
      seenLine.add(`${d.code}@${line}`);
      const s = suppressionEdit(doc, line, d.code);
      if (s) {
        const title = `Disable ${d.code} for this line`;
        disable.push({
          title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [toLspDiagnostic(d)],
          edit: { documentChanges: [{ textDocument: { uri: doc.uri, version: doc.version }, edits: [s.edit] }] },
          command: canSelect ? { title, command: SELECT_RANGE_COMMAND, arguments: [doc.uri, s.reason] } : undefined,
        });
      }
    }
    if (!seenRule.has(d.code) && d.docsUrl) {
      seenRule.add(d.code);
      const title = `Show documentation for ${d.code}`;
      docs.push({ title, kind: CodeActionKind.QuickFix, diagnostics: [toLspDiagnostic(d)], command: { title, command: SHOW_RULE_DOCS_COMMAND, arguments: [d.docsUrl] } });
    }
  }
  return [...disable, ...docs];
}
