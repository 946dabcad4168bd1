import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import type { Range, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** What a suppression's author replaces: selected after the edit, so typing overwrites it. */
export const REASON_PLACEHOLDER = 'reason';

/** The §11 field a JSONL case line carries its suppressions in. */
export const JSONL_FIELD = 'x-litmus-disable';

/**
 * Rules no suppression should be offered for: a file that does not parse cannot be trusted to
 * say what it suppresses, and a suppression of `unused-suppression` would hide its own mistake.
 */
// `plugins`: a note on a config's plugins entry (a plugin not loaded or not run), not a rule.
export const UNSUPPRESSIBLE = new Set(['parse-error', 'unused-suppression', 'plugins']);

/** An edit that writes a suppression, and the range of its reason once the edit is applied. */
export interface SuppressionEdit {
  edit: TextEdit;
  /** The reason to select afterwards, in the text after the edit. */
  reason: Range;
}

const COMMENT = /^([ \t]*)\/\/[ \t]*litmus-disable-next-line[ \t]+([^\r\n]*?)(?:[ \t]+--[ \t]*([^\r\n]*))?[ \t]*$/;

function lineText(doc: TextDocument, line: number): string {
  return doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
}

function eolOf(doc: TextDocument): string {
  return doc.getText().includes('\r\n') ? '\r\n' : '\n';
}

/**
 * The JSONC suppression of `rule` for the finding on `line`: a `// litmus-disable-next-line` comment
 * of its own above that line, with that line's indentation (FORMAT.md §11). When the line above
 * already is one, the rule joins its list instead and its reason is selected for review.
 */
export function disableNextLine(doc: TextDocument, line: number, rule: string): SuppressionEdit | undefined {
  if (line < 0 || line >= doc.lineCount) return undefined;
  if (line > 0) {
    const above = lineText(doc, line - 1);
    const m = COMMENT.exec(above);
    if (m) {
      const rules = m[2].split(',').map((r) => r.trim());
      if (rules.includes(rule)) return undefined;
      const directive = above.indexOf('litmus-disable-next-line') + 'litmus-disable-next-line'.length;
      const listEnd = above.indexOf(m[2], directive) + m[2].length;
      const insert = `, ${rule}`;
      const edit: TextEdit = { range: { start: { line: line - 1, character: listEnd }, end: { line: line - 1, character: listEnd } }, newText: insert };
      let reason: Range;
      if (m[3] !== undefined && m[3].length > 0) {
        const start = above.lastIndexOf(m[3]) + insert.length;
        reason = { start: { line: line - 1, character: start }, end: { line: line - 1, character: start + m[3].length } };
      } else {
        // No reason yet (which suppresses nothing): add the placeholder too.
        edit.newText = `${insert} -- ${REASON_PLACEHOLDER}`;
        const start = listEnd + insert.length + 4;
        edit.range.end = { line: line - 1, character: above.length };
        reason = { start: { line: line - 1, character: start }, end: { line: line - 1, character: start + REASON_PLACEHOLDER.length } };
      }
      return { edit, reason };
    }
  }
  const indent = /^[ \t]*/.exec(lineText(doc, line))![0];
  const prefix = `${indent}// litmus-disable-next-line ${rule} -- `;
  return {
    edit: { range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText: `${prefix}${REASON_PLACEHOLDER}${eolOf(doc)}` },
    reason: { start: { line, character: prefix.length }, end: { line, character: prefix.length + REASON_PLACEHOLDER.length } },
  };
}

function property(obj: Node, key: string): Node | undefined {
  return obj.children?.find((p) => p.children?.[0]?.value === key);
}

/**
 * The JSONL suppression (no comments there): `"x-litmus-disable": {"<rule>": "reason"}` added to the
 * case object on `line`, or the rule added to the object it already has. Undefined when the line
 * is not one well-formed object, or the rule is already listed.
 */
export function disableOnCaseLine(doc: TextDocument, line: number, rule: string): SuppressionEdit | undefined {
  if (line < 0 || line >= doc.lineCount) return undefined;
  const text = lineText(doc, line);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (!root || errors.length || root.type !== 'object') return undefined;
  const entry = `${JSON.stringify(rule)}: "${REASON_PLACEHOLDER}"`;
  const existing = property(root, JSONL_FIELD);
  let at: number;
  let newText: string;
  let reasonAt: number;
  if (existing) {
    const value = existing.children?.[1];
    if (!value || value.type !== 'object' || property(value, rule)) return undefined;
    at = value.offset + 1;
    newText = value.children?.length ? `${entry}, ` : entry;
    reasonAt = at + entry.length - REASON_PLACEHOLDER.length - 1;
  } else {
    at = root.offset + 1;
    const field = `${JSON.stringify(JSONL_FIELD)}: {${entry}}`;
    newText = root.children?.length ? `${field}, ` : field;
    reasonAt = at + field.length - REASON_PLACEHOLDER.length - 2;
  }
  return {
    edit: { range: { start: { line, character: at }, end: { line, character: at } }, newText },
    reason: { start: { line, character: reasonAt }, end: { line, character: reasonAt + REASON_PLACEHOLDER.length } },
  };
}

/** The suppression edit that fits the file: a JSONL field, or a JSONC comment. */
export function suppressionEdit(doc: TextDocument, line: number, rule: string): SuppressionEdit | undefined {
  return /\.jsonl$/i.test(doc.uri) ? disableOnCaseLine(doc, line, rule) : disableNextLine(doc, line, rule);
}
