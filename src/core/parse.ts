import { createScanner, parseTree, printParseErrorCode, ParseErrorCode, SyntaxKind, type Node, type ParseError } from 'jsonc-parser';
import { quote } from './escape';

/**
 * Deeper nesting than this is refused before jsonc-parser sees the text: its parser recurses once
 * per level, and so do the rules that walk values. No suite, tool or schema file needs more.
 */
export const MAX_NESTING = 256;

/**
 * Syntax errors reported per document. Garbage text (a binary file, a minified file cut in half)
 * yields one error per token; past this many the rest are summed up in one notice, so the editor
 * and the terminal are not flooded and no one reads a million squiggles.
 */
export const MAX_PARSE_ISSUES = 100;

export interface ParseIssue {
  offset: number;
  length: number;
  message: string;
}

export interface ParsedRoot {
  /** The value's tree, with offsets into the whole document. Undefined when the text is unusable. */
  node: Node | undefined;
  /** Zero-based line the value starts on (JSONL: its line; JSON: 0). */
  line: number;
  /** True when a syntax error makes the tree unreliable: rules do not read it. */
  broken: boolean;
}

export interface ParsedText {
  roots: ParsedRoot[];
  issues: ParseIssue[];
}

const MESSAGES: Partial<Record<ParseErrorCode, string>> = {
  [ParseErrorCode.InvalidSymbol]: 'unexpected character',
  [ParseErrorCode.InvalidNumberFormat]: 'invalid number',
  [ParseErrorCode.PropertyNameExpected]: 'expected a property name in double quotes',
  [ParseErrorCode.ValueExpected]: 'expected a value',
  [ParseErrorCode.ColonExpected]: "expected ':' after the property name",
  [ParseErrorCode.CommaExpected]: "expected ',' between values",
  [ParseErrorCode.CloseBraceExpected]: "expected '}' to close the object",
  [ParseErrorCode.CloseBracketExpected]: "expected ']' to close the array",
  [ParseErrorCode.EndOfFileExpected]: 'unexpected content after the value',
  [ParseErrorCode.InvalidCommentToken]: 'invalid comment',
  [ParseErrorCode.UnexpectedEndOfComment]: 'unterminated comment',
  [ParseErrorCode.UnexpectedEndOfString]: 'unterminated string',
  [ParseErrorCode.UnexpectedEndOfNumber]: 'unterminated number',
  [ParseErrorCode.InvalidUnicode]: 'invalid \\u escape',
  [ParseErrorCode.InvalidEscapeCharacter]: 'invalid escape sequence',
  [ParseErrorCode.InvalidCharacter]: 'control character in a string (escape it)',
};

function describe(error: ParseError): string {
  return MESSAGES[error.error] ?? printParseErrorCode(error.error);
}

/** A BOM is not JSON; blanking it keeps every offset where the editor has it. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
}

/** Only comments and whitespace: a JSONL line that holds no value. */
function isTrivia(text: string): boolean {
  const scanner = createScanner(text, false);
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (
      kind !== SyntaxKind.Trivia &&
      kind !== SyntaxKind.LineBreakTrivia &&
      kind !== SyntaxKind.LineCommentTrivia &&
      kind !== SyntaxKind.BlockCommentTrivia
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Whether the text certainly nests no deeper than MAX_NESTING and has no trailing comma: one pass
 * over char codes that understands strings. It gives up (false) on anything it would have to
 * tokenise like jsonc-parser to be sure of — a comment, a line break inside a string — and on any
 * finding, leaving those texts to the exact scan below.
 */
function plainlyClean(text: string): boolean {
  let depth = 0;
  let comma = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 34) break;
        if (c === 92 /* \ */) i++;
        const d = text.charCodeAt(i);
        if (d === 10 || d === 13) return false;
      }
      comma = false;
    } else if (ch === 123 || ch === 91 /* { [ */) {
      if (++depth > MAX_NESTING) return false;
      comma = false;
    } else if (ch === 125 || ch === 93 /* } ] */) {
      if (comma) return false;
      depth = Math.max(0, depth - 1);
    } else if (ch === 44 /* , */) {
      comma = true;
    } else if (ch === 47 /* / */) {
      return false;
    } else if (ch !== 32 && ch !== 9 && ch !== 10 && ch !== 13) {
      // jsonc-parser counts more characters as blanks (NBSP, U+2000…): the exact scan decides.
      if (ch < 32 || ch > 126) return false;
      comma = false;
    }
  }
  return true;
}

/**
 * In one scan: the first token that nests deeper than MAX_NESTING (found without recursion, before
 * the parser recurses), else the trailing commas, which the parser tolerates and JSON with comments
 * still forbids.
 */
function scanIssues(text: string, base: number): { deep?: ParseIssue; commas: ParseIssue[] } {
  const commas: ParseIssue[] = [];
  if (plainlyClean(text)) return { commas };
  const scanner = createScanner(text, true);
  let depth = 0;
  let comma = -1;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
      if (++depth > MAX_NESTING) {
        return { deep: { offset: scanner.getTokenOffset(), length: 1, message: `nesting deeper than ${MAX_NESTING} levels; flatten this value` }, commas };
      }
    } else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) {
      depth = Math.max(0, depth - 1);
      if (comma >= 0) commas.push({ offset: base + comma, length: 1, message: 'trailing comma; remove it' });
    } else if (kind === SyntaxKind.CommaToken) {
      comma = scanner.getTokenOffset();
      continue;
    }
    comma = -1;
  }
  return { commas };
}

function duplicateKeys(root: Node): ParseIssue[] {
  const issues: ParseIssue[] = [];
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'object') {
      const seen = new Set<string>();
      for (const prop of node.children ?? []) {
        const key = prop.children?.[0];
        if (key && typeof key.value === 'string') {
          if (seen.has(key.value)) {
            issues.push({
              offset: key.offset,
              length: key.length,
              message: `duplicate key ${quote(key.value)}; readers keep only one of them, remove or rename the other`,
            });
          }
          seen.add(key.value);
        }
        const value = prop.children?.[1];
        if (value) stack.push(value);
      }
    } else if (node.type === 'array') {
      for (const child of node.children ?? []) stack.push(child);
    }
  }
  return issues;
}

function shift(root: Node, delta: number): void {
  if (delta === 0) return;
  // Nodes are ours until returned; jsonc-parser merely types them read-only.
  type Mutable = { offset: number; colonOffset?: number; children?: Mutable[] };
  const stack: Mutable[] = [root as Mutable];
  while (stack.length) {
    const node = stack.pop()!;
    node.offset += delta;
    if (node.colonOffset !== undefined) node.colonOffset += delta;
    for (const child of node.children ?? []) stack.push(child);
  }
}

/** Parses one JSON value that starts at `base` in the document. */
function parseValue(text: string, base: number, line: number, wholeFile: boolean): { root?: ParsedRoot; issues: ParseIssue[] } {
  if (text.includes('\u0000')) {
    const at = text.indexOf('\u0000');
    return {
      root: { node: undefined, line, broken: true },
      issues: [{ offset: base + at, length: 1, message: 'NUL character: this is a binary file, not JSON text' }],
    };
  }
  if (wholeFile && text.trim() === '') {
    return {
      root: { node: undefined, line, broken: true },
      issues: [{ offset: base, length: 0, message: 'empty file: expected a JSON value' }],
    };
  }
  const { deep, commas } = scanIssues(text, base);
  if (deep) {
    return { root: { node: undefined, line, broken: true }, issues: [{ ...deep, offset: base + deep.offset }] };
  }
  const errors: ParseError[] = [];
  const node = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const issues: ParseIssue[] = errors.map((e) => ({ offset: base + e.offset, length: e.length, message: describe(e) }));
  const broken = errors.length > 0 || !node;
  if (node) {
    shift(node, base);
    issues.push(...duplicateKeys(node));
  }
  issues.push(...commas);
  return { root: { node, line, broken }, issues };
}

/** Issues in document order, at most MAX_PARSE_ISSUES of them plus one notice for the rest. */
function capped(issues: ParseIssue[]): ParseIssue[] {
  const sorted = [...issues].sort((a, b) => a.offset - b.offset);
  if (sorted.length <= MAX_PARSE_ISSUES) return sorted;
  const rest = sorted.length - MAX_PARSE_ISSUES;
  const next = sorted[MAX_PARSE_ISSUES];
  return [
    ...sorted.slice(0, MAX_PARSE_ISSUES),
    { offset: next.offset, length: next.length, message: `${rest} more syntax error${rest === 1 ? '' : 's'} from here on are not listed; fix the ones above first` },
  ];
}

export function parseJson(text: string): ParsedText {
  const { root, issues } = parseValue(withoutBom(text), 0, 0, true);
  return { roots: root ? [root] : [], issues: capped(issues) };
}

/** One value per line; blank and comment-only lines are skipped; a bad line does not hide the others. */
export function parseJsonLines(text: string): ParsedText {
  const source = withoutBom(text);
  const roots: ParsedRoot[] = [];
  const issues: ParseIssue[] = [];
  let line = 0;
  let start = 0;
  while (start <= source.length) {
    let end = start;
    while (end < source.length && source.charCodeAt(end) !== 10 && source.charCodeAt(end) !== 13) end++;
    const content = source.slice(start, end);
    if (content.trim() !== '' && !isTrivia(content)) {
      const parsed = parseValue(content, start, line, false);
      if (parsed.root) roots.push(parsed.root);
      issues.push(...parsed.issues);
    }
    if (end >= source.length) break;
    start = end + (source.charCodeAt(end) === 13 && source.charCodeAt(end + 1) === 10 ? 2 : 1);
    line++;
  }
  return { roots, issues: capped(issues) };
}
