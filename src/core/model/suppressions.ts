import { createScanner, SyntaxKind } from 'jsonc-parser';
import { removeValue } from '../text/edit';
import type { TextChange } from '../text/fix';
import { resolveLocation } from '../text/location';
import type { JsonPath } from '../text/types';
import { isJsonObject } from './canonical';
import type { SuiteDocument } from './document';

/**
 * Where an author accepted a finding in place (FORMAT §11): a comment
 * `// litmus-disable-next-line <rule>[, <rule>…] -- <reason>` on the line before it, a
 * `/* litmus-disable <rule> -- <reason> *\/` before the file's first value, or a case's
 * `"x-litmus-disable": {"<rule>": "<reason>"}` (JSONL, where there are no comments; accepted on a
 * case of any case file, covering that case).
 */
export interface Suppression {
  /** The rule id as written. */
  rule: string;
  reason: string;
  scope: SuppressionScope;
  /** The rule id where it is written: where "suppresses nothing" points. */
  offset: number;
  length: number;
  /** The whole directive: the comment, or the `x-litmus-disable` entry. */
  directive: DirectiveSpan;
  /** Why it cannot suppress anything, whatever the findings (no reason, misplaced). */
  problem?: string;
}

export type SuppressionScope =
  | { kind: 'file' }
  | { kind: 'next-line'; line: number }
  | { kind: 'case'; start: number; end: number };

export type DirectiveSpan =
  | { kind: 'comment'; offset: number; length: number; rules: readonly { offset: number; length: number }[] }
  /**
   * A case's `x-litmus-disable` property, one object shared by its entries (so "every id of the
   * directive" can be asked by identity, as for a comment): removing its last entry removes the
   * property. `entries` is 0 when the value is not an object.
   */
  | { kind: 'entry'; root: number; casePath: JsonPath; entries: number };

const DIRECTIVE = /^(litmus-disable-next-line|litmus-disable)(?![\w-])/;
const FIELD = 'x-litmus-disable';

const memo = new WeakMap<object, readonly Suppression[]>();
const NONE: readonly Suppression[] = [];

/** Every suppression a document carries, in text order; none unless its text names one. */
export function suppressionsOf(doc: SuiteDocument): readonly Suppression[] {
  let found = memo.get(doc.parsed);
  if (found) return found;
  // Most files carry none: a substring test (which `x-litmus-disable` passes too) keeps the scanner off them.
  if (!doc.text.includes('litmus-disable')) found = NONE;
  else {
    const out: Suppression[] = [];
    commentSuppressions(doc, out);
    if (doc.text.includes(FIELD)) fieldSuppressions(doc, out);
    found = out.sort((a, b) => a.offset - b.offset);
  }
  memo.set(doc.parsed, found);
  return found;
}

function commentSuppressions(doc: SuiteDocument, out: Suppression[]): void {
  const text = doc.text;
  const scanner = createScanner(text, false);
  let firstValue = -1;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) {
      const offset = scanner.getTokenOffset();
      const length = scanner.getTokenLength();
      const block = kind === SyntaxKind.BlockCommentTrivia;
      const bodyStart = offset + 2;
      const bodyEnd = block && text.endsWith('*/', offset + length) && length >= 4 ? offset + length - 2 : offset + length;
      directive(doc, offset, length, bodyStart, bodyEnd, firstValue >= 0, out);
    } else if (firstValue < 0 && kind !== SyntaxKind.Trivia && kind !== SyntaxKind.LineBreakTrivia) {
      firstValue = scanner.getTokenOffset();
    }
  }
}

function directive(doc: SuiteDocument, offset: number, length: number, bodyStart: number, bodyEnd: number, afterValue: boolean, out: Suppression[]): void {
  const text = doc.text;
  let i = bodyStart;
  while (i < bodyEnd && /\s/.test(text[i])) i++;
  const m = DIRECTIVE.exec(text.slice(i, Math.min(bodyEnd, i + 40)));
  if (!m) return;
  const nextLine = m[1] === 'litmus-disable-next-line';
  const body = text.slice(i + m[1].length, bodyEnd);
  const dash = body.indexOf('--');
  const rulesText = dash >= 0 ? body.slice(0, dash) : body;
  const reason = dash >= 0 ? body.slice(dash + 2).trim() : '';
  const rulesBase = i + m[1].length;
  const rules: { name: string; offset: number; length: number }[] = [];
  for (const t of rulesText.matchAll(/[^\s,]+/g)) rules.push({ name: t[0], offset: rulesBase + t.index!, length: t[0].length });
  const scope: SuppressionScope = nextLine ? { kind: 'next-line', line: doc.lines.positionAt(offset + length).line + 1 } : { kind: 'file' };
  const span: DirectiveSpan = { kind: 'comment', offset, length, rules: rules.map((r) => ({ offset: r.offset, length: r.length })) };
  let problem: string | undefined;
  if (!reason) problem = `needs a reason after \`--\`: \`${m[1]} ${rules[0]?.name ?? '<rule>'} -- <why this finding is accepted>\``;
  else if (!nextLine && afterValue) problem = "stands after the file's first value: `litmus-disable` covers a whole file only from before it; use `litmus-disable-next-line` here";
  if (rules.length === 0) {
    // Nothing to point at but the directive itself.
    out.push({ rule: '', reason, scope, offset, length, directive: span, problem: `names no rule: \`${m[1]} <rule> -- <reason>\`` });
    return;
  }
  for (const r of rules) out.push({ rule: r.name, reason, scope, offset: r.offset, length: r.length, directive: span, problem });
}

function fieldSuppressions(doc: SuiteDocument, out: Suppression[]): void {
  doc.parsed.roots.forEach((root, r) => {
    if (root.broken || !isJsonObject(root.value)) return;
    const value = root.value;
    if (doc.kind === 'caseLines' || !Array.isArray(value.cases)) caseField(doc, r, [], value, out);
    else value.cases.forEach((c, i) => isJsonObject(c) && caseField(doc, r, ['cases', i], c, out));
  });
}

function caseField(doc: SuiteDocument, root: number, casePath: JsonPath, value: Record<string, unknown>, out: Suppression[]): void {
  if (!(FIELD in value)) return;
  const field = value[FIELD];
  const whole = resolveLocation(doc, { uri: doc.uri, root, path: casePath });
  const scope: SuppressionScope = { kind: 'case', start: whole.offset, end: whole.offset + whole.length };
  if (!isJsonObject(field)) {
    // A string, list or number here is a suppression the author meant that can never apply: say so.
    const at = resolveLocation(doc, { uri: doc.uri, root, path: [...casePath, FIELD] });
    out.push({
      rule: '',
      reason: '',
      scope,
      offset: at.offset,
      length: at.length,
      directive: { kind: 'entry', root, casePath, entries: 0 },
      problem: `is not an object of rule → reason: write \`"${FIELD}": {"<rule>": "<why this finding is accepted>"}\``,
    });
    return;
  }
  const names = Object.keys(field);
  const directive: DirectiveSpan = { kind: 'entry', root, casePath, entries: names.length };
  for (const rule of names) {
    const at = resolveLocation(doc, { uri: doc.uri, root, path: [...casePath, FIELD, rule], part: 'key' });
    const reasonValue = field[rule];
    const reason = typeof reasonValue === 'string' ? reasonValue.trim() : '';
    out.push({
      rule,
      reason,
      scope,
      offset: at.offset,
      length: at.length,
      directive,
      problem: reason
        ? undefined
        : `needs a reason${typeof reasonValue === 'string' ? '' : ' (a string)'}: \`"${FIELD}": {"${rule}": "<why this finding is accepted>"}\``,
    });
  }
}

/**
 * The edit that takes a suppression out: its rule id (with one separator) when other ids of the
 * directive stay, else the whole directive — a comment alone on its lines takes those lines with
 * it, so no blank line is left behind; code after it on its line keeps its column (FORMAT §10).
 */
export function suppressionRemoval(doc: SuiteDocument, s: Suppression, whole: boolean): TextChange[] {
  const d = s.directive;
  if (d.kind === 'entry') {
    const path = whole || d.entries <= 1 ? [...d.casePath, FIELD] : [...d.casePath, FIELD, s.rule];
    return removeValue(doc, d.root, path);
  }
  const text = doc.text;
  if (!whole && d.rules.length > 1) {
    const i = d.rules.findIndex((r) => r.offset === s.offset);
    // Take the separator after the id, or before it for the last one.
    const start = i < d.rules.length - 1 ? s.offset : d.rules[i - 1].offset + d.rules[i - 1].length;
    const end = i < d.rules.length - 1 ? d.rules[i + 1].offset : s.offset + s.length;
    return [{ offset: start, length: end - start, content: '' }];
  }
  let start = d.offset;
  while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
  let end = d.offset + d.length;
  while (end < text.length && (text[end] === ' ' || text[end] === '\t')) end++;
  // A BOM an editor kept in the text is not on the line.
  const aloneBefore = start === 0 || (start === 1 && text[0] === '\ufeff') || text[start - 1] === '\n' || text[start - 1] === '\r';
  const aloneAfter = end === text.length || text[end] === '\n' || text[end] === '\r';
  if (aloneBefore && aloneAfter) {
    if (text[end] === '\r') end++;
    if (text[end] === '\n') end++;
    return [{ offset: start, length: end - start, content: '' }];
  }
  // Code follows on the line: it keeps the comment's column, so the indentation stays and the
  // blanks after the comment go with it.
  if (aloneBefore) return [{ offset: d.offset, length: end - d.offset, content: '' }];
  // Code before it: keep the line and its break, drop the comment and the blanks before it.
  return [{ offset: start, length: d.offset + d.length - start, content: '' }];
}
