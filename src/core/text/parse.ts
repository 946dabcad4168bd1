import { createScanner, getNodeValue, parseTree, printParseErrorCode, ParseErrorCode, SyntaxKind, type Node, type ParseError } from 'jsonc-parser';
import { quote } from './escape';
import { isBlank, skipBlank, skipString, skipValue, strictTree } from './strict-tree';
import { StrictLocator, type Located } from './strict-locate';
import type { JsonPath, Span } from './types';
import { recordExactIntegers, recordExactIntegersFromTree } from './exact-numbers';
import { commonAffixes, endOf, reach, type Affixes, type Version } from './unchanged';
import { appendAll } from './multimap';

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
  /**
   * The value's tree, with offsets into the whole document. Undefined when the text is unusable.
   * For strict JSON it is built level by level as it is walked (`strict-tree.ts`).
   */
  readonly node: Node | undefined;
  /**
   * The plain value, undefined when broken. Objects have no prototype, so a key such as
   * `constructor` or `__proto__` is just a key. Shared by every reader: treat it as read-only.
   */
  readonly value: unknown;
  /** Zero-based line the value starts on (JSONL: its line; JSON: 0). */
  readonly line: number;
  /** True when a syntax error makes the tree unreliable: rules do not read it. */
  readonly broken: boolean;
  /**
   * For strict JSON: where a path leads, read off the text without building the tree
   * (`strict-locate.ts`). Locations use it, and `valueAt` below serves edits that overwrite a
   * value; what needs nodes (hovers, edits that insert) reads `node`.
   */
  readonly locate?: (path: JsonPath) => Located;
  /** For strict JSON: the span of the value at `path`, undefined unless the whole path exists (what `node` would say, read off the text). */
  readonly valueAt?: (path: JsonPath) => Span | undefined;
  /** For strict JSON: where the value at `path` starts, without reading to its end; undefined unless the whole path exists. */
  readonly startOf?: (path: JsonPath) => number | undefined;
  /** For strict JSON: the path to an offset (as `pathAtOffset` over `node` answers), read off the text. */
  readonly pathAt?: (offset: number) => JsonPath | undefined;
}

export interface ParsedText {
  roots: ParsedRoot[];
  issues: ParseIssue[];
  /** One value per line (JSONL): an edit stays on its value's line and is never reformatted. */
  jsonLines?: boolean;
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
  // Nearly every line opens its value at once: no scanner for those.
  const first = text.charCodeAt(0);
  if (first === 123 /* { */ || first === 91 /* [ */) return false;
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
 * The text with its comments blanked (same length, so every offset stays), for JSON with comments
 * to go through `JSON.parse`: one pass that understands strings. Undefined when a comment is
 * malformed or a slash stands where no comment can start; the exact path reports those.
 */
function withoutComments(text: string): string | undefined {
  let comments: number[] | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) {
      i = skipString(text, i) - 1;
    } else if (ch === 47 /* / */) {
      const next = text.charCodeAt(i + 1);
      let end: number;
      if (next === 47) {
        end = i + 2;
        while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
      } else if (next === 42 /* * */) {
        const close = text.indexOf('*/', i + 2);
        if (close < 0) return undefined;
        end = close + 2;
      } else {
        return undefined;
      }
      (comments ??= []).push(i, end);
      i = end - 1;
    }
  }
  return comments ? blanked(text, comments) : undefined;
}

/**
 * How many property names strict JSON text holds: a string followed by a colon. Outside strings
 * strict JSON has no quotes, so the scan jumps from string to string and never reads the layout
 * between them.
 */
function keyCount(text: string): number {
  let keys = 0;
  for (let i = text.indexOf('"'); i >= 0; ) {
    const j = skipBlank(text, skipString(text, i));
    if (text.charCodeAt(j) === 58 /* : */) keys++;
    i = text.indexOf('"', j);
  }
  return keys;
}

/**
 * At least as many as `keyCount`, in less than half its time: the colons whose last non-blank character
 * before them is a quote. A key's closing quote always is one; any other is a quote inside a string
 * (escaped, or opening a string that starts with a colon), which counts one too many. Each colon is
 * found by `indexOf`, so no string is read character by character.
 */
function keyCountBound(text: string): number {
  let keys = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    let j = i - 1;
    while (isBlank(text.charCodeAt(j))) j--;
    if (text.charCodeAt(j) === 34 /* " */) keys++;
  }
  return keys;
}

/** The text with each [start, end) span replaced by as many spaces. */
function blanked(text: string, spans: number[]): string {
  let out = '';
  let from = 0;
  for (let k = 0; k < spans.length; k += 2) {
    out += text.slice(from, spans[k]) + ' '.repeat(spans[k + 1] - spans[k]);
    from = spans[k + 1];
  }
  return out + text.slice(from);
}

/**
 * The value of the text if it is strict JSON that jsonc-parser would read without a finding, with
 * prototype-free objects (as jsonc-parser builds them). Undefined when `JSON.parse` refuses it,
 * when it nests deeper than MAX_NESTING (V8 parses any depth without recursing; the rules would
 * not), or when the value holds fewer property names than the text, which means a key is
 * duplicated: the exact path reports each of those.
 */
function strictValue(text: string): { value: unknown; unsafeIntegers: boolean } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  unsafeSeen = false;
  const keys = value !== null && typeof value === 'object' ? adopt(value, 1) : 0;
  // The value's names never outnumber the text's; the bound settles nearly every file, and only a
  // text it overcounts is counted exactly.
  const unique = keys >= 0 && (keys === keyCountBound(text) || keys === keyCount(text));
  return unique ? { value, unsafeIntegers: unsafeSeen } : undefined;
}

/** 2^53: every double at least this large is an integer a double may have rounded. */
const UNSAFE = 9007199254740992;
/** Set by `adopt` when a member is a number past ±2^53 (only then can a literal have been rounded). */
let unsafeSeen = false;

/**
 * Short string values, one copy each: `JSON.parse` makes a string per value, and a suite repeats
 * its arms, probes, tool references and labels in every case (4 MB of copies at the rich 10k).
 * Bounded, and started over when full: every kept string is also a value's, so none is kept alive
 * by this alone for long.
 */
const sharedStrings = new Map<string, string>();
const MAX_SHARED_LENGTH = 64;
const MAX_SHARED = 8192;
/**
 * V8's `JSON.parse` already keeps one copy of each string value up to this length (it interns
 * them: json-parser.h, kMaxInternalizedStringValueLength): a lookup here would find the same
 * string, and was most of the lookups (`benign`, scopes, most tool names and short ids).
 */
const PARSER_SHARED_LENGTH = 10;

function shared(s: string): string {
  const kept = sharedStrings.get(s);
  if (kept !== undefined) return kept;
  if (sharedStrings.size >= MAX_SHARED) sharedStrings.clear();
  sharedStrings.set(s, s);
  return s;
}

/**
 * Takes a parsed container over: its objects lose their prototype, and its property names are
 * counted. -1 when it nests deeper than MAX_NESTING. Recursive, and so bounded by MAX_NESTING: a
 * plain recursion was half the time of a walk with its own stack. Notes whether a member is a
 * number a double may have rounded, so that nearly every file skips the search for big integers.
 */
function adopt(v: object, depth: number): number {
  if (depth > MAX_NESTING) return -1;
  let keys = 0;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      if (typeof e === 'string') {
        if (e.length <= MAX_SHARED_LENGTH && e.length > PARSER_SHARED_LENGTH) v[i] = shared(e);
      } else if (typeof e === 'number') {
        if (e >= UNSAFE || e <= -UNSAFE) unsafeSeen = true;
      } else if (e !== null && typeof e === 'object') {
        const n = adopt(e, depth + 1);
        if (n < 0) return -1;
        keys += n;
      }
    }
  } else {
    Object.setPrototypeOf(v, null);
    const record = v as Record<string, unknown>;
    for (const k in record) {
      keys++;
      const e = record[k];
      if (typeof e === 'string') {
        if (e.length <= MAX_SHARED_LENGTH && e.length > PARSER_SHARED_LENGTH) record[k] = shared(e);
      } else if (typeof e === 'number') {
        if (e >= UNSAFE || e <= -UNSAFE) unsafeSeen = true;
      } else if (e !== null && typeof e === 'object') {
        const n = adopt(e, depth + 1);
        if (n < 0) return -1;
        keys += n;
      }
    }
  }
  return keys;
}

/**
 * In one scan: the first token that nests deeper than MAX_NESTING (found without recursion, before
 * the parser recurses), else the trailing commas, which the parser tolerates and JSON with comments
 * still forbids.
 */
function scanIssues(text: string, base: number): { deep?: ParseIssue; commas: ParseIssue[] } {
  const commas: ParseIssue[] = [];
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

const unusable = (line: number): ParsedRoot => ({ node: undefined, value: undefined, line, broken: true });

/**
 * A root whose value came from `JSON.parse`; its tree is built as it is walked. A class rather than
 * an object literal with a getter, which V8 builds in dictionary mode (one per file and per JSONL
 * line: about 0.4 KB each, and slower to read).
 */
class StrictRoot implements ParsedRoot {
  readonly broken = false;
  #tree: Node | undefined;
  #built = false;
  #locator: StrictLocator | undefined;
  constructor(
    readonly value: unknown,
    readonly line: number,
    /** The document's text (a BOM blanked): the locator reads it as it is, comments and all. */
    private readonly text: string,
    /** Where the text of the value (its line, in JSONL) starts and ends in the document. */
    readonly base: number,
    readonly end: number,
    // JSON with comments: the tree reads the text with them blanked, made when the tree is first
    // needed (few files ever need one) rather than kept beside the file's own text.
    private readonly blanked?: () => string,
  ) {}

  get node(): Node | undefined {
    if (!this.#built) {
      this.#tree = strictTree(this.blanked ? this.blanked() : this.text, this.base, this.end);
      this.#built = true;
    }
    return this.#tree;
  }

  locate(path: JsonPath): Located {
    return this.#located().locate(path);
  }

  valueAt(path: JsonPath): Span | undefined {
    return this.#located().valueAt(path);
  }

  startOf(path: JsonPath): number | undefined {
    return this.#located().startOf(path);
  }

  pathAt(offset: number): JsonPath | undefined {
    return this.#located().pathAt(offset);
  }

  #located(): StrictLocator {
    return (this.#locator ??= new StrictLocator(this.text, this.base, this.end));
  }

  /** Whether its text holds comments (the tree reads it blanked). */
  get commented(): boolean {
    return this.blanked !== undefined;
  }

  /** What `before`, this value's root in an earlier version of the text, read before `prefix` (the start the texts share) and, with `end`, from `end.from` on. */
  continueFrom(before: StrictRoot, prefix: number, end?: { from: number; shift: number }): void {
    if (before.base === this.base && before.#locator) this.#located().continueFrom(before.#locator, prefix, end);
  }

  /** Where the elements of the array whose `[` is at `open` start: all of them. */
  knowElements(open: number, starts: readonly number[]): void {
    this.#located().knowElements(open, starts);
  }

  /** This root as one version of its text, for telling what an edit left unchanged (`text` is the document's own). */
  version(text: string): Version {
    const locator = this.#located();
    return { text, startOf: (path) => locator.startOf(path), locate: (path) => locator.locate(path) };
  }
}

function strictRoot(text: string, base: number, end: number, line: number, value: unknown, blanked?: () => string): ParsedRoot {
  return new StrictRoot(value, line, text, base, end, blanked);
}

/** The text with its comments blanked, made again each time it is asked for: `text` is known to hold comments. */
const blankedLater = (text: string) => () => withoutComments(text) ?? text;

/** A root jsonc-parser built a tree for; its value is taken from the tree the first time it is read. */
function treeRoot(node: Node | undefined, line: number, broken: boolean, source: string): ParsedRoot {
  if (!node || broken) return { node, value: undefined, line, broken: true };
  let value: unknown;
  let built = false;
  return {
    node,
    line,
    broken: false,
    get value(): unknown {
      if (!built) {
        value = getNodeValue(node);
        recordExactIntegersFromTree(node, source, value);
        built = true;
      }
      return value;
    },
  };
}

/**
 * Parses one JSON value, `text`, that starts at `base` in the document `source`. Strict JSON —
 * nearly every file — goes through `JSON.parse`, which is many times faster than building a tree;
 * anything else (comments, trailing commas, duplicate keys, errors) gets jsonc-parser's tree and
 * its exact findings.
 */
export const NUL_MESSAGE = 'NUL character: this is a binary file, not JSON text';

function parseValue(source: string, text: string, base: number, line: number, wholeFile: boolean): { root?: ParsedRoot; issues: ParseIssue[] } {
  if (text.includes('\u0000')) {
    const at = text.indexOf('\u0000');
    return { root: unusable(line), issues: [{ offset: base + at, length: 1, message: NUL_MESSAGE }] };
  }
  if (wholeFile && text.trim() === '') {
    return { root: unusable(line), issues: [{ offset: base, length: 0, message: 'empty file: expected a JSON value' }] };
  }
  // JSON with comments goes through JSON.parse with its comments blanked; the tree is built over
  // the blanked text (offsets are the same). A JSONL line would need it spliced into the whole
  // text, so the rare commented line takes the jsonc-parser path instead.
  let strict = strictValue(text);
  let blank: string | undefined;
  if (!strict && wholeFile && text.includes('/')) {
    blank = withoutComments(text);
    strict = blank === undefined ? undefined : strictValue(blank);
  }
  if (strict) {
    // Integers past 2^53 keep their spelling beside the value, for canonical comparison.
    if (strict.unsafeIntegers) recordExactIntegers(blank ?? (wholeFile ? text : source), base, base + text.length, strict.value);
    return { root: strictRoot(wholeFile ? text : source, base, base + text.length, line, strict.value, blank === undefined ? undefined : blankedLater(text)), issues: [] };
  }
  const { deep, commas } = scanIssues(text, base);
  if (deep) return { root: unusable(line), issues: [{ ...deep, offset: base + deep.offset }] };
  const errors: ParseError[] = [];
  const node = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const issues: ParseIssue[] = errors.map((e) => ({ offset: base + e.offset, length: e.length, message: describe(e) }));
  if (node) {
    shift(node, base);
    appendAll(issues, duplicateKeys(node));
  }
  appendAll(issues, commas);
  return { root: treeRoot(node, line, errors.length > 0, source), issues };
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

/** The last parse of the same document: what an edit left unchanged keeps its value from it. */
export interface PreviousParse {
  text: string;
  parsed: ParsedText;
}

export function parseJson(text: string, previous?: PreviousParse): ParsedText {
  const source = withoutBom(text);
  const last = lastVersion(previous, source);
  if (last) {
    const edited = splice(last, source);
    if (edited) return { roots: [edited], issues: [] };
  }
  const { root, issues } = parseValue(source, source, 0, 0, true);
  if (root && last) keepUnchangedElements(last, source, root);
  return { roots: root ? [root] : [], issues: capped(issues) };
}

/** The last version of a document whose root is a strict object, as an edit of it is compared with. */
interface LastVersion {
  root: StrictRoot;
  value: Record<string, unknown>;
  text: string;
  affixes: Affixes;
  version: Version;
}

function lastVersion(previous: PreviousParse | undefined, afterText: string): LastVersion | undefined {
  const root = previous && !previous.parsed.jsonLines ? previous.parsed.roots[0] : undefined;
  if (!(root instanceof StrictRoot) || !isObject(root.value)) return undefined;
  const text = withoutBom(previous!.text);
  return { root, value: root.value, text, affixes: commonAffixes(text, afterText), version: root.version(text) };
}

/**
 * The text between two elements an edit replaced, with its comments blanked (same length), when
 * each comment ends inside it: a line comment on its last line would run on past it, so a slash
 * there (in a string or not) sends the edit to a whole parse, as does a block comment left open
 * (then the slash stays, and the strict reading refuses it).
 */
function blankedWithin(text: string): { text: string; comments: boolean } | undefined {
  if (!text.includes('/')) return { text, comments: false };
  const lastLine = text.slice(Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
  if (lastLine.includes('/')) return undefined;
  const blank = withoutComments(text);
  return blank === undefined ? { text, comments: false } : { text: blank, comments: true };
}

/** Where each of `count` values starts in `text` (values and commas, strict JSON; a comma first when `leadingComma`). */
function elementStarts(text: string, leadingComma: boolean, count: number): number[] | undefined {
  const out: number[] = [];
  let at = skipBlank(text, 0);
  if (leadingComma) {
    if (text.charCodeAt(at) !== 44 /* , */) return undefined;
    at = skipBlank(text, at + 1);
  }
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      if (text.charCodeAt(at) !== 44 /* , */) return undefined;
      at = skipBlank(text, at + 1);
    }
    out.push(at);
    at = skipBlank(text, skipValue(text, at));
  }
  return out;
}

/**
 * The edited version of a strict root without parsing all of it, when the edit stays inside one
 * array of the root object and gives it as many elements as it had (the common edit: a case
 * changed in place). The elements the edit did not reach keep their values (ending in the shared
 * start, or starting in the shared end, both at the same index); the text between them is parsed
 * alone, nested as deep as it sits, and must be exactly that many strict values between the commas
 * around them. Strict JSON reads left to right, so what lies before the edit reads as it did; and
 * after it, once the middle is whole values and commas with no comment or open string, as it did
 * too. Undefined where any of that is not so: the caller parses the whole text.
 */
function splice(last: LastVersion, afterText: string): StrictRoot | undefined {
  const { value: old, affixes } = last;
  const shift = last.text.length - afterText.length;
  for (const key in old) {
    const list = old[key];
    // Opening before the edit (asked first: reading where every element starts costs more) and
    // closing after it, the array holds the edit; otherwise it does not.
    const open = Array.isArray(list) ? last.version.startOf([key]) : undefined;
    if (!Array.isArray(list) || open === undefined || open >= affixes.prefix) continue;
    const r = reach(last.version, affixes, [key], list.length);
    if (!r || r.close < last.text.length - affixes.suffix) continue;
    const { starts, kept: a, tail: b } = r;
    const n = list.length;
    const from = a > 0 ? endOf(last.version, [key, a - 1]) : r.open + 1;
    const to = b < n ? starts[b] : r.close;
    const middle = blankedWithin(afterText.slice(from, to - shift));
    if (middle === undefined) return undefined;
    // Placeholders for the neighbours keep the commas honest; one more level nests the values as deep as they sit.
    const probeText = `[[${a > 0 ? '0' : ''}${middle.text}${b < n ? '0' : ''}]]`;
    const probe = strictValue(probeText);
    if (!probe) return undefined;
    if (probe.unsafeIntegers) recordExactIntegers(probeText, 0, probeText.length, probe.value);
    const values = (probe.value as unknown[][])[0];
    const fresh = values.slice(a > 0 ? 1 : 0, b < n ? values.length - 1 : values.length);
    if (fresh.length !== b - a) return undefined;
    const value = Object.create(null) as Record<string, unknown>;
    for (const k in old) value[k] = k === key ? [...list.slice(0, a), ...fresh, ...list.slice(b)] : old[k];
    const root = new StrictRoot(value, 0, afterText, 0, afterText.length, last.root.commented || middle.comments ? blankedLater(afterText) : undefined);
    // What the old locator read stays where it was before the edit, and moves with the text after it.
    root.continueFrom(last.root, affixes.prefix, { from: to, shift });
    const inMiddle = elementStarts(middle.text, a > 0, fresh.length);
    if (inMiddle) root.knowElements(r.open, [...starts.slice(0, a), ...inMiddle.map((s) => s + from), ...starts.slice(b).map((s) => s - shift)]);
    return root;
  }
  return undefined;
}

/**
 * An edit of a suite file of a thousand cases changes one of them, yet `JSON.parse` makes every
 * case a new object, and all that is kept per value (compiled patterns, scans, canonical forms)
 * is built again for each. So each element of the root object's arrays (a suite's `cases`, a tool
 * file's `tools`) whose text the edit left as it was, at the same index, is given its old value
 * back. Same index only: what is kept per value may hold the value's path.
 */
function keepUnchangedElements(last: LastVersion, afterText: string, after: ParsedRoot): void {
  const now = after.value;
  if (!(after instanceof StrictRoot) || !isObject(now)) return;
  const { value: old, affixes } = last;
  const shift = last.text.length - afterText.length;
  after.continueFrom(last.root, affixes.prefix);
  const is = after.version(afterText);
  for (const key in now) {
    const list = now[key];
    const oldList = old[key];
    if (!Array.isArray(list) || !Array.isArray(oldList)) continue;
    const r = reach(last.version, affixes, [key], oldList.length);
    if (!r) continue;
    const n = Math.min(list.length, oldList.length);
    for (let i = 0; i < n; i++) {
      // Objects and arrays only: a string or a number is the same whichever copy is read.
      if (list[i] === null || typeof list[i] !== 'object') continue;
      if (i < r.kept || (i >= r.tail && is.startOf([key, i]) === r.starts[i] - shift)) list[i] = oldList[i];
    }
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One value per line; blank and comment-only lines are skipped; a bad line does not hide the others. */
export function parseJsonLines(text: string, previous?: PreviousParse): ParsedText {
  const source = withoutBom(text);
  const roots: ParsedRoot[] = [];
  const issues: ParseIssue[] = [];
  const kept = previous?.parsed.jsonLines ? unchangedLines(withoutBom(previous.text), previous.parsed, source) : undefined;
  let line = 0;
  let start = 0;
  // Lines end at \n, \r\n or a lone \r. Without a \r in the file, each end is one indexOf: a loop
  // over the characters of every line cost most of the parse of a JSONL file of long lines.
  const crs = source.includes('\r');
  while (start <= source.length) {
    let end: number;
    if (crs) {
      end = start;
      while (end < source.length && source.charCodeAt(end) !== 10 && source.charCodeAt(end) !== 13) end++;
    } else {
      end = source.indexOf('\n', start);
      if (end < 0) end = source.length;
    }
    const value = kept?.(start, end, roots.length);
    if (value !== undefined) {
      roots.push(strictRoot(source, start, end, line, value));
    } else {
      const content = source.slice(start, end);
      if (content.trim() !== '' && !isTrivia(content)) {
        const parsed = parseValue(source, content, start, line, false);
        if (parsed.root) roots.push(parsed.root);
        appendAll(issues, parsed.issues);
      }
    }
    if (end >= source.length) break;
    start = end + (source.charCodeAt(end) === 13 && source.charCodeAt(end + 1) === 10 ? 2 : 1);
    line++;
  }
  return { roots, issues: capped(issues), jsonLines: true };
}

/**
 * The old values of the lines an edit left as they were: a line wholly inside the unchanged start
 * or end of the text that was, in the old parse, the same whole line holding a strict value, as the
 * same root, keeps that value (and is not parsed again). A line the old parse built a tree for (a
 * comment, an error) is parsed.
 */
function unchangedLines(beforeText: string, before: ParsedText, afterText: string): (start: number, end: number, index: number) => unknown {
  const affixes = commonAffixes(beforeText, afterText);
  const shift = beforeText.length - afterText.length;
  return (start, end, index) => {
    let moved: number;
    if (end <= affixes.prefix) moved = 0;
    else if (start >= afterText.length - affixes.suffix) moved = shift;
    else return undefined;
    // The same root index too: what is kept per value may hold the case's root.
    const old = before.roots[index];
    return old instanceof StrictRoot && old.base === start + moved && old.end === end + moved ? old.value : undefined;
  };
}
