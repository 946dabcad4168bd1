import Ajv2020 from 'ajv/dist/2020';
import Ajv, { type AnySchemaObject, type ErrorObject, type ValidateFunction } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types';
import { compareExact, copyExactIntegers, exactIntegerAt, holdsExactIntegers, multipleExact, shownNumber } from '../text/exact-numbers';
import { isJsonObject } from '../model/canonical';
import { metaSchema07 } from './generated/meta-07';
import { metaSchema2020 } from './generated/meta-2020';
import { firstDuplicate, forMetaCheck, jsonIn, sameJson, schemaSize, schemaStructure } from './complexity';
import { compileLinear } from '../text/regex';

/**
 * JSON Schemas written in suite files (tool parameter schemas, the `where` and `respond` schemas of
 * action patterns) compiled with Ajv, bounded and with every pattern on RE2: the one compiler every
 * stage above uses, so a schema validates alike wherever it is read.
 */

const MAX_CACHED = 256;
/**
 * The keys' length the cache may hold, all entries together. A count alone bounds nothing: one
 * schema with a 60,000-value enum has a key of ~1 MB, and its validator keeps the schema too.
 */
const MAX_CACHED_CHARS = 4 * 1024 * 1024;
let cachedChars = 0;

/** Patterns RE2 cannot run, met while the schema being compiled now was compiled. */
let compiling: Map<string, string> | undefined;

/**
 * Every `pattern` and `patternProperties` runs on RE2 (linear time). One it cannot run (a
 * back-reference, a look-around) is taken to match, so it can neither hang the lint nor raise a
 * false alarm, and the rule says it was not checked.
 */
const linearRegExp = Object.assign(
  (pattern: string, flags: string) => {
    const compiled = compileLinear(pattern, flags);
    // Ajv keys compiled patterns by `toString()` in a scope shared by every schema it compiles:
    // each pattern needs its own key, or one pattern's test would stand in for all the others.
    const key = `/${pattern}/${flags}`;
    if (compiled.ok) return { test: (text: string) => compiled.re.test(text), toString: () => key };
    compiling?.set(pattern, compiled.reason);
    return { test: () => true, toString: () => `${key} (not checked)` };
  },
  { code: 'litmusLinearRegExp' },
);
/**
 * Ajv checks a schema against its meta-schema before compiling it, and compiling the meta-schema
 * cost ~40 ms of every lint. The same check runs here on meta-schema validators compiled at build
 * time (scripts/gen-validators.mjs, formats unchecked as below), and Ajv is told to skip its own.
 */
// `inlineRefs: false`: Ajv compiles each referenced schema once and calls it, where inlining
// copies it into every place that names it (a 69 KB schema inlined past V8's heap).
// `addUsedSchema` lets a `$ref: "#"` resolve (a tree of nodes); compileUncached removes what a
// compile added, so no schema's `$id` outlives its compile or clashes with another tool's.
const ajvOptions = { strict: false, allErrors: true, validateFormats: false, validateSchema: false, addUsedSchema: true, logger: false, inlineRefs: false, code: { regExp: linearRegExp } } as const;
let ajv2020: Ajv2020 | undefined;
let ajv07: Ajv | undefined;
/** The same, with exact bounds: for the rare schema that holds a big integer. */
let ajv2020Exact: Ajv2020 | undefined;
let ajv07Exact: Ajv | undefined;
/**
 * Ajv keeps every schema it compiles in a scope shared by all its compiles, removeSchema or not:
 * ~5 KB a schema, and the schema itself, for the life of the instance. The language server
 * compiles for as long as it runs, so an instance is retired after this many compiles, or once
 * the schemas it compiled reach this size (their cache keys' length); the validators it made
 * still work, and live as long as the cache below keeps them.
 */
const COMPILES_PER_INSTANCE = 256;
const CHARS_PER_INSTANCE = 2 * 1024 * 1024;
let compiles = 0;
let compiledChars = 0;

/**
 * Ajv's `uniqueItems` compares every pair of items (a 300 KB argument list: 38 s); this one hashes
 * each item once (schema/complexity.ts equalityKey), with Ajv's own error.
 */
function withLinearUniqueItems<T extends Ajv>(ajv: T): T {
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword({
    keyword: 'uniqueItems',
    type: 'array',
    schemaType: 'boolean',
    errors: true,
    validate: function unique(on: boolean, data: unknown[]): boolean {
      const dup = on ? firstDuplicate(data) : undefined;
      if (!dup) return true;
      (unique as { errors?: Partial<ErrorObject>[] }).errors = [
        { keyword: 'uniqueItems', params: { i: dup.i, j: dup.j }, message: `must NOT have duplicate items (items ## ${dup.j} and ${dup.i} are identical)` },
      ];
      return false;
    },
  });
  return ajv;
}

/**
 * Ajv compares `const` and `enum` values with fast-deep-equal, which calls `valueOf()` on an object
 * that lacks Object's own and so throws on the prototype-less values the parser builds: a tool with
 * `const: {"a": 1}` stopped the rule. These compare by JSON equality instead (complexity.ts, built
 * iteratively, so depth cannot overflow the stack), with Ajv's own errors. Nothing is kept per
 * schema, and there is one function per keyword: Ajv keeps every keyword function it is given in
 * a scope shared by all its compiles.
 */
type Checked = ((allowed: unknown, data: unknown, parentSchema?: AnySchemaObject, cxt?: DataValidationCxt) => boolean) & { errors?: Partial<ErrorObject>[] };
/** A big integer's literal, kept by the object or array that holds the value (text/exact-numbers.ts). */
function dataLiteral(data: unknown, cxt: DataValidationCxt | undefined): string | undefined {
  return typeof data === 'number' && cxt && typeof cxt.parentData === 'object' && cxt.parentData !== null ? exactIntegerAt(cxt.parentData, String(cxt.parentDataProperty)) : undefined;
}
const constant: Checked = (allowed, data, parentSchema, cxt) => {
  const allowedLiteral = typeof allowed === 'number' && parentSchema ? exactIntegerAt(parentSchema, 'const') : undefined;
  if (sameJson(allowed, data, allowedLiteral, dataLiteral(data, cxt))) return true;
  constant.errors = [{ keyword: 'const', params: { allowedValue: allowed }, message: 'must be equal to constant' }];
  return false;
};
const oneOfAllowed: Checked = (allowed, data, _parentSchema, cxt) => {
  if (jsonIn(allowed as unknown[], data, dataLiteral(data, cxt))) return true;
  oneOfAllowed.errors = [{ keyword: 'enum', params: { allowedValues: allowed }, message: 'must be equal to one of the allowed values' }];
  return false;
};
function withJsonEquality<T extends Ajv>(ajv: T): T {
  ajv.removeKeyword('const');
  ajv.addKeyword({ keyword: 'const', errors: true, validate: constant });
  ajv.removeKeyword('enum');
  ajv.addKeyword({ keyword: 'enum', schemaType: 'array', errors: true, validate: oneOfAllowed });
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword({ keyword: 'multipleOf', type: 'number', schemaType: 'number', errors: true, validate: multiple });
  return ajv;
}

/**
 * Integers compare exactly at any size (FORMAT §3b), and doubles round two big integers one
 * double apart to one: 12345678901234567890 passed `minimum: 12345678901234567891`. A bound that
 * is not a big integer orders every value as doubles do, so only a schema holding a big integer
 * is compiled with these (validatorFor): every other keeps Ajv's inline comparisons.
 */
const BOUND_OPS: Record<string, readonly [string, (order: number) => boolean]> = {
  minimum: ['>=', (o) => o >= 0],
  maximum: ['<=', (o) => o <= 0],
  exclusiveMinimum: ['>', (o) => o > 0],
  exclusiveMaximum: ['<', (o) => o < 0],
};
function boundCheck(keyword: string): Checked {
  const [op, holds] = BOUND_OPS[keyword];
  const check: Checked = (limit, data, parentSchema, cxt) => {
    const limitLiteral = parentSchema ? exactIntegerAt(parentSchema, keyword) : undefined;
    const dataLit = dataLiteral(data, cxt);
    const n = data as number;
    const l = limit as number;
    const order = limitLiteral !== undefined || dataLit !== undefined ? compareExact(n, dataLit, l, limitLiteral) : n < l ? -1 : n > l ? 1 : n === l ? 0 : NaN;
    if (holds(order)) return true;
    check.errors = [{ keyword, params: { comparison: op, limit }, message: `must be ${op} ${shownNumber(l, limitLiteral)}` }];
    return false;
  };
  return check;
}
const exactBounds = Object.keys(BOUND_OPS).map((keyword) => [keyword, boundCheck(keyword)] as const);
function withExactBounds<T extends Ajv>(ajv: T): T {
  for (const [keyword, validate] of exactBounds) {
    ajv.removeKeyword(keyword);
    ajv.addKeyword({ keyword, type: 'number', schemaType: 'number', errors: true, validate });
  }
  return ajv;
}

/**
 * Ajv's multipleOf divides as doubles, which call every big integer even; a whole number by whole
 * numbers is checked exactly where either has a big-integer literal, else as Ajv does (the
 * quotient is a whole number).
 */
const multiple: Checked = (divisor, data, parentSchema, cxt) => {
  const dataLit = dataLiteral(data, cxt);
  const divisorLiteral = parentSchema ? exactIntegerAt(parentSchema, 'multipleOf') : undefined;
  const n = data as number;
  const d = divisor as number;
  const exact = dataLit !== undefined || divisorLiteral !== undefined ? multipleExact(n, dataLit, d, divisorLiteral) : undefined;
  const quotient = n / d;
  if (d !== 0 && (exact ?? quotient === parseInt(String(quotient)))) return true;
  multiple.errors = [{ keyword: 'multipleOf', params: { multipleOf: divisor }, message: `must be multiple of ${shownNumber(d, divisorLiteral)}` }];
  return false;
};

/**
 * Draft 2020-12 unless the schema names an older draft (which Ajv's draft-07 class reads); with
 * exact bounds when the schema holds a big integer.
 */
function validatorFor(schema: Record<string, unknown> | boolean, exact: boolean): { ajv: Ajv; isSchema: (body: unknown) => boolean; draft07: boolean } {
  const declared = isJsonObject(schema) && typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(declared)) {
    const ajv = exact ? (ajv07Exact ??= withExactBounds(withJsonEquality(withLinearUniqueItems(new Ajv(ajvOptions))))) : (ajv07 ??= withJsonEquality(withLinearUniqueItems(new Ajv(ajvOptions))));
    return { ajv, isSchema: metaSchema07 as (body: unknown) => boolean, draft07: true };
  }
  const ajv = exact ? (ajv2020Exact ??= withExactBounds(withJsonEquality(withLinearUniqueItems(new Ajv2020(ajvOptions))))) : (ajv2020 ??= withJsonEquality(withLinearUniqueItems(new Ajv2020(ajvOptions))));
  return { ajv, isSchema: metaSchema2020 as (body: unknown) => boolean, draft07: false };
}

/** Keywords that never change what a schema accepts (Ajv runs with `useDefaults` off). */
export const ANNOTATIONS: ReadonlySet<string> = new Set(['description', 'title', 'examples', 'default', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
/** Keywords whose value is a map of subschemas, one subschema, or a list of them. */
const SUB_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SUB_ONE = new Set(['items', 'additionalProperties', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']);
const SUB_LIST = new Set(['prefixItems', 'allOf', 'anyOf', 'oneOf']);
const MAX_DEPTH = 200;

/** An ill-typed annotation makes the schema invalid (Ajv refuses it), so it stays in the key. */
export function annotationWellTyped(keyword: string, v: unknown): boolean {
  if (keyword === 'examples') return Array.isArray(v);
  if (keyword === 'default') return true;
  if (keyword === 'deprecated' || keyword === 'readOnly' || keyword === 'writeOnly') return typeof v === 'boolean';
  return typeof v === 'string';
}

/**
 * The schema without its annotations, walked keyword by keyword so a property that happens to be
 * called `description` is kept. Generated suites give every tool its own examples and defaults;
 * without them most schemas are alike and share one validator. Undefined when the schema cannot be
 * stripped safely: a `$ref` could point into an annotation, or it nests deeper than we walk.
 */
function withoutAnnotations(schema: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new RangeError('deep');
  if (Array.isArray(schema)) return schema.map((s) => withoutAnnotations(s, depth + 1));
  if (!isJsonObject(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k) && annotationWellTyped(k, v)) continue;
    if ((k === '$ref' || k === '$dynamicRef') && typeof v === 'string' && /\/(description|title|examples|default|\$comment|deprecated|readOnly|writeOnly)(\/|$)/.test(v)) throw new RangeError('ref');
    if (SUB_MAPS.has(k) && isJsonObject(v)) {
      const m: Record<string, unknown> = {};
      for (const [name, sub] of Object.entries(v)) m[name] = withoutAnnotations(sub, depth + 1);
      out[k] = m;
    } else if ((SUB_ONE.has(k) || SUB_LIST.has(k)) && (isJsonObject(v) || Array.isArray(v))) {
      out[k] = withoutAnnotations(v, depth + 1);
    } else {
      // enum, const, required and unknown keywords are data, compared as written.
      out[k] = v;
    }
  }
  return out;
}

function cacheKey(schema: Record<string, unknown> | boolean): string {
  try {
    return JSON.stringify(withoutAnnotations(schema));
  } catch {
    return '=' + JSON.stringify(schema);
  }
}

/**
 * What compiling a schema gave: a validator (with the patterns it could not check), a schema over
 * the bounds of schema/complexity.ts, or `invalid` (Ajv refuses it; with the meta-schema's reason
 * when there is one).
 */
export type CompiledSchema =
  | { kind: 'compiled'; validate: ValidateFunction; unchecked: [string, string][] }
  | { kind: 'too-complex'; reason: string }
  /** `pointer`: where in the schema the problem is, when known (the meta-schema's complaint, a `$ref` that does not resolve). */
  | { kind: 'invalid'; reason?: string; pointer?: string };

const INVALID: CompiledSchema = { kind: 'invalid' };

/** The meta-schema's first complaint, as a short phrase ("/properties/a/type must be equal to one of the allowed values"). */
function metaError(isSchema: (body: unknown) => boolean): string | undefined {
  const e = (isSchema as { errors?: ErrorObject[] | null }).errors?.[0];
  if (!e) return undefined;
  return `${e.instancePath ? `${e.instancePath} ` : ''}${e.message ?? e.keyword}`;
}

/** What makes a schema not valid JSON Schema: where (a JSON pointer into it), the meta-schema's complaint, and the draft it was read as. */
export interface MetaSchemaProblem {
  pointer: string;
  message: string;
  keyword?: string;
  allowedValues?: readonly unknown[];
  draft: '2020-12' | 'draft-07';
}

const metaProblems = new WeakMap<object, MetaSchemaProblem | null>();

/**
 * Whether an object schema fails its draft's meta-schema, without compiling it (a tool's schema is
 * checked whether or not a step calls it, and compiling is the costly part). A schema over the
 * bounds is not looked at. The same check compileUncached makes before Ajv compiles.
 */
export function metaSchemaProblem(schema: unknown): MetaSchemaProblem | undefined {
  if (!isJsonObject(schema)) return undefined;
  const known = metaProblems.get(schema);
  if (known !== undefined) return known ?? undefined;
  let problem: MetaSchemaProblem | undefined;
  if (schemaSize(schema).ok && schemaStructure(schema).ok) {
    const draft07 = typeof schema.$schema === 'string' && /draft-0[4-7]/.test(schema.$schema);
    const isSchema = (draft07 ? metaSchema07 : metaSchema2020) as (body: unknown) => boolean;
    const body: Record<string, unknown> = { ...schema };
    delete body.$schema;
    const checked = forMetaCheck(body, draft07);
    const draft = draft07 ? 'draft-07' : '2020-12';
    if (checked === undefined) problem = { pointer: '', message: draft07 ? 'has a duplicate `enum` value or a `type` list longer than the seven types' : 'has a `type` list longer than the seven types', draft };
    else if (!isSchema(checked)) {
      const e = (isSchema as { errors?: ErrorObject[] | null }).errors?.[0];
      const params = e?.params as { allowedValues?: unknown[] } | undefined;
      problem = { pointer: e?.instancePath ?? '', message: e?.message ?? 'fails the meta-schema', keyword: e?.keyword, allowedValues: params?.allowedValues, draft };
    }
  }
  metaProblems.set(schema, problem ?? null);
  return problem;
}

/** Where the first `$ref` whose value passes `which` sits in a schema, as a JSON pointer. */
function refPointer(schema: unknown, which: (ref: string) => boolean): string | undefined {
  const stack: [unknown, string, number][] = [[schema, '', 0]];
  while (stack.length) {
    const [node, at, depth] = stack.pop()!;
    if (depth > MAX_DEPTH || typeof node !== 'object' || node === null) continue;
    if (!Array.isArray(node) && typeof (node as Record<string, unknown>).$ref === 'string' && which((node as Record<string, string>).$ref)) return `${at}/$ref`;
    const entries = Object.entries(node);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i];
      if (k === 'enum' || k === 'const' || ANNOTATIONS.has(k)) continue;
      stack.push([v, `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 1]);
    }
  }
  return undefined;
}

/**
 * Compiled validators by schema object (one lint run) and by annotation-free JSON text (across
 * schemas that validate alike, and across runs in the server). Compiled only when a
 * safe_completion step calls the tool.
 */
const byObject = new WeakMap<object, CompiledSchema>();
const byText = new Map<string, CompiledSchema>();

/** Compiles a schema already within the bounds. */
function compileUncached(schema: Record<string, unknown> | boolean, size: number, exact = false): CompiledSchema {
  // `$schema` picks the class above; left in, Ajv would demand that meta-schema be loaded.
  const body = isJsonObject(schema) ? { ...schema } : schema;
  if (isJsonObject(body)) {
    delete body.$schema;
    // The root's big integers (a root `const` or bound) are kept by the object the keywords read.
    copyExactIntegers(schema as object, body);
  }
  if (compiles >= COMPILES_PER_INSTANCE || compiledChars >= CHARS_PER_INSTANCE) {
    compiles = compiledChars = 0;
    ajv2020 = ajv07 = ajv2020Exact = ajv07Exact = undefined;
  }
  compiles++;
  compiledChars += size;
  const { ajv, isSchema, draft07 } = validatorFor(schema, exact);
  // A boolean is always a schema; an object must satisfy the meta-schema, as Ajv would demand.
  if (typeof body !== 'boolean') {
    const checked = forMetaCheck(body, draft07);
    if (checked === undefined) return INVALID;
    if (!isSchema(checked)) return { kind: 'invalid', reason: metaError(isSchema), pointer: (isSchema as { errors?: ErrorObject[] | null }).errors?.[0]?.instancePath };
  }
  const unchecked = new Map<string, string>();
  compiling = unchecked;
  const registry = ajv as unknown as { refs: Record<string, unknown>; schemas: Record<string, unknown> };
  const before = new Set([...Object.keys(registry.refs), ...Object.keys(registry.schemas)]);
  try {
    return { kind: 'compiled', validate: ajv.compile(body), unchecked: [...unchecked] };
  } catch (e) {
    // Ajv's compiler recurses: a schema within the bounds can still be too much for the stack.
    if (e instanceof RangeError) return { kind: 'too-complex', reason: 'compiling it overflows the stack' };
    // A `$ref` Ajv cannot resolve (a remote one: nothing is fetched): said, and pointed at.
    const missing = (e as { missingRef?: unknown }).missingRef;
    if (typeof missing === 'string') {
      const ref = (e as { missingSchema?: unknown }).missingSchema;
      const pointer = refPointer(schema, (v) => v === missing || v === ref || (typeof ref === 'string' && ref !== '' && v.startsWith(ref)));
      return { kind: 'invalid', reason: `its \`$ref\` ${JSON.stringify(missing).slice(0, 80)} does not resolve (nothing is fetched)`, pointer };
    }
    return INVALID;
  } finally {
    compiling = undefined;
    // Ajv keeps no boolean schema, and throws when asked to remove one.
    if (typeof body !== 'boolean') ajv.removeSchema(body);
    for (const key of new Set([...Object.keys(registry.refs), ...Object.keys(registry.schemas)])) if (!before.has(key)) ajv.removeSchema(key);
  }
}

export function compileSchemaChecked(schema: unknown): CompiledSchema {
  if (typeof schema !== 'boolean' && !isJsonObject(schema)) return INVALID;
  if (isJsonObject(schema)) {
    const hit = byObject.get(schema);
    if (hit !== undefined) return hit;
  }
  // Over the length bound, the key text alone could be megabytes: not cached by text.
  const size = schemaSize(schema);
  let compiled: CompiledSchema | undefined = size.ok ? undefined : { kind: 'too-complex', reason: size.reason };
  // A schema holding a big integer is keyed by itself only: its text would round the integer, and
  // a schema differing from it in that digit alone would share its validator.
  const exact = !compiled && holdsExactIntegers(schema);
  const text = compiled || exact ? undefined : cacheKey(schema);
  if (!compiled && text === undefined) {
    const structure = schemaStructure(schema);
    compiled = structure.ok ? compileUncached(schema, JSON.stringify(schema).length, true) : { kind: 'too-complex', reason: structure.reason };
  } else if (text !== undefined) {
    compiled = byText.get(text);
    if (compiled !== undefined) {
      // Recently used keys stay; the oldest are evicted first.
      byText.delete(text);
      byText.set(text, compiled);
    } else {
      // The other bounds are the same for every schema with this key (schemaStructure), so a key
      // found above was within them: the walk runs once per key, not once per tool.
      const structure = schemaStructure(schema);
      if (!structure.ok) compiled = { kind: 'too-complex', reason: structure.reason };
      else {
        compiled = compileUncached(schema, text.length);
        byText.set(text, compiled);
        cachedChars += text.length;
        while (byText.size > MAX_CACHED || (cachedChars > MAX_CACHED_CHARS && byText.size > 1)) {
          const oldest = byText.keys().next().value as string;
          byText.delete(oldest);
          cachedChars -= oldest.length;
        }
      }
    }
  }
  if (isJsonObject(schema)) byObject.set(schema, compiled!);
  return compiled!;
}

/** The schema's validator, or undefined when Ajv refuses it or it is too complex to check. */
export function compileParameterSchema(schema: unknown): ValidateFunction | undefined {
  const c = compileSchemaChecked(schema);
  return c.kind === 'compiled' ? c.validate : undefined;
}

