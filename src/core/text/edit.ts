import { createScanner, findNodeAtLocation, modify, SyntaxKind, type FormattingOptions, type Node } from 'jsonc-parser';
import type { ParsedSource } from './source';
import type { TextChange } from './fix';
import type { JsonPath } from './types';

/** Indentation and line ending as the file already has them, so an edit looks hand-written. */
export function detectFormatting(text: string): FormattingOptions {
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const m = /^([ \t]+)\S/m.exec(text);
  if (m && m[1].startsWith('\t')) return { insertSpaces: false, tabSize: 4, eol };
  return { insertSpaces: true, tabSize: m ? Math.min(m[1].length, 8) : 2, eol };
}

/** Whether only blanks sit between the previous line break and `offset`. */
function startsLine(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  return i === 0 || text[i - 1] === '\n' || text[i - 1] === '\r' ? i : -1;
}

/** End of the line `offset` is on when only blanks and at most one comma follow it there; -1 otherwise. */
function endsLine(text: string, offset: number): number {
  let i = offset;
  let comma = false;
  for (; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n' || ch === '\r') break;
    if (ch === ',' && !comma) comma = true;
    else if (ch !== ' ' && ch !== '\t') return -1;
  }
  return i;
}

/**
 * The smallest object or array on the path that has whole lines to itself: `modify` re-parses the
 * text it is given, and formats only the lines of its edit, so running it on those lines gives the
 * edit it would make on the whole file without parsing a 100 KB suite for one fix.
 */
function enclosingLines(text: string, root: Node, path: JsonPath): { start: number; end: number; path: JsonPath } | undefined {
  const chain: { node: Node; depth: number }[] = [];
  let node: Node | undefined = root;
  for (let depth = 0; node && depth < path.length; depth++) {
    if (depth > 0) chain.push({ node, depth });
    const seg = path[depth];
    if (node.type === 'object' && typeof seg === 'string') {
      node = node.children?.find((p) => p.children?.[0]?.value === seg)?.children?.[1];
    } else if (node.type === 'array' && typeof seg === 'number') {
      node = node.children?.[seg];
    } else {
      node = undefined;
    }
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const { node: n, depth } = chain[i];
    if (n.type !== 'object' && n.type !== 'array') continue;
    const start = startsLine(text, n.offset);
    const end = endsLine(text, n.offset + n.length);
    if (start >= 0 && end >= 0) return { start, end, path: path.slice(depth) };
  }
  return undefined;
}

/**
 * Edits already computed per parse result: an edit depends only on the text, the path and the
 * value, and the server builds the same label fixes again on every lint while the file is unchanged.
 */
const computed = new WeakMap<object, Map<string, TextChange[]>>();

function modifyRoot(doc: ParsedSource, root: number, path: JsonPath, value: unknown, arrayInsert = false): TextChange[] {
  let memo = computed.get(doc.parsed);
  if (!memo) computed.set(doc.parsed, (memo = new Map()));
  const key = JSON.stringify([root, path, arrayInsert, value === undefined, value ?? null]);
  let changes = memo.get(key);
  if (!changes) memo.set(key, (changes = modifyUncached(doc, root, path, value, arrayInsert)));
  return changes.map((c) => ({ ...c }));
}

/**
 * jsonc-parser's `modify`, scoped to one root: the whole file for JSON, one line for JSONL (where
 * the edit must stay on that line, so it is not reformatted). Comments and layout elsewhere stay.
 */
function modifyUncached(doc: ParsedSource, root: number, path: JsonPath, value: unknown, arrayInsert: boolean): TextChange[] {
  const r = doc.parsed.roots[root];
  if (!r?.node) return [];
  const jsonl = doc.parsed.jsonLines === true;
  const scope = jsonl ? undefined : r.broken ? undefined : enclosingLines(doc.text, r.node, path);
  const start = jsonl ? r.node.offset : scope ? scope.start : 0;
  const text = jsonl ? doc.text.slice(start, r.node.offset + r.node.length) : scope ? doc.text.slice(scope.start, scope.end) : doc.text;
  const at = scope ? scope.path : path;
  let edits;
  try {
    edits = modify(text, at, value, {
      formattingOptions: jsonl ? undefined : detectFormatting(doc.text),
      isArrayInsertion: arrayInsert,
    });
  } catch {
    // jsonc-parser's formatter fails at some indentation depths (exactly 200 columns); an
    // unformatted edit is still correct JSON, so a fix is never lost to layout.
    edits = modify(text, at, value, { isArrayInsertion: arrayInsert });
  }
  return edits.map((e) => ({ offset: e.offset + start, length: e.length, content: e.content }));
}

export function setValue(doc: ParsedSource, root: number, path: JsonPath, value: unknown): TextChange[] {
  return modifyRoot(doc, root, path, value);
}

/** Offset of the first comma token in [from, to), skipping comments; -1 when there is none. */
function commaBetween(text: string, from: number, to: number): number {
  const scanner = createScanner(text.slice(from, to), false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.CommaToken) return from + scanner.getTokenOffset();
  }
  return -1;
}

/**
 * Removes a property or array element and one neighbouring comma, and nothing else: unlike
 * `modify`, it never swallows a comment next to the value or reformats its neighbours.
 */
export function removeValue(doc: ParsedSource, root: number, path: JsonPath): TextChange[] {
  const r = doc.parsed.roots[root];
  const target = r?.node && !r.broken ? findNodeAtLocation(r.node, path) : undefined;
  if (!target?.parent) return [];
  const item = target.parent.type === 'property' ? target.parent : target;
  const container = item.parent;
  if (!container?.children) return [];
  const siblings = container.children;
  const i = siblings.indexOf(item);
  const text = doc.text;
  const end = item.offset + item.length;
  if (i + 1 < siblings.length) {
    const comma = commaBetween(text, end, siblings[i + 1].offset);
    let stop = comma < 0 ? end : comma + 1;
    // Take the blanks after the comma too, up to a comment or the next value, so no gap is left.
    while (stop < siblings[i + 1].offset && (text[stop] === ' ' || text[stop] === '\t')) stop++;
    if (text[stop] === '\r' && text[stop + 1] === '\n') stop += 2;
    else if (text[stop] === '\n' || text[stop] === '\r') stop += 1;
    let start = item.offset;
    // Remove the now-empty line's indentation as well.
    while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
    if (start > 0 && text[start - 1] !== '\n' && text[start - 1] !== '\r') start = item.offset;
    if (stop > siblings[i + 1].offset) stop = siblings[i + 1].offset;
    return [{ offset: start, length: stop - start, content: '' }];
  }
  if (i > 0) {
    const prevEnd = siblings[i - 1].offset + siblings[i - 1].length;
    const comma = commaBetween(text, prevEnd, item.offset);
    const start = comma < 0 ? item.offset : comma;
    // Keep comments that sit between the comma and the value: delete the comma, then the value.
    if (comma >= 0 && text.slice(comma + 1, item.offset).trim() !== '') {
      return [
        { offset: comma, length: 1, content: '' },
        { offset: item.offset, length: end - item.offset, content: '' },
      ];
    }
    return [{ offset: start, length: end - start, content: '' }];
  }
  return [{ offset: item.offset, length: end - item.offset, content: '' }];
}

/** Appends to the array at `path` (which must exist). */
export function appendToArray(doc: ParsedSource, root: number, path: JsonPath, length: number, value: unknown): TextChange[] {
  return modifyRoot(doc, root, [...path, length], value, true);
}

/** Applies changes (offsets into the original text) from last to first. */
export function applyChanges(text: string, changes: readonly TextChange[]): string {
  const sorted = [...changes].sort((a, b) => b.offset - a.offset || b.length - a.length);
  let out = text;
  for (const c of sorted) out = out.slice(0, c.offset) + c.content + out.slice(c.offset + c.length);
  return out;
}
