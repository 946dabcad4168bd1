import { pushTo } from '../text/multimap';

/**
 * Canonical forms of JSON values, so that two signatures or end states that mean the same thing
 * compare equal whatever their layout: object keys sorted, one number form (`1`, `1.0` and `1e0`
 * are one number; `-0` is `0`), strings trimmed at every depth, whitespace between tokens ignored.
 * Strings are never equal to the values they spell: `"1"` is not `1`.
 *
 * Equal canonical strings mean equal values, so callers group by `canonicalize` (a hash map) and
 * never compare all pairs.
 */

/** A JSON object (not an array, not null): what rules check before reading fields of untrusted values. */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The canonical text of a JSON value. `undefined` (an absent field) has no canonical form.
 * Parsed suite values nest at most MAX_NESTING levels, so the recursion is bounded.
 */
export function canonicalize(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return write(value);
}

function write(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.trim());
    case 'number':
      // Every JSON spelling of a number parses to one double, and String(-0) is "0".
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  // Built by concatenation: every case's signature and end states pass through here, and
  // intermediate arrays per value were most of the cost.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + write(value[i]);
    return out + ']';
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length > 1) keys.sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + JSON.stringify(keys[i]) + ':' + write(value[keys[i]]);
    return out + '}';
  }
  return 'null';
}

/**
 * A short, stable hash of the canonical text (two 32-bit FNV-1a lanes), for display and for
 * per-file facts. Grouping uses the canonical text itself, so a hash collision never merges values.
 */
export function canonicalHash(value: unknown): string | undefined {
  const text = canonicalize(value);
  return text === undefined ? undefined : hashText(text);
}

export function hashText(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}

/** Groups items by the canonical form of a value they carry; items without one are left out. */
export function groupByCanonical<T>(items: Iterable<T>, valueOf: (item: T) => unknown): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = canonicalize(valueOf(item));
    if (key === undefined) continue;
    pushTo(groups, key, item);
  }
  return groups;
}
