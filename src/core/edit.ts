import { modify, type FormattingOptions } from 'jsonc-parser';
import type { SuiteDocument } from './document';
import type { TextChange } from './rules/types';
import type { JsonPath } from './types';

/** Indentation and line ending as the file already has them, so an edit looks hand-written. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const m = /^([ \t]+)\S/m.exec(text);
  if (m && m[1].startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: m ? Math.min(m[1].length, 8) : 2, eol };
}

/**
 * jsonc-parser's `modify`, scoped to one root: the whole file for JSON, one line for JSONL (where
 * the edit must stay on that line, so it is not reformatted). Comments and layout elsewhere stay.
 */
function modifyRoot(doc: SuiteDocument, root: number, path: JsonPath, value: unknown, arrayInsert = false): TextChange[] {
  const r = doc.parsed.roots[root];
  if (!r?.node) return [];
  const jsonl = doc.kind === 'caseLines';
  const start = jsonl ? r.node.offset : 0;
  const text = jsonl ? doc.text.slice(start, r.node.offset + r.node.length) : doc.text;
  const edits = modify(text, path, value, {
    formattingOptions: jsonl ? undefined : detectFormatting(doc.text),
    isArrayInsertion: arrayInsert,
  });
  return edits.map((e) => ({ offset: e.offset + start, length: e.length, content: e.content }));
}

export function setValue(doc: SuiteDocument, root: number, path: JsonPath, value: unknown): TextChange[] {
  return modifyRoot(doc, root, path, value);
}

export function removeValue(doc: SuiteDocument, root: number, path: JsonPath): TextChange[] {
  return modifyRoot(doc, root, path, undefined);
}

/** Appends to the array at `path` (which must exist). */
export function appendToArray(doc: SuiteDocument, root: number, path: JsonPath, length: number, value: unknown): TextChange[] {
  return modifyRoot(doc, root, [...path, length], value, true);
}

/** Applies changes (offsets into the original text) from last to first. */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  const sorted = [...changes].sort((a, b) => b.offset - a.offset || b.length - a.length);
  let out = text;
  for (const c of sorted) out = out.slice(0, c.offset) + c.content + out.slice(c.offset + c.length);
  return out;
}
