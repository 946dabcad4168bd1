import { isJsonObject } from '../model/canonical';
import { compileLinear } from '../text/regex';
import { firstDuplicate, jsonIn, sameJson, schemaSize } from './complexity';
import { ANNOTATIONS, annotationWellTyped } from './compile';
import { compareExact, exactIntegerAt, exactIntegersOf } from '../text/exact-numbers';

/**
 * A check that a value passes a *plain* schema, without compiling it. Ajv compiles each schema to
 * code before its first use (a fresh function, ~0.3 ms and a few KB kept for as long as the schema
 * is), and a lint has a schema per tool and per action pattern: compiling was most of
 * `unsatisfiable-safe-completion`, and a suite whose every case has its own `respond` pattern
 * compiled one validator a case. Most of these schemas use a few keywords whose meaning is the same
 * in draft-07 and 2020-12.
 *
 * `plainlyAccepts`: `true` only when the schema is plain (below) and the value passes it; `false`
 * means "ask Ajv", never "rejected": every finding, and every word of its message, comes from Ajv.
 * `plainPredicate`: the schema as a yes/no test, where a plain schema (patterns allowed) decides
 * alike with Ajv, which a property test holds it to.
 */

const TYPES = new Set(['null', 'boolean', 'integer', 'number', 'string', 'array', 'object']);
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties']);
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);
/** Far inside complexity.ts's bounds, so a plain schema is never "too complex to check". */
const MAX_DEPTH = 32;
const MAX_NODES = 2_000;

type Schema = Record<string, unknown> | boolean;

/** Names a plain object could inherit: left to Ajv rather than reasoned about here. */
function inheritedName(name: string): boolean {
  return name === '__proto__' || name in Object.prototype;
}

function plainSub(v: unknown): v is Schema {
  return typeof v === 'boolean' || isJsonObject(v);
}

/**
 * Every keyword of the schema, at every depth, is one this file implements exactly, and is well
 * typed (Ajv refuses a schema that is not, which a predicate must say). With `patterns`, `pattern`
 * too, when RE2 runs it (one RE2 cannot run makes the predicate "unrunnable", compile.ts's to say).
 */
function plainTree(schema: Schema, depth: number, budget: { left: number }, patterns: boolean): boolean {
  if (typeof schema === 'boolean') return true;
  if (depth > MAX_DEPTH || --budget.left < 0) return false;
  for (const k in schema) {
    const v = schema[k];
    // Annotations change nothing Ajv accepts; nor does `format`, with formats off (compile.ts).
    if (ANNOTATIONS.has(k)) {
      if (!annotationWellTyped(k, v)) return false;
      continue;
    }
    if (k === 'format') {
      if (typeof v !== 'string') return false;
      continue;
    }
    if (k === 'pattern') {
      if (!patterns || typeof v !== 'string' || !compileLinear(v, 'u').ok) return false;
      continue;
    }
    // The root's `$schema` picks Ajv's class (compile.ts); for these keywords the drafts agree.
    if (k === '$schema' && depth === 1 && typeof v === 'string') continue;
    if (k === 'type') {
      const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : undefined;
      if (!list || list.length === 0 || !list.every((t) => typeof t === 'string' && TYPES.has(t)) || new Set(list).size !== list.length) return false;
    } else if (k === 'properties') {
      if (!isJsonObject(v)) return false;
      for (const name in v) {
        const sub = v[name];
        if (inheritedName(name) || !plainSub(sub) || !plainTree(sub, depth + 1, budget, patterns)) return false;
      }
    } else if (k === 'additionalProperties' || k === 'items') {
      if (!plainSub(v) || !plainTree(v, depth + 1, budget, patterns)) return false;
    } else if (k === 'required') {
      if (!Array.isArray(v) || !v.every((n) => typeof n === 'string' && !inheritedName(n)) || new Set(v).size !== v.length) return false;
    } else if (k === 'enum') {
      // Draft-07's meta-schema wants enum values unique (compile.ts): a duplicate is left to Ajv.
      if (!Array.isArray(v) || v.length === 0 || firstDuplicate(v) !== undefined) return false;
    } else if (k === 'const') {
      continue;
    } else if (COUNTS.has(k)) {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return false;
    } else if (BOUNDS.has(k)) {
      if (typeof v !== 'number' || !Number.isFinite(v)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/** Per schema object, with patterns and without: plain or not (a tool's schema is asked once per step of every case using it). */
const plainness = [new WeakMap<object, boolean>(), new WeakMap<object, boolean>()];

function isPlain(schema: Schema, patterns: boolean): boolean {
  if (typeof schema === 'boolean') return true;
  const memo = plainness[patterns ? 1 : 0];
  let known = memo.get(schema);
  if (known === undefined) {
    known = schemaSize(schema).ok && plainTree(schema, 1, { left: MAX_NODES }, patterns);
    memo.set(schema, known);
  }
  return known;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'array':
      return Array.isArray(value);
    default:
      return isJsonObject(value);
  }
}

/** Unicode code points, as Ajv counts a string's length. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    n++;
  }
  return n;
}

/** The bound keywords, each with the orders it allows of the value against the bound. */
const BOUND_ORDERS: readonly (readonly [string, number, number])[] = [
  ['minimum', 0, 1],
  ['maximum', -1, 0],
  ['exclusiveMinimum', 1, 1],
  ['exclusiveMaximum', -1, -1],
];

/** Whether `value` is within the schema's bounds, a big integer (value or bound) by its exact value. */
function withinExactly(schema: Record<string, unknown>, value: number, literal: string | undefined, bounds: ReadonlyMap<string, string> | undefined): boolean {
  for (const [k, lo, hi] of BOUND_ORDERS) {
    const b = schema[k];
    if (typeof b !== 'number') continue;
    const order = compareExact(value, literal, b, bounds?.get(k));
    if (order < lo || order > hi) return false;
  }
  return true;
}

/**
 * Whether `value` passes a plain schema: undefined where this file does not decide (an object key
 * that Object.prototype has, left to Ajv). A definite "no" anywhere is the answer, as validation is
 * a conjunction.
 */
function passes(schema: Schema, value: unknown, literal?: string): boolean | undefined {
  if (typeof schema === 'boolean') return schema;
  const t = schema.type;
  if (t !== undefined && !(typeof t === 'string' ? hasType(value, t) : (t as string[]).some((x) => hasType(value, x)))) return false;
  // The equality compile.ts gives Ajv's `enum` and `const` (complexity.ts), so the two cannot disagree.
  // A big integer by its literal on both sides: the value's (from its container), the schema's (from the schema object).
  if (schema.enum !== undefined && !jsonIn(schema.enum as unknown[], value, literal)) return false;
  if ('const' in schema && !sameJson(schema.const, value, typeof schema.const === 'number' ? exactIntegerAt(schema, 'const') : undefined, literal)) return false;
  if (typeof value === 'string') {
    if (schema.minLength !== undefined || schema.maxLength !== undefined) {
      const n = codePoints(value);
      if (n < ((schema.minLength as number | undefined) ?? 0) || n > ((schema.maxLength as number | undefined) ?? Infinity)) return false;
    }
    // Only trees read with patterns hold one, each known to compile (plainTree); Ajv's flag is `u`.
    if (typeof schema.pattern === 'string') {
      const re = compileLinear(schema.pattern, 'u');
      if (!re.ok) return undefined;
      if (!re.re.test(value)) return false;
    }
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return false;
    // Doubles order every pair but two big integers one double apart: those by their literals.
    const bounds = exactIntegersOf(schema);
    if (literal !== undefined || bounds !== undefined) {
      if (!withinExactly(schema, value, literal, bounds)) return false;
    } else {
      if (schema.minimum !== undefined && !(value >= (schema.minimum as number))) return false;
      if (schema.maximum !== undefined && !(value <= (schema.maximum as number))) return false;
      if (schema.exclusiveMinimum !== undefined && !(value > (schema.exclusiveMinimum as number))) return false;
      if (schema.exclusiveMaximum !== undefined && !(value < (schema.exclusiveMaximum as number))) return false;
    }
  } else if (Array.isArray(value)) {
    if (value.length < ((schema.minItems as number | undefined) ?? 0) || value.length > ((schema.maxItems as number | undefined) ?? Infinity)) return false;
    const items = schema.items as Schema | undefined;
    let open = false;
    if (items !== undefined && items !== true) {
      const exact = exactIntegersOf(value);
      for (let i = 0; i < value.length; i++) {
        const r = passes(items, value[i], exact?.get(String(i)));
        if (r === false) return false;
        if (r === undefined) open = true;
      }
    }
    if (open) return undefined;
  } else if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length < ((schema.minProperties as number | undefined) ?? 0) || keys.length > ((schema.maxProperties as number | undefined) ?? Infinity)) return false;
    for (const name of (schema.required as string[] | undefined) ?? []) if (value[name] === undefined) return false;
    const props = schema.properties as Record<string, Schema> | undefined;
    const extra = schema.additionalProperties as Schema | undefined;
    let open = false;
    for (const k of keys) {
      if (inheritedName(k)) {
        open = true;
        continue;
      }
      const sub = props !== undefined && Object.prototype.hasOwnProperty.call(props, k) ? props[k] : extra;
      if (sub === undefined || sub === true) continue;
      const r = passes(sub, value[k], exactIntegerAt(value, k));
      if (r === false) return false;
      if (r === undefined) open = true;
    }
    if (open) return undefined;
  }
  return true;
}

/**
 * Whether `schema` is plain, so valid JSON Schema under every draft the linter reads: each keyword
 * is one this file implements and well typed, as both meta-schemas ask (plainTree). The meta-schema
 * check of a parameter schema is asked of the others only: most tools' schemas are plain, and the
 * meta-schema's validator is a slow way to say so of thousands of them.
 */
export function isPlainSchema(schema: unknown): boolean {
  return plainSub(schema) && (isPlain(schema, false) || isPlain(schema, true));
}

/** True when `schema` is plain and `value` passes it: Ajv would accept it and report nothing. */
export function plainlyAccepts(schema: unknown, value: unknown): boolean {
  return plainSub(schema) && isPlain(schema, false) && passes(schema, value) === true;
}

/**
 * A plain schema, `pattern` allowed, as a test that needs no compiling: its answer, or undefined
 * where Ajv must decide. Undefined for a schema that is not plain.
 */
export function plainPredicate(schema: unknown): ((value: unknown) => boolean | undefined) | undefined {
  if (!plainSub(schema) || !isPlain(schema, true)) return undefined;
  return (value) => passes(schema, value);
}
