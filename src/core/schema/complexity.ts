import { isJsonObject } from '../model/canonical';
import { parsePointer } from '../text/pointer';
import { appendAll } from '../text/multimap';
import { exactIntegersOf, exactNumberText } from '../text/exact-numbers';

/**
 * Bounds on a parameter schema before Ajv compiles it and runs it on suite data. Ajv's work is
 * the schema with every `$ref` expanded, not the schema as written: a 1.7 KB chain of `allOf`s that
 * each name the next level twice is 2^24 subschemas deep down, and compiling or running it takes
 * minutes and gigabytes. So the expanded size is counted (each node once, saturating at the
 * limit, `$ref` cycles counted once), and a schema over a bound is "too complex to check".
 */
export const SCHEMA_LIMITS = {
  /** Subschemas with every local `$ref` expanded. */
  maxExpandedNodes: 20_000,
  /** Nesting of subschemas as written. */
  maxDepth: 64,
  /** `$ref`s as written. */
  maxRefs: 1_000,
  /** JSON text of the schema. */
  maxBytes: 1024 * 1024,
} as const;

/** Keywords whose value is a map of subschemas, one subschema, or a list of them (draft-07 and 2020-12). */
const SUB_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
const SUB_ONE = new Set(['items', 'additionalProperties', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema']);
const SUB_LIST = new Set(['prefixItems', 'allOf', 'anyOf', 'oneOf', 'items']);

/** The subschemas directly under a schema object. */
export function childSchemas(schema: Record<string, unknown>): unknown[] {
  const out: unknown[] = [];
  for (const [k, v] of Object.entries(schema)) {
    if (SUB_MAPS.has(k) && isJsonObject(v)) {
      for (const sub of Object.values(v)) if (isJsonObject(sub) || typeof sub === 'boolean') out.push(sub);
    } else if (SUB_LIST.has(k) && Array.isArray(v)) {
      appendAll(out, v);
    } else if (SUB_ONE.has(k) && (isJsonObject(v) || typeof v === 'boolean')) {
      out.push(v);
    }
  }
  return out;
}

export type Complexity = { ok: true } | { ok: false; reason: string };

/** Where a local `$ref` (`#/json/pointer`) leads inside `root`; undefined for any other reference. */
function localTarget(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let tokens: string[] | undefined;
  try {
    tokens = parsePointer(decodeURIComponent(ref.slice(1)));
  } catch {
    return undefined;
  }
  let v: unknown = root;
  for (const t of tokens ?? []) {
    if (Array.isArray(v)) v = v[Number(t)];
    else if (isJsonObject(v) && Object.prototype.hasOwnProperty.call(v, t)) v = v[t];
    else return undefined;
  }
  return v;
}

/**
 * Whether Ajv may compile `schema` and run it: within SCHEMA_LIMITS, or why not. Iterative where
 * it follows the written tree, so a deep schema cannot overflow the stack here.
 */
export function schemaComplexity(schema: unknown): Complexity {
  const size = schemaSize(schema);
  return size.ok ? schemaStructure(schema) : size;
}

/** The length bound alone: the one bound annotations count towards. */
export function schemaSize(schema: unknown): Complexity {
  if (!isJsonObject(schema)) return { ok: true };
  let bytes: number;
  try {
    bytes = JSON.stringify(schema).length;
  } catch {
    return { ok: false, reason: 'it cannot be written as JSON' };
  }
  if (bytes > SCHEMA_LIMITS.maxBytes) return { ok: false, reason: `it is ${bytes} characters long (limit ${SCHEMA_LIMITS.maxBytes})` };
  return { ok: true };
}

/**
 * The depth, `$ref` and expansion bounds. They follow subschema keywords only, so two schemas that
 * differ in their annotations alone (compile.ts's cache key) are within them or over them alike.
 */
export function schemaStructure(schema: unknown): Complexity {
  if (!isJsonObject(schema)) return { ok: true };

  // Depth and `$ref` count, over the tree as written.
  let refs = 0;
  const stack: [unknown, number][] = [[schema, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (!isJsonObject(node)) continue;
    if (depth > SCHEMA_LIMITS.maxDepth) return { ok: false, reason: `its subschemas nest more than ${SCHEMA_LIMITS.maxDepth} levels deep` };
    if (typeof node.$ref === 'string' || typeof node.$dynamicRef === 'string' || typeof node.$recursiveRef === 'string') {
      if (++refs > SCHEMA_LIMITS.maxRefs) return { ok: false, reason: `it has more than ${SCHEMA_LIMITS.maxRefs} $refs` };
    }
    for (const c of childSchemas(node)) stack.push([c, depth + 1]);
  }

  // Expanded size: a node counts itself, its subschemas and what its `$ref` names, once each per
  // node (memoised), saturating just above the limit so the numbers stay small.
  const limit = SCHEMA_LIMITS.maxExpandedNodes;
  const size = new Map<object, number>();
  const onPath = new Set<object>();
  // Depth of this recursion is bounded by maxDepth times the chain of distinct refs, each node
  // entered once: it is at most the number of nodes, which the walk above bounded by maxBytes.
  // It runs on an explicit stack all the same.
  type Frame = { node: Record<string, unknown>; children: unknown[]; i: number; total: number };
  const enter = (node: unknown): Frame | number => {
    if (!isJsonObject(node)) return 1;
    const known = size.get(node);
    if (known !== undefined) return known;
    // A cycle: Ajv compiles the target once and calls it; its size is counted where it starts.
    if (onPath.has(node)) return 1;
    onPath.add(node);
    const children = childSchemas(node);
    const ref = typeof node.$ref === 'string' ? localTarget(schema, node.$ref) : undefined;
    if (ref !== undefined) children.push(ref);
    return { node, children, i: 0, total: 1 };
  };
  const first = enter(schema);
  if (typeof first === 'number') return { ok: true };
  const frames: Frame[] = [first];
  let result = 0;
  while (frames.length) {
    const f = frames[frames.length - 1];
    if (f.i < f.children.length && f.total <= limit) {
      const next = enter(f.children[f.i++]);
      if (typeof next === 'number') f.total = Math.min(limit + 1, f.total + next);
      else frames.push(next);
      continue;
    }
    frames.pop();
    onPath.delete(f.node);
    size.set(f.node, f.total);
    const parent = frames[frames.length - 1];
    if (parent) parent.total = Math.min(limit + 1, parent.total + f.total);
    else result = f.total;
  }
  if (result > limit) return { ok: false, reason: `with its $refs expanded it has more than ${limit} subschemas` };
  return { ok: true };
}

/**
 * A key equal for values JSON Schema calls equal (`uniqueItems`, `enum`): object keys sorted,
 * strings exact, numbers by value. Built iteratively, so a deep value cannot overflow the stack.
 */
class KeyMark {
  constructor(readonly text: string) {}
}

const CLOSE_ARRAY = Symbol('a');
const CLOSE_OBJECT = Symbol('o');
const COMMA = Symbol(',');

export function equalityKey(value: unknown): string {
  // Most keys are of an enum's strings: no stack for them (a tool file's enums are keyed in bulk).
  if (typeof value !== 'object' || value === null) return primitiveKey(value);
  let out = '';
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (v === CLOSE_ARRAY) out += ']';
    else if (v === CLOSE_OBJECT) out += '}';
    else if (v === COMMA) out += ',';
    else if (v instanceof KeyMark) out += v.text;
    else if (Array.isArray(v)) {
      out += '[';
      stack.push(CLOSE_ARRAY);
      const exact = exactIntegersOf(v);
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push(memberOf(v[i], exact, String(i)));
        if (i > 0) stack.push(COMMA);
      }
    } else if (isJsonObject(v)) {
      out += '{';
      stack.push(CLOSE_OBJECT);
      const exact = exactIntegersOf(v);
      const keys = Object.keys(v).sort();
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push(memberOf(v[keys[i]], exact, keys[i]));
        stack.push(new KeyMark(JSON.stringify(keys[i]) + ':'));
        if (i > 0) stack.push(COMMA);
      }
    } else out += primitiveKey(v);
  }
  return out;
}

/** A member as keyed: a big integer by the digits its literal spelled (a double rounds them). */
function memberOf(v: unknown, exact: ReadonlyMap<string, string> | undefined, key: string): unknown {
  const literal = typeof v === 'number' ? exact?.get(key) : undefined;
  return literal === undefined ? v : new KeyMark(literal);
}

function primitiveKey(v: unknown): string {
  return typeof v === 'number' ? exactNumberText(v) : (JSON.stringify(v) ?? 'null');
}

/**
 * JSON equality: a primitive is equal to what is `===` to it, an object or array by equalityKey.
 * Integers compare exactly at any size (FORMAT §3b), as Python's scorer would: a number's literal,
 * kept by its container (text/exact-numbers.ts), is passed beside it where the caller has one.
 */
export function sameJson(a: unknown, b: unknown, aLiteral?: string, bLiteral?: string): boolean {
  if (typeof a === 'number' && typeof b === 'number' && (aLiteral !== undefined || bLiteral !== undefined)) return exactNumberText(a, aLiteral) === exactNumberText(b, bLiteral);
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  return equalityKey(a) === equalityKey(b);
}

/** Whether `value` is JSON-equal to an item of `list` (an `enum`): each object item keyed once per call. */
export function jsonIn(list: readonly unknown[], value: unknown, literal?: string): boolean {
  if (typeof value === 'number') {
    const exact = exactIntegersOf(list);
    if (exact === undefined && literal === undefined) return list.includes(value);
    const text = exactNumberText(value, literal);
    return list.some((e, i) => typeof e === 'number' && exactNumberText(e, exact?.get(String(i))) === text);
  }
  if (typeof value !== 'object' || value === null) return list.includes(value);
  const key = equalityKey(value);
  return list.some((e) => typeof e === 'object' && e !== null && equalityKey(e) === key);
}

/** The first pair of equal items (by equalityKey), as Ajv reports it: `j` the earlier index. */
export function firstDuplicate(items: readonly unknown[]): { i: number; j: number } | undefined {
  const seen = new Map<string, number>();
  for (let i = 0; i < items.length; i++) {
    const key = equalityKey(items[i]);
    const j = seen.get(key);
    if (j !== undefined) return { i, j };
    seen.set(key, i);
  }
  return undefined;
}

/**
 * A copy of the schema for the meta-schema check, whose compiled validators compare `enum` (draft-07)
 * and `type` items pairwise. Uniqueness is decided here by hashing; an enum that passes keeps one
 * item (the meta-schema asks nothing else of its items). Undefined when the schema already fails:
 * a duplicate enum value (draft-07), or a `type` list longer than the seven type names.
 */
export function forMetaCheck(schema: unknown, enumUnique: boolean): unknown {
  const copy = (node: unknown, depth: number): unknown => {
    if (!isJsonObject(node) || depth > SCHEMA_LIMITS.maxDepth + 1) return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'type' && Array.isArray(v) && v.length > 7) throw new RangeError('type');
      if (k === 'enum' && Array.isArray(v) && v.length > 1) {
        if (enumUnique && firstDuplicate(v)) throw new RangeError('enum');
        out[k] = enumUnique ? [v[0]] : v;
      } else if (SUB_MAPS.has(k) && isJsonObject(v)) {
        const m: Record<string, unknown> = {};
        for (const [name, sub] of Object.entries(v)) m[name] = copy(sub, depth + 1);
        out[k] = m;
      } else if (SUB_LIST.has(k) && Array.isArray(v)) {
        out[k] = v.map((sub) => copy(sub, depth + 1));
      } else if (SUB_ONE.has(k)) {
        out[k] = copy(v, depth + 1);
      } else {
        out[k] = v;
      }
    }
    return out;
  };
  try {
    return copy(schema, 0);
  } catch {
    return undefined;
  }
}
