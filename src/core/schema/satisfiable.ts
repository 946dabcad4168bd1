import { canonicalize, fieldValue, isJsonObject } from '../model/canonical';
import { compileLinear } from '../text/regex';
import { code } from '../text/escape';
import { compareExact, exactIntegersOf, shownNumber } from '../text/exact-numbers';
import type { JsonPath } from '../text/types';

/**
 * Schemas that no value satisfies: a tool's parameter schema, an action pattern's `where` or
 * `respond`. The walk follows only what makes a schema unsatisfiable (required properties, allOf
 * branches, anyOf/oneOf, items) and stops at
 * MAX_DEPTH; `$ref` is not followed, so it cannot loop. One subschema governs many required
 * names (`additionalProperties` does for every undeclared one), so each node is walked once per
 * tool and its answer reused: the work is linear in the schema, and capped at MAX_NODES.
 */
const MAX_DEPTH = 48;
const MAX_PER_SCHEMA = 10;
/** Subschemas walked per tool; past it the rest are taken as satisfiable (no finding, never a false one). */
export const MAX_NODES = 20_000;

/** One tool's walk: answers by node, and what is left of its budget. */
interface Walk {
  memo: Map<object, readonly Culprit[]>;
  left: number;
}

export interface Culprit {
  /** Path, relative to the schema walked, of the keyword value that makes it unsatisfiable. */
  path: JsonPath;
  message: string;
  /** The keyword value it conflicts with, when there is one. */
  related?: { path: JsonPath; message: string };
}

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';
const ALL_TYPES: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

export function typesOf(schema: Record<string, unknown>): Set<JsonType> | undefined {
  const t = schema.type;
  const list = typeof t === 'string' ? [t] : Array.isArray(t) ? t : undefined;
  if (!list) return undefined;
  const out = new Set<JsonType>();
  for (const x of list) if (ALL_TYPES.includes(x as JsonType)) out.add(x as JsonType);
  // `number` admits integers; spelling that out makes intersections simple.
  if (out.has('number')) out.add('integer');
  // An unknown type name is the schema rule's business, not an empty type set.
  return list.every((x) => ALL_TYPES.includes(x as JsonType)) ? out : undefined;
}

function typeOfValue(v: unknown): JsonType {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v as JsonType;
}

function admits(types: Set<JsonType> | undefined, v: unknown): boolean {
  return !types || types.has(typeOfValue(v));
}

// One kind (or two) rather than a rest list: this runs for every node of every schema walked.
function applies(types: Set<JsonType> | undefined, kind: JsonType, or?: JsonType): boolean {
  return !types || types.has(kind) || (or !== undefined && types.has(or));
}

function typeNames(types: Set<JsonType>): string {
  const shown = [...types].filter((t) => !(t === 'integer' && types.has('number')));
  return shown.length ? shown.join(' or ') : 'no type';
}

const show = (v: unknown) => code(JSON.stringify(v) ?? String(v), 40);

/** Lower and upper bounds that must not cross, the type they apply to, and what they count. */
const COUNT_BOUNDS: readonly (readonly [string, string, JsonType, string])[] = [
  ['minLength', 'maxLength', 'string', 'characters'],
  ['minItems', 'maxItems', 'array', 'items'],
  ['minProperties', 'maxProperties', 'object', 'properties'],
  ['minContains', 'maxContains', 'array', 'matching items'],
];

function numberAt(s: Record<string, unknown>, k: string): number | undefined {
  const v = s[k];
  return typeof v === 'number' ? v : undefined;
}

/**
 * Whether `lo` and `hi` leave no number between them; says so in `out` when they do not. Bounds
 * that are big integers compare, and are shown, by their literals (FORMAT §3b): as doubles,
 * `minimum: 12345678901234567891` is not above `maximum: 12345678901234567890`.
 */
function crossed(out: Culprit[], s: Record<string, unknown>, lo: string, a: number | undefined, hi: string, b: number | undefined, strict: boolean): boolean {
  if (a === undefined || b === undefined) return false;
  const exact = exactIntegersOf(s);
  const aText = exact?.get(lo);
  const bText = exact?.get(hi);
  const order = aText !== undefined || bText !== undefined ? compareExact(a, aText, b, bText) : a < b ? -1 : a > b ? 1 : 0;
  if (!(strict ? order >= 0 : order > 0)) return false;
  const [x, y] = [shownNumber(a, aText), shownNumber(b, bText)];
  out.push({ path: [lo], message: `${lo} ${x} is ${strict ? 'not below' : 'above'} ${hi} ${y}: no number is in range; fix the bounds`, related: { path: [hi], message: `${hi} ${y}` } });
  return true;
}

// Runs for every node walked: module-level tables and no closures, so a node costs no allocation.
function checkBounds(s: Record<string, unknown>, types: Set<JsonType> | undefined, out: Culprit[]): void {
  for (const [lo, hi, kind, what] of COUNT_BOUNDS) {
    const a = numberAt(s, lo);
    const b = numberAt(s, hi);
    if (a !== undefined && b !== undefined && a > b && applies(types, kind)) {
      out.push({ path: [lo], message: `${lo} ${a} is above ${hi} ${b}: no value has that many ${what}; lower ${lo} or raise ${hi}`, related: { path: [hi], message: `${hi} ${b}` } });
    }
  }
  if (!applies(types, 'number', 'integer')) return;
  const min = numberAt(s, 'minimum');
  const max = numberAt(s, 'maximum');
  const xmin = numberAt(s, 'exclusiveMinimum');
  const xmax = numberAt(s, 'exclusiveMaximum');
  crossed(out, s, 'minimum', min, 'maximum', max, false) ||
    crossed(out, s, 'exclusiveMinimum', xmin, 'maximum', max, true) ||
    crossed(out, s, 'minimum', min, 'exclusiveMaximum', xmax, true) ||
    crossed(out, s, 'exclusiveMinimum', xmin, 'exclusiveMaximum', xmax, true);
}

function checkValues(s: Record<string, unknown>, types: Set<JsonType> | undefined, out: Culprit[]): void {
  if (types && types.size === 0) out.push({ path: ['type'], message: 'type lists no type: no value can satisfy it' });
  const e = s.enum;
  if (Array.isArray(e)) {
    if (e.length === 0) out.push({ path: ['enum'], message: 'enum is empty: no value can satisfy it; list the allowed values or remove enum' });
    else if (types && !e.some((v) => admits(types, v))) {
      out.push({ path: ['enum'], message: `no enum value is of type ${typeNames(types)}; fix the values or the type`, related: { path: ['type'], message: 'the type' } });
    }
  }
  if ('const' in s) {
    if (!admits(types, s.const)) {
      out.push({ path: ['const'], message: `const ${show(s.const)} is not of type ${typeNames(types!)}; no value can be both`, related: { path: ['type'], message: 'the type' } });
    } else if (Array.isArray(e) && e.length > 0) {
      const key = canonicalize(fieldValue(s, 'const'));
      if (!e.some((_, i) => canonicalize(fieldValue(e, i)) === key)) {
        out.push({ path: ['const'], message: `const ${show(s.const)} is not one of the enum values; no value can satisfy both`, related: { path: ['enum'], message: 'the enum' } });
      }
    }
  }
  if (s.not === true || (isJsonObject(s.not) && Object.keys(s.not).length === 0)) {
    out.push({ path: ['not'], message: '`not` of a schema that accepts everything rejects every value; remove it' });
  }
}

/** The schema that governs property `name` when it is not listed under `properties`; undefined when unsure. */
function undeclaredSchema(w: Walk, s: Record<string, unknown>, name: string): { schema: unknown; path: JsonPath } | undefined {
  if (isJsonObject(s.patternProperties)) {
    for (const [pattern, sub] of Object.entries(s.patternProperties)) {
      // Many required names times many patterns is work too: each test costs one unit.
      if (w.left-- <= 0) return undefined;
      // Matched in linear time; a pattern RE2 cannot run leaves the answer unknown.
      const compiled = compileLinear(pattern, 'u');
      if (!compiled.ok) return undefined;
      if (compiled.re.test(name)) return { schema: sub, path: ['patternProperties', pattern] };
    }
  }
  return 'additionalProperties' in s ? { schema: s.additionalProperties, path: ['additionalProperties'] } : undefined;
}

function prefixed(prefix: JsonPath, c: Culprit, lead: string): Culprit {
  return {
    path: [...prefix, ...c.path],
    message: `${lead}${c.message}`,
    related: c.related ? { path: [...prefix, ...c.related.path], message: c.related.message } : undefined,
  };
}

function checkRequired(w: Walk, s: Record<string, unknown>, types: Set<JsonType> | undefined, depth: number, out: Culprit[]): void {
  if (!Array.isArray(s.required) || !applies(types, 'object')) return;
  const props = isJsonObject(s.properties) ? s.properties : {};
  for (let i = 0; i < s.required.length; i++) {
    // The first culprits are all that is kept, and the budget bounds a list of a million names.
    if (out.length >= MAX_PER_SCHEMA || w.left <= 0) return;
    const name: unknown = s.required[i];
    if (typeof name !== 'string') continue;
    const declared = Object.prototype.hasOwnProperty.call(props, name);
    const governing = declared ? { schema: props[name], path: ['properties', name] } : undeclaredSchema(w, s, name);
    if (!governing) continue;
    if (governing.schema === false) {
      const where = governing.path[0] === 'additionalProperties' ? '`additionalProperties: false` forbids it (it is not under properties)' : `its schema at ${code(governing.path.join('/'))} is \`false\``;
      out.push({
        path: ['required', i],
        message: `required property ${code(name)} can never be given: ${where}; declare it under properties or drop it from required`,
        related: { path: governing.path, message: 'forbids it' },
      });
      continue;
    }
    for (const c of walkNode(w, governing.schema, depth + 1)) out.push(prefixed(governing.path, c, `required property ${code(name)}: `));
  }
}

function checkBranches(w: Walk, s: Record<string, unknown>, types: Set<JsonType> | undefined, depth: number, out: Culprit[]): void {
  if (Array.isArray(s.allOf)) {
    let common = types;
    s.allOf.forEach((branch, j) => {
      if (branch === false) {
        out.push({ path: ['allOf', j], message: 'an allOf branch is `false`: no value can satisfy it' });
        return;
      }
      if (!isJsonObject(branch)) return;
      const t = typesOf(branch);
      if (t && common) {
        const before = common;
        const next = new Set([...before].filter((x) => t.has(x)));
        if (next.size === 0 && t.size > 0 && before.size > 0) {
          out.push({
            path: ['allOf', j, 'type'],
            message: `allOf branch ${j} requires type ${typeNames(t)}, incompatible with ${typeNames(before)} required elsewhere; no value has both types`,
          });
        }
        common = next;
      } else if (t) {
        common = t;
      }
      for (const c of walkNode(w, branch, depth + 1)) out.push(prefixed(['allOf', j], c, ''));
    });
  }
  for (const kw of ['anyOf', 'oneOf'] as const) {
    const list = s[kw];
    if (!Array.isArray(list)) continue;
    if (list.length > 0 && list.every((b) => walkNode(w, b, depth + 1).length > 0)) {
      out.push({ path: [kw], message: `no branch of ${kw} can be satisfied; fix the branches` });
    }
  }
  if (s.items !== undefined && s.prefixItems === undefined && typeof s.minItems === 'number' && s.minItems >= 1 && applies(types, 'array')) {
    if (s.items === false) out.push({ path: ['items'], message: `items is \`false\` but minItems is ${s.minItems}: no array can satisfy both` });
    else for (const c of walkNode(w, s.items, depth + 1)) out.push(prefixed(['items'], c, `every item (minItems ${s.minItems}): `));
  }
}

/** No culprit: shared by every satisfiable node (answers are read, never changed). */
// Read-only by its type, not frozen: a frozen list has another elements kind, which would make the
// loops over answers see two kinds where they saw one.
const NONE: readonly Culprit[] = [];

function walkNode(w: Walk, schema: unknown, depth: number): readonly Culprit[] {
  if (depth > MAX_DEPTH) return NONE;
  if (schema === false) return [{ path: [], message: 'the schema is `false`: no value can satisfy it' }];
  if (!isJsonObject(schema)) return NONE;
  const hit = w.memo.get(schema);
  if (hit) return hit;
  if (w.left <= 0) return NONE;
  w.left--;
  // Marked before the walk: a node met again inside itself (never in parsed JSON) reads as satisfiable.
  w.memo.set(schema, NONE);
  const types = typesOf(schema);
  const out: Culprit[] = [];
  checkValues(schema, types, out);
  checkBounds(schema, types, out);
  checkRequired(w, schema, types, depth, out);
  checkBranches(w, schema, types, depth, out);
  // Nearly every node is satisfiable: the shared empty answer, and no copy of a short list.
  const result = out.length === 0 ? NONE : out.length > MAX_PER_SCHEMA ? out.slice(0, MAX_PER_SCHEMA) : out;
  w.memo.set(schema, result);
  return result;
}

/** Every reason the schema can never be satisfied (capped); empty when it can be, or when unsure. */
export function unsatisfiable(schema: unknown): readonly Culprit[] {
  return walkNode({ memo: new Map(), left: MAX_NODES }, schema, 0);
}

