import type { Node, NodeType } from 'jsonc-parser';

/**
 * Parse trees for strict JSON, built one level at a time as they are walked.
 *
 * Most files of a suite are strict JSON; their values come from `JSON.parse`, and their trees are
 * needed only where a finding, a fix or a label points. A full jsonc-parser tree costs ten times the
 * text in memory and most of the lint time in building and collecting it; a `StrictNode` scans the
 * text of its own value only when its children are first asked for, so a lookup along one path
 * expands the containers on that path and nothing else.
 *
 * The text must already be known to be strict JSON (`JSON.parse` accepted it) with no duplicate
 * keys: the scanner relies on that, and stops rather than loops if it is wrong. The skipping
 * functions below also step over comments, so that the locator (strict-locate.ts) reads a JSON
 * with comments file's own text; a tree reads such a text with its comments blanked, since it
 * trims the blanks before a comma or at the end by reading backwards, where a comment cannot be told.
 */

/** JSON's four blanks (jsonc-parser counts more; text with those never reaches a strict tree). */
export const isBlank = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * Index just past the comment that starts at `i`, or `i` when none does. Strict JSON has no `/`
 * outside its strings, so where one stands between tokens the text is JSON with comments that
 * blanking them made strict: the locator reads such a file's own text, comments and all (a copy of
 * it blanked would be a second megabyte-long string, made and read again after every edit).
 * The same comments as `withoutComments` blanks: `//` to the line's end, `/*` past its `*\/`.
 */
function skipComment(text: string, i: number): number {
  const next = text.charCodeAt(i + 1);
  if (next === 42 /* * */) {
    const close = text.indexOf('*/', i + 2);
    return close < 0 ? text.length : close + 2;
  }
  if (next !== 47 /* / */) return i;
  let j = i + 2;
  while (j < text.length && text.charCodeAt(j) !== 10 && text.charCodeAt(j) !== 13) j++;
  return j;
}

/** Index of the first character at or after `i` that is neither a blank nor in a comment. */
export function skipBlank(text: string, i: number): number {
  for (;;) {
    while (i < text.length && isBlank(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 47 /* / */) return i;
    const past = skipComment(text, i);
    if (past === i) return i;
    i = past;
  }
}

/** Index just past the string whose opening quote is at `i` (the text's length if none closes it). */
export function skipString(text: string, i: number): number {
  for (;;) {
    const quote = text.indexOf('"', i + 1);
    if (quote < 0) return text.length;
    // A quote preceded by an odd number of backslashes is escaped.
    let slashes = 0;
    while (text.charCodeAt(quote - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return quote + 1;
    i = quote;
  }
}

/**
 * The top-level commas of the last container `skipValue` passed over. Skipping a suite's `cases`
 * array already finds where every case ends; kept for a large container (copied out of this reused
 * buffer), they let its children be listed later without scanning the text a second time.
 */
const commas: number[] = [];
let commaCount = 0;
/** Containers at least this long keep their commas. */
const KEEP_COMMAS = 2048;

/** Index just past the value that starts at `i`. */
export function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    commaCount = 0;
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 34) i = skipString(text, i) - 1;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return i + 1;
      else if (d === 44 && depth === 1) commas[commaCount++] = i;
      // A comment's quotes, brackets and commas are not the JSON's.
      else if (d === 47) i = Math.max(i, skipComment(text, i) - 1);
    }
    return text.length;
  }
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 44 || d === 125 || d === 93 || d === 47 || isBlank(d)) break;
    i++;
  }
  return i;
}

function typeAt(text: string, i: number): NodeType {
  switch (text.charCodeAt(i)) {
    case 123:
      return 'object';
    case 91:
      return 'array';
    case 34:
      return 'string';
    case 116:
    case 102:
      return 'boolean';
    case 110:
      return 'null';
    default:
      return 'number';
  }
}

/** Where each child of a container lies, from its top-level commas: [start, end) per child, blanks trimmed. */
function segments(text: string, offset: number, length: number, split: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k <= split.length; k++) {
    const start = skipBlank(text, k === 0 ? offset + 1 : split[k - 1] + 1);
    let end = k < split.length ? split[k] : offset + length - 1;
    while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
    if (end > start) out.push([start, end]);
  }
  return out;
}

const NOT_YET: unique symbol = Symbol('not decoded');

class StrictNode implements Node {
  private expanded: Node[] | undefined;
  private decoded: unknown = NOT_YET;
  /** Top-level commas, for a large container whose extent was found by skipping it. */
  private split: number[] | undefined;

  constructor(
    private readonly text: string,
    readonly type: NodeType,
    readonly offset: number,
    readonly length: number,
    readonly parent: Node | undefined,
    readonly colonOffset?: number,
  ) {}

  /**
   * Scalars decode their own text, once: path lookups compare every key of an object on the way.
   * Containers have no value, as in jsonc-parser.
   */
  get value(): unknown {
    if (this.type === 'object' || this.type === 'array' || this.type === 'property') return undefined;
    if (this.decoded === NOT_YET) {
      const raw = this.text.slice(this.offset, this.offset + this.length);
      this.decoded = this.type === 'string' && !raw.includes('\\') ? raw.slice(1, -1) : JSON.parse(raw);
    }
    return this.decoded;
  }

  get children(): Node[] | undefined {
    if (this.type === 'object') return (this.expanded ??= this.list((at, end) => this.property(at, end)));
    if (this.type === 'array') return (this.expanded ??= this.list((at, end) => this.element(at, end)));
    return this.expanded;
  }

  /**
   * The node of a child value from `at` to `stop`. When its end was found by skipping it (rather
   * than given by this container's commas), a large container keeps the commas that skip found.
   */
  private node(at: number, stop: number, parent: Node, skipped: boolean): StrictNode {
    const node = new StrictNode(this.text, typeAt(this.text, at), at, stop - at, parent);
    // Copied at once: the next skip reuses the buffer.
    if (skipped && node.length >= KEEP_COMMAS && (node.type === 'object' || node.type === 'array')) node.split = commas.slice(0, commaCount);
    return node;
  }

  private element(at: number, end: number | undefined): StrictNode {
    return this.node(at, end ?? skipValue(this.text, at), this, end === undefined);
  }

  /** Property nodes carry their key and value eagerly, as jsonc-parser's do. */
  private property(keyAt: number, end: number | undefined): StrictNode {
    const keyEnd = skipString(this.text, keyAt);
    const colon = skipBlank(this.text, keyEnd);
    const valueAt = skipBlank(this.text, colon + 1);
    const valueEnd = end ?? skipValue(this.text, valueAt);
    const prop = new StrictNode(this.text, 'property', keyAt, valueEnd - keyAt, this, colon);
    prop.expanded = [new StrictNode(this.text, 'string', keyAt, keyEnd - keyAt, prop), this.node(valueAt, valueEnd, prop, end === undefined)];
    return prop;
  }

  /**
   * The children, each made by `make` from where it starts (and ends, when this container's commas
   * say). An object's children are its properties, each starting with its key's quote.
   */
  private list(make: (at: number, end: number | undefined) => StrictNode): Node[] {
    if (this.split) return segments(this.text, this.offset, this.length, this.split).map(([start, end]) => make(start, end));
    const out: Node[] = [];
    const close = this.offset + this.length - 1;
    let i = skipBlank(this.text, this.offset + 1);
    while (i < close && (this.type === 'array' || this.text.charCodeAt(i) === 34)) {
      const node = make(i, undefined);
      if (node.length <= 0) break;
      out.push(node);
      i = skipBlank(this.text, node.offset + node.length);
      if (this.text.charCodeAt(i) !== 44) break;
      i = skipBlank(this.text, i + 1);
    }
    return out;
  }
}

/**
 * The tree of the strict JSON value that is all of `text` between `start` and `end` but blanks:
 * its extent is known without scanning it.
 */
export function strictTree(text: string, start: number, end: number): Node | undefined {
  const at = skipBlank(text, start);
  let stop = end;
  while (stop > at && isBlank(text.charCodeAt(stop - 1))) stop--;
  if (at >= stop) return undefined;
  return new StrictNode(text, typeAt(text, at), at, stop - at, undefined);
}
