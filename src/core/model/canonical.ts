import { exactIntegerAt, exactIntegersOf, exactNumberText } from '../text/exact-numbers';
import { flat, pushTo } from '../text/multimap';

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

function sameExactIntegers(a: ReadonlyMap<string, string> | undefined, b: ReadonlyMap<string, string> | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/**
 * Equal JSON values with their keys in the same order: what `JSON.stringify` writes alike. Stricter
 * than canonical equality, for callers that show or send a value as it was written.
 */
export function sameOrderedJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // Big integers one double apart are `===`: their literals tell them apart (a tool's schema
  // edited from `maximum: 12345678901234567890` to ...891 is a new schema, not the model read before).
  if (!sameExactIntegers(exactIntegersOf(a), exactIntegersOf(b))) return false;
  if (Array.isArray(a)) {
    const list = b as unknown[];
    return a.length === list.length && a.every((x, i) => sameOrderedJson(x, list[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.every((k, i) => k === kb[i] && sameOrderedJson(ra[k], rb[k]));
}

/**
 * The canonical text of a JSON value. `undefined` (an absent field) has no canonical form.
 * Parsed suite values nest at most MAX_NESTING levels, so the recursion is bounded.
 */
export function canonicalize(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return write(value);
}

/**
 * One text per number, as a scorer with exact integers (Python's `json`) compares them: an integer
 * literal past 2^53 by its own digits (the parser keeps them, text/exact-numbers.ts), any other
 * number by the double it parses to (`1`, `1.0`, `1e0` are one number, `-0` is `0`), written out in
 * full when it is a whole number past 2^53, so that `1e20` and `100000000000000000000` agree as
 * Python's `1e20 == 10**20` does.
 */
function numberText(n: number, literal: string | undefined): string {
  return exactNumberText(n, literal);
}

/** A member's canonical text, its container's big-integer literals at hand. */
function member(value: unknown, exact: ReadonlyMap<string, string> | undefined, key: string): string {
  return typeof value === 'number' && exact ? numberText(value, exact.get(key)) : write(value);
}

function write(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value.trim());
    case 'number':
      return numberText(value, undefined);
    case 'bigint':
      return value.toString();
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  // Built by concatenation: every case's signature and end states pass through here, and
  // intermediate arrays per value were most of the cost.
  if (Array.isArray(value)) {
    const exact = exactIntegersOf(value);
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (exact ? member(value[i], exact, String(i)) : write(value[i]));
    return out + ']';
  }
  if (isJsonObject(value)) {
    const exact = exactIntegersOf(value);
    const keys = Object.keys(value);
    if (keys.length > 1) sortKeys(keys);
    let out = '{';
    for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + JSON.stringify(keys[i]) + ':' + (exact ? member(value[keys[i]], exact, keys[i]) : write(value[keys[i]]));
    return out + '}';
  }
  return 'null';
}

/**
 * Sorts an object's keys as `sort()` does (by UTF-16 code units; keys are distinct). Most objects
 * written here have a handful of keys, and `sort()` allocates a work array for each: a lint
 * writes tens of thousands of signatures and end states.
 */
function sortKeys(keys: string[]): void {
  if (keys.length > 12) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = k;
  }
}

/**
 * `container[key]` for canonical comparison: a member that is an integer literal past 2^53 comes
 * back as a `bigint` of its exact digits (canonical forms read it; nothing else should). Callers
 * that compare a field on its own (a signature, an argument) read it through here, since the
 * literal is kept by the container that holds it.
 */
export function fieldValue(container: unknown, key: string | number): unknown {
  if (typeof container !== 'object' || container === null) return undefined;
  const value = (container as Record<string, unknown>)[key];
  if (typeof value !== 'number' || Number.isSafeInteger(value)) return value;
  const literal = exactIntegerAt(container, String(key));
  return literal === undefined ? value : BigInt(literal);
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

/**
 * What the suite's shared rubric does not score (FORMAT §3b), from `litmus.config.json`: keys it
 * ignores at any depth, whether it scores every list as a multiset, whether it folds the case of
 * string values (never of object keys).
 */
export interface Rubric {
  ignoreKeys: readonly string[];
  unorderedArrays: boolean;
  foldCase: boolean;
}

export const PLAIN_RUBRIC: Rubric = Object.freeze({ ignoreKeys: Object.freeze([]) as readonly string[], unorderedArrays: false, foldCase: false });

/** One text per distinct rubric: rubrics that score alike share it, whatever order their keys are listed in. */
export function rubricId(r: Rubric): string {
  if (!r.unorderedArrays && !r.foldCase && r.ignoreKeys.length === 0) return '';
  // A config's rubric is one object, asked for its id for every signature and end state compared.
  let id = rubricIds.get(r);
  if (id === undefined) rubricIds.set(r, (id = JSON.stringify([[...new Set(r.ignoreKeys)].sort(), r.unorderedArrays, r.foldCase])));
  return id;
}

const rubricIds = new WeakMap<Rubric, string>();

/** Whether a rubric scores anything differently from plain canonical equality. */
export function isPlainRubric(r: Rubric): boolean {
  return rubricId(r) === '';
}

/**
 * Folds the case of a string value. Upper then lower, so that letters whose folds differ in
 * length compare as a rubric that ignores case would (`"STRASSE"` and `"straße"` agree).
 */
function fold(s: string): string {
  return s.toUpperCase().toLowerCase();
}

/**
 * The canonical text of a value under a rubric: rubric-equal values (§3b) have equal texts.
 * Arrays scored as multisets are written with their elements' texts sorted, so equal multisets
 * give one text and grouping stays a hash lookup.
 */
export function canonicalizeUnder(value: unknown, rubric: Rubric): string | undefined {
  if (value === undefined) return undefined;
  if (isPlainRubric(rubric)) return write(value);
  const ignore = new Set(rubric.ignoreKeys);
  const under = (v: unknown, literal?: string): string => {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'string') return JSON.stringify(rubric.foldCase ? fold(v.trim()) : v.trim());
    if (typeof v === 'number') return numberText(v, literal);
    if (typeof v !== 'object') return write(v);
    const exact = exactIntegersOf(v);
    if (Array.isArray(v)) {
      const parts = v.map((x, i) => under(x, exact?.get(String(i))));
      if (rubric.unorderedArrays && parts.length > 1) parts.sort();
      return '[' + parts.join(',') + ']';
    }
    const keys = Object.keys(v).filter((k) => !ignore.has(k));
    if (keys.length > 1) sortKeys(keys);
    let out = '{';
    for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + JSON.stringify(keys[i]) + ':' + under((v as Record<string, unknown>)[keys[i]], exact?.get(keys[i]));
    return out + '}';
  };
  return under(value);
}

/**
 * The canonical text of each object value indexed under a rubric, kept for the last rubric it was
 * written under: an edit keeps the values of the cases it did not touch (text/unchanged.ts), and
 * the rubric index of a thousand-case file wrote every signature again on every edit.
 */
const keptTexts = new WeakMap<object, { id: string; text: string | undefined }>();

function keptTextUnder(value: unknown, rubric: Rubric, id: string): string | undefined {
  if (typeof value !== 'object' || value === null) return canonicalizeUnder(value, rubric);
  const kept = keptTexts.get(value);
  if (kept && kept.id === id) return kept.text;
  const written = canonicalizeUnder(value, rubric);
  const text = written === undefined ? undefined : flat(written);
  keptTexts.set(value, { id, text });
  return text;
}

/**
 * Whether two values are rubric-equal, each under its own rubric (§3b): equal under both. What a
 * `rubricIndex` lookup finds, for a caller comparing a handful of values, where building an index
 * costs more than the comparisons.
 */
export function rubricEqual(a: unknown, ra: Rubric, b: unknown, rb: Rubric): boolean {
  // Written afresh, not kept per value: at 100,000 cases the end states' texts would be 11 MB more
  // held through the lint, for 2 ms.
  const underA = canonicalizeUnder(a, ra);
  if (underA === undefined || underA !== canonicalizeUnder(b, ra)) return false;
  return rubricId(ra) === rubricId(rb) || canonicalizeUnder(a, rb) === canonicalizeUnder(b, rb);
}

/**
 * Finds values rubric-equal to a query among indexed items, each item under its own rubric. Two
 * values under different rubrics are rubric-equal only when they are equal under both (§3b), so an
 * item of rubric J matches a query of rubric Q when their texts agree under Q and under J: items are
 * grouped by that pair of texts, built once per (J, Q) the first time a query of rubric Q comes, and
 * every lookup is a hash probe per distinct rubric of the workspace (usually one).
 */
export interface RubricIndex<T> {
  /**
   * The buckets of items rubric-equal to `value` under `rubric`, one per distinct item rubric that
   * has a match: disjoint, each in the order the items were given, shared between lookups (do not
   * modify them).
   */
  lookup(value: unknown, rubric: Rubric): T[][];
  /**
   * The same for an indexed item's own value under its own rubric (the item itself included).
   * `at`, the item's position among the items given, spares the lookup of its place for a caller
   * walking the same list (a wrong position is ignored); so for `alone` and `keyOf`.
   */
  matchesOf(item: T, at?: number): T[][];
  /**
   * Whether no other item is rubric-equal to an indexed item's value (an item without a value is
   * alone too): `matchesOf` would give one bucket holding the item only, or none.
   */
  alone(item: T, at?: number): boolean;
  /** The canonical text of an item's value under its own rubric. */
  keyOf(item: T, at?: number): string | undefined;
}

export function rubricIndex<T>(items: Iterable<T>, valueOf: (item: T) => unknown, rubricOf: (item: T) => Rubric): RubricIndex<T> {
  // Built per family by some rules (a thousand small indexes a lint), so a group holds its own
  // texts and buckets directly, and the maps for other rubrics and for items come when first asked.
  interface Group {
    id: string;
    rubric: Rubric;
    items: T[];
    /** Item texts under the group's own rubric. */
    own: (string | undefined)[];
    /** Item texts under other rubrics asked about, by rubric id. */
    textsBy?: Map<string, (string | undefined)[]>;
    /** Buckets for queries of the group's own rubric. */
    ownBuckets?: Map<string, T[]>;
    /** Buckets for queries of other rubrics, by rubric id. */
    bucketsBy?: Map<string, Map<string, T[]>>;
  }
  const groups = new Map<string, Group>();
  // Where each item sits, as plain numbers (its group, its index there), not an object per item.
  const ordered: T[] = [];
  const groupAt: Group[] = [];
  const indexAt: number[] = [];
  // The last rubric's id: items come by file, the cases of one config share its rubric, and an id
  // that is not plain is a JSON text.
  let lastRubric: Rubric | undefined;
  let lastId = '';
  for (const item of items) {
    const rubric = rubricOf(item);
    if (rubric !== lastRubric) {
      lastRubric = rubric;
      lastId = rubricId(rubric);
    }
    const id = lastId;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { id, rubric, items: [], own: [] }));
    ordered.push(item);
    groupAt.push(g);
    indexAt.push(g.items.length);
    g.items.push(item);
  }
  for (const g of groups.values()) g.own = g.items.map((item) => keptTextUnder(valueOf(item), g.rubric, g.id));
  const textsUnder = (g: Group, id: string, rubric: Rubric): (string | undefined)[] => {
    if (id === g.id) return g.own;
    g.textsBy ??= new Map();
    let texts = g.textsBy.get(id);
    if (!texts) g.textsBy.set(id, (texts = g.items.map((item) => keptTextUnder(valueOf(item), rubric, id))));
    return texts;
  };
  // The pair of texts in one order (the rubric ids' order), so an item and a query build the same key.
  const pairKey = (q: string, underQ: string, j: string, underJ: string) => (q < j ? `${underQ}\u0000${underJ}` : `${underJ}\u0000${underQ}`);
  const build = (g: Group, q: string, rubric: Rubric): Map<string, T[]> => {
    const buckets = new Map<string, T[]>();
    const own = g.own;
    const other = textsUnder(g, q, rubric);
    for (let i = 0; i < g.items.length; i++) {
      const a = own[i];
      const b = other[i];
      if (a === undefined || b === undefined) continue;
      pushTo(buckets, g.id === q ? a : pairKey(q, b, g.id, a), g.items[i]);
    }
    return buckets;
  };
  const bucketsFor = (g: Group, q: string, rubric: Rubric): Map<string, T[]> => {
    if (g.id === q) return (g.ownBuckets ??= build(g, q, rubric));
    g.bucketsBy ??= new Map();
    let buckets = g.bucketsBy.get(q);
    if (!buckets) g.bucketsBy.set(q, (buckets = build(g, q, rubric)));
    return buckets;
  };
  const find = (q: string, rubric: Rubric, underQ: string, under: (g: Group) => string | undefined): T[][] => {
    const out: T[][] = [];
    for (const g of groups.values()) {
      const underJ = g.id === q ? underQ : under(g);
      if (underJ === undefined) continue;
      const bucket = bucketsFor(g, q, rubric).get(g.id === q ? underQ : pairKey(q, underQ, g.id, underJ));
      if (bucket) out.push(bucket);
    }
    return out;
  };
  let place: Map<T, number> | undefined;
  // A map of every item's place, built only when a caller does not say where an item is.
  const placeOf = (item: T, at: number | undefined): number | undefined => {
    if (at !== undefined && ordered[at] === item) return at;
    if (!place) {
      place = new Map();
      for (let k = 0; k < ordered.length; k++) place.set(ordered[k], k);
    }
    return place.get(item);
  };
  const matchesAt = (k: number): T[][] => {
    const g = groupAt[k];
    const i = indexAt[k];
    const underQ = g.own[i];
    return underQ === undefined ? [] : find(g.id, g.rubric, underQ, (j) => textsUnder(g, j.id, j.rubric)[i]);
  };
  return {
    keyOf: (item, at) => {
      const k = placeOf(item, at);
      return k === undefined ? undefined : groupAt[k].own[indexAt[k]];
    },
    lookup(value, rubric) {
      const underQ = canonicalizeUnder(value, rubric);
      return underQ === undefined ? [] : find(rubricId(rubric), rubric, underQ, (g) => canonicalizeUnder(value, g.rubric));
    },
    matchesOf(item, at) {
      const k = placeOf(item, at);
      return k === undefined ? [] : matchesAt(k);
    },
    alone(item, at) {
      const k = placeOf(item, at);
      if (k === undefined) return true;
      const g = groupAt[k];
      const text = g.own[indexAt[k]];
      if (text === undefined) return true;
      // One rubric (nearly every workspace): the item's own bucket says it, with no list built.
      if (groups.size === 1) return bucketsFor(g, g.id, g.rubric).get(text)!.length === 1;
      const found = matchesAt(k);
      return found.length === 1 && found[0].length === 1;
    },
  };
}
