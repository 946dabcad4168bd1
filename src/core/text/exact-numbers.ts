import type { Node } from 'jsonc-parser';
import { skipBlank, skipString } from './strict-tree';

/**
 * The spelling of every integer literal a double cannot hold (beyond ±2^53), by the object or array
 * that holds it. Values are parsed into plain JSON values, where 1234567890123456789 and
 * 1234567890123456790 are one double; canonical comparison (model/canonical.ts) reads the literal
 * here instead, as a Python scorer (exact integers) would see it. Kept beside the values, not in
 * them: every other reader still gets a plain number.
 *
 * Only texts with a run of 16 digits are looked at (2^53 has 16), so a suite without big integers
 * pays one scan of its text.
 */
const spellings = new WeakMap<object, Map<string, string>>();
/**
 * Whether any literal was ever noted. Nearly no suite has one, and canonical forms ask for every
 * container they write: without this, each asked a weak map that holds nothing.
 */
let anyNoted = false;

/**
 * Texts that can spell a whole number past 2^53: a run of 16 digits (2^53 has 16), or an exponent
 * of 10 or more (`1.5e300`).
 */
const LONG_DIGITS = /\d{16}|[eE]\+?[1-9]\d/;

/** The literal of a big integer member of `container` (an array index as a string), if it has one. */
export function exactIntegerAt(container: object, key: string): string | undefined {
  return anyNoted ? spellings.get(container)?.get(key) : undefined;
}

/**
 * Whether `value` holds a big-integer literal anywhere: without one, its JSON text says all it
 * holds. Parsed values nest a bounded depth (text/parse.ts), and nearly every run notes none.
 */
export function holdsExactIntegers(value: unknown): boolean {
  if (!anyNoted || value === null || typeof value !== 'object') return false;
  if (spellings.has(value)) return true;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (holdsExactIntegers(v)) return true;
  return false;
}

/** All of a container's big-integer literals, for a walk over its members; undefined for nearly every container. */
export function exactIntegersOf(container: object): ReadonlyMap<string, string> | undefined {
  return anyNoted ? spellings.get(container) : undefined;
}

/** Past this many digits a whole number is left to its double: no suite spells one, and a hostile `1e999999` must not allocate a megabyte. */
const MAX_DIGITS = 400;
const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/**
 * The digits of the whole number a JSON number literal spells, whatever its spelling
 * (`12345678901234567891`, `12345678901234567891.0`, `1.2345678901234567891e19` are one number,
 * FORMAT §3b); undefined when its exact value is not a whole number.
 */
export function wholeNumberDigits(literal: string): string | undefined {
  const m = NUMBER.exec(literal);
  if (!m) return undefined;
  const digits = m[2] + (m[3] ?? '');
  const exp = (m[4] === undefined ? 0 : Number(m[4])) - (m[3]?.length ?? 0);
  let whole: string;
  if (exp >= 0) {
    if (digits.length + exp > MAX_DIGITS) return undefined;
    whole = digits + '0'.repeat(exp);
  } else {
    if (-exp > digits.length + MAX_DIGITS) return undefined;
    const cut = digits.length + exp;
    if (!/^0*$/.test(cut > 0 ? digits.slice(cut) : digits)) return undefined;
    whole = cut > 0 ? digits.slice(0, cut) : '0';
  }
  whole = whole.replace(/^0+(?=\d)/, '');
  return m[1] && whole !== '0' ? `-${whole}` : whole;
}

/**
 * The text one number compares by: a whole number past 2^53 by its exact digits (its literal's when
 * the parser kept one, else the double's own value written out in full, so `1e20` is
 * `100000000000000000000`), any other number by the double it is (`1`, `1.0`, `1e0` are one
 * number; `-0` is `0`).
 */
export function exactNumberText(n: number, literal?: string): string {
  if (literal !== undefined) return literal;
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return BigInt(n).toString();
  return String(n);
}

function note(container: object, key: string, literal: string, value: unknown): void {
  // Only what a double rounds, and only a whole number: a literal whose exact value has a fraction
  // is a float to every reader. Kept as its digits, so every spelling of one number is one text.
  if (typeof value !== 'number' || Number.isSafeInteger(value) || !Number.isInteger(value)) return;
  const digits = wholeNumberDigits(literal);
  if (digits === undefined || Number(digits) !== value) return;
  let map = spellings.get(container);
  if (!map) spellings.set(container, (map = new Map()));
  anyNoted = true;
  map.set(key, digits);
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/**
 * Records the big integers of `value`, which `JSON.parse` made from `text[start, end)` (strict JSON,
 * no duplicate keys: the strict path's guarantee). Stops quietly where text and value disagree.
 */
export function recordExactIntegers(text: string, start: number, end: number, value: unknown): void {
  if (!isContainer(value) || !LONG_DIGITS.test(text.slice(start, end))) return;
  walkText(text, skipBlank(text, start), value, 0);
}

/** Index just past the value at `i`, noting big integers inside `value` (the value parsed from it). */
function walkText(text: string, i: number, value: unknown, depth: number): number {
  const c = text.charCodeAt(i);
  if (c === 123 || c === 91) {
    if (!isContainer(value) || depth > 300) return -1;
    const isArray = c === 91;
    let index = 0;
    i = skipBlank(text, i + 1);
    if (text.charCodeAt(i) === (isArray ? 93 : 125)) return i + 1;
    for (;;) {
      let key: string;
      if (isArray) key = String(index++);
      else {
        const keyEnd = skipString(text, i);
        key = JSON.parse(text.slice(i, keyEnd)) as string;
        i = skipBlank(text, keyEnd);
        if (text.charCodeAt(i) !== 58) return -1;
        i = skipBlank(text, i + 1);
      }
      const child = (value as Record<string, unknown>)[key];
      const d = text.charCodeAt(i);
      if (d === 45 || (d >= 48 && d <= 57)) {
        let e = i + 1;
        while (e < text.length && /[0-9.eE+-]/.test(text[e])) e++;
        note(value, key, text.slice(i, e), child);
        i = e;
      } else {
        i = walkText(text, i, child, depth + 1);
        if (i < 0) return -1;
      }
      i = skipBlank(text, i);
      const sep = text.charCodeAt(i);
      if (sep === 44) i = skipBlank(text, i + 1);
      else return sep === (isArray ? 93 : 125) ? i + 1 : -1;
    }
  }
  if (c === 34) return skipString(text, i);
  // true, false, null (numbers are read by their container).
  let e = i;
  while (e < text.length && /[a-z]/.test(text[e])) e++;
  return e > i ? e : -1;
}

/**
 * The same over a jsonc-parser tree (JSON with errors, trailing commas or duplicate keys) and the
 * value built from it, whose members are the last of duplicate keys: a tree member is followed
 * only where its kind agrees with the value's.
 */
export function recordExactIntegersFromTree(node: Node, source: string, value: unknown): void {
  if (!isContainer(value) || !LONG_DIGITS.test(source.slice(node.offset, node.offset + node.length))) return;
  const stack: [Node, unknown][] = [[node, value]];
  while (stack.length) {
    const [n, v] = stack.pop()!;
    if (!isContainer(v)) continue;
    const members: [string, Node | undefined][] =
      n.type === 'object' && !Array.isArray(v)
        ? (n.children ?? []).map((p) => [String(p.children?.[0]?.value), p.children?.[1]])
        : n.type === 'array' && Array.isArray(v)
          ? (n.children ?? []).map((child, i) => [String(i), child])
          : [];
    for (const [key, child] of members) {
      if (!child) continue;
      const cv = (v as Record<string, unknown>)[key];
      if (child.type === 'number') note(v, key, source.slice(child.offset, child.offset + child.length), cv);
      else if (child.type === 'object' || child.type === 'array') stack.push([child, cv]);
    }
  }
}

/**
 * The order of two numbers, -1, 0 or 1, each with its big-integer literal where it has one: two
 * whole numbers by their exact values (FORMAT §3b: 12345678901234567890 is below
 * 12345678901234567891, one double apart), anything else by its double. A number with a fraction
 * is below 2^52 in size, where doubles order it exactly against any big integer.
 */
export function compareExact(a: number, aLiteral: string | undefined, b: number, bLiteral: string | undefined): number {
  if (Number.isInteger(a) && Number.isInteger(b)) {
    const x = BigInt(exactNumberText(a, aLiteral));
    const y = BigInt(exactNumberText(b, bLiteral));
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether `value` is a multiple of `divisor` exactly, when both are whole numbers; undefined when
 * either has a fraction (left to the double division every reader does).
 */
export function multipleExact(value: number, valueLiteral: string | undefined, divisor: number, divisorLiteral: string | undefined): boolean | undefined {
  if (!Number.isInteger(value) || !Number.isInteger(divisor) || divisor === 0) return undefined;
  return BigInt(exactNumberText(value, valueLiteral)) % BigInt(exactNumberText(divisor, divisorLiteral)) === 0n;
}

/** Gives `copy` the big-integer literals of `original`, a shallow copy of it (a schema's root, copied before Ajv compiles it). */
export function copyExactIntegers(original: object, copy: object): void {
  const map = anyNoted ? spellings.get(original) : undefined;
  if (map) spellings.set(copy, new Map(map));
}

/**
 * A number as a message shows it: a big integer by its exact digits, unless they are too many to
 * read (`1e300` stays `1e+300`).
 */
export function shownNumber(n: number, literal: string | undefined): string {
  return literal !== undefined && literal.length <= 40 ? literal : String(n);
}
