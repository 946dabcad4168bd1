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
 * keys: the scanner relies on that, and stops rather than loops if it is wrong.
 */

const isBlank = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9;

function skipBlank(text: string, i: number): number {
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  return i;
}

/** Index just past the string whose opening quote is at `i`. */
function skipString(text: string, i: number): number {
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

/** Index just past the value that starts at `i`. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === 34) return skipString(text, i);
  if (c === 123 || c === 91) {
    let depth = 0;
    for (; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 34) i = skipString(text, i) - 1;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return i + 1;
    }
    return text.length;
  }
  while (i < text.length) {
    const d = text.charCodeAt(i);
    if (d === 44 || d === 125 || d === 93 || isBlank(d)) break;
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

class StrictNode implements Node {
  private expanded: Node[] | undefined;

  constructor(
    private readonly text: string,
    readonly type: NodeType,
    readonly offset: number,
    readonly length: number,
    readonly parent: Node | undefined,
    readonly colonOffset?: number,
  ) {}

  /** Scalars decode their own text; containers have no value, as in jsonc-parser. */
  get value(): unknown {
    if (this.type === 'object' || this.type === 'array' || this.type === 'property') return undefined;
    const raw = this.text.slice(this.offset, this.offset + this.length);
    return this.type === 'string' && !raw.includes('\\') ? raw.slice(1, -1) : JSON.parse(raw);
  }

  get children(): Node[] | undefined {
    if (this.type === 'object') return (this.expanded ??= this.properties());
    if (this.type === 'array') return (this.expanded ??= this.elements());
    return this.expanded;
  }

  /** Property nodes carry their key and value eagerly, as jsonc-parser's do. */
  static property(text: string, parent: Node, keyAt: number): { node: Node; end: number } {
    const keyEnd = skipString(text, keyAt);
    const colon = skipBlank(text, keyEnd);
    const valueAt = skipBlank(text, colon + 1);
    const valueEnd = skipValue(text, valueAt);
    const prop = new StrictNode(text, 'property', keyAt, valueEnd - keyAt, parent, colon);
    prop.expanded = [
      new StrictNode(text, 'string', keyAt, keyEnd - keyAt, prop),
      new StrictNode(text, typeAt(text, valueAt), valueAt, valueEnd - valueAt, prop),
    ];
    return { node: prop, end: valueEnd };
  }

  private properties(): Node[] {
    const out: Node[] = [];
    const end = this.offset + this.length;
    let i = skipBlank(this.text, this.offset + 1);
    while (i < end && this.text.charCodeAt(i) === 34) {
      const { node, end: after } = StrictNode.property(this.text, this, i);
      out.push(node);
      i = skipBlank(this.text, after);
      if (this.text.charCodeAt(i) !== 44) break;
      i = skipBlank(this.text, i + 1);
    }
    return out;
  }

  private elements(): Node[] {
    const out: Node[] = [];
    const end = this.offset + this.length;
    let i = skipBlank(this.text, this.offset + 1);
    while (i < end - 1) {
      const after = skipValue(this.text, i);
      if (after <= i) break;
      out.push(new StrictNode(this.text, typeAt(this.text, i), i, after - i, this));
      i = skipBlank(this.text, after);
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
