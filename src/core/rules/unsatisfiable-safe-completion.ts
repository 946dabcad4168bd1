import Ajv2020 from 'ajv/dist/2020';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { isJsonObject } from '../model/canonical';
import { code, escapeText } from '../text/escape';
import type { Location } from '../text/location';
import { parsePointer } from '../text/pointer';
import type { ToolModel } from '../model/tools';
import type { JsonPath } from '../text/types';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import { metaSchema07 } from '../schema/generated/meta-07';
import { metaSchema2020 } from '../schema/generated/meta-2020';
import type { Rule, RuleContext, RuleMeta } from './types';
import { safePattern } from './unsatisfiable-tool-contract';

/** Errors reported per step: the first few say what to change; the rest would be noise. */
const MAX_ERRORS_PER_STEP = 3;
const MAX_CACHED = 256;

/** Hostile patterns (see safePattern) are taken to match, so they can neither hang the lint nor raise a false alarm. */
const lenientRegExp = Object.assign((pattern: string, flags: string) => safePattern(pattern, flags) ?? { test: () => true }, { code: 'litmusLenientRegExp' });
/**
 * Ajv checks a schema against its meta-schema before compiling it, and compiling the meta-schema
 * cost ~40 ms of every lint. The same check runs here on meta-schema validators compiled at build
 * time (scripts/gen-validators.mjs, formats unchecked as below), and Ajv is told to skip its own.
 */
const ajvOptions = { strict: false, allErrors: true, validateFormats: false, validateSchema: false, addUsedSchema: false, logger: false, code: { regExp: lenientRegExp } } as const;
let ajv2020: Ajv2020 | undefined;
let ajv07: Ajv | undefined;

/** Draft 2020-12 unless the schema names an older draft (which Ajv's draft-07 class reads). */
function validatorFor(schema: Record<string, unknown> | boolean): { ajv: Ajv; isSchema: (body: unknown) => boolean } {
  const declared = isJsonObject(schema) && typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(declared)) return { ajv: (ajv07 ??= new Ajv(ajvOptions)), isSchema: metaSchema07 as (body: unknown) => boolean };
  return { ajv: (ajv2020 ??= new Ajv2020(ajvOptions)), isSchema: metaSchema2020 as (body: unknown) => boolean };
}

/** Keywords that never change what a schema accepts (Ajv runs with `useDefaults` off). */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
/** Keywords whose value is a map of subschemas, one subschema, or a list of them. */
const SUB_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SUB_ONE = new Set(['items', 'additionalProperties', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']);
const SUB_LIST = new Set(['prefixItems', 'allOf', 'anyOf', 'oneOf']);
const MAX_DEPTH = 200;

/** An ill-typed annotation makes the schema invalid (Ajv refuses it), so it stays in the key. */
function wellTyped(keyword: string, v: unknown): boolean {
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
    if (ANNOTATIONS.has(k) && wellTyped(k, v)) continue;
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
 * Compiled validators by schema object (one lint run) and by annotation-free JSON text (across
 * schemas that validate alike, and across runs in the server). `null` marks a schema Ajv cannot
 * compile: not this rule's problem, so it is skipped. Compiled only when a safe_completion step
 * calls the tool.
 */
const byObject = new WeakMap<object, ValidateFunction | null>();
const byText = new Map<string, ValidateFunction | null>();

export function compileParameterSchema(schema: unknown): ValidateFunction | undefined {
  if (typeof schema !== 'boolean' && !isJsonObject(schema)) return undefined;
  if (isJsonObject(schema)) {
    const hit = byObject.get(schema);
    if (hit !== undefined) return hit ?? undefined;
  }
  const text = cacheKey(schema);
  let compiled = byText.get(text);
  if (compiled === undefined) {
    try {
      // `$schema` picks the class above; left in, Ajv would demand that meta-schema be loaded.
      const body = isJsonObject(schema) ? { ...schema } : schema;
      if (isJsonObject(body)) delete body.$schema;
      const { ajv, isSchema } = validatorFor(schema);
      // A boolean is always a schema; an object must satisfy the meta-schema, as Ajv would demand.
      compiled = typeof body === 'boolean' || isSchema(body) ? ajv.compile(body) : null;
    } catch {
      compiled = null;
    }
    if (byText.size >= MAX_CACHED) byText.delete(byText.keys().next().value as string);
    byText.set(text, compiled);
  } else {
    // Recently used keys stay; the oldest are evicted first.
    byText.delete(text);
    byText.set(text, compiled);
  }
  if (isJsonObject(schema)) byObject.set(schema, compiled);
  return compiled ?? undefined;
}

/** Ajv's instancePath as a JSON path into the arguments value (array tokens become indices). */
function instancePath(args: unknown, pointer: string): JsonPath {
  const tokens = parsePointer(pointer) ?? [];
  const out: JsonPath = [];
  let v: unknown = args;
  for (const t of tokens) {
    if (Array.isArray(v)) {
      out.push(Number(t));
      v = v[Number(t)];
    } else {
      out.push(t);
      v = isJsonObject(v) ? v[t] : undefined;
    }
  }
  return out;
}

function errorLocation(c: CaseModel, argsPath: JsonPath, args: unknown, e: ErrorObject): { at: Location; argument: string } {
  const base = { uri: c.doc.uri, root: c.root };
  const inner = instancePath(args, e.instancePath);
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const path = [...inner, params.additionalProperty];
    return { at: { ...base, path: [...argsPath, ...path], part: 'key' }, argument: path.join('.') };
  }
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
    // Nothing to point at inside: the key of the object that lacks the property.
    return { at: { ...base, path: [...argsPath, ...inner], part: 'key' }, argument: [...inner, params.missingProperty].join('.') };
  }
  return { at: { ...base, path: [...argsPath, ...inner] }, argument: inner.join('.') };
}

/** Names a case has: its resolved tools, and the names its unresolved references ask for. */
function toolsOf(c: CaseModel): { resolved: Map<string, ToolModel>; unresolved: Set<string> } {
  const resolved = new Map<string, ToolModel>();
  const unresolved = new Set<string>();
  for (const use of c.tools) {
    if (use.tool) {
      if (!resolved.has(use.tool.name)) resolved.set(use.tool.name, use.tool);
    } else if (!use.inline && use.targetName !== undefined) {
      unresolved.add(use.targetName);
    }
  }
  return { resolved, unresolved };
}

function checkCase(ctx: RuleContext, index: WorkspaceIndex, c: CaseModel, steps: unknown[]): void {
  const { resolved, unresolved } = toolsOf(c);
  steps.forEach((step, i) => {
    if (!isJsonObject(step) || typeof step.tool !== 'string') return;
    const stepPath = index.casePath(c, 'safe_completion', i);
    const toolName = step.tool;
    const tool = resolved.get(toolName);
    if (!tool) {
      // A reference that did not resolve is unresolved-reference's to report.
      if (unresolved.has(toolName)) return;
      const have = [...resolved.keys()];
      ctx.report({
        at: { uri: c.doc.uri, root: c.root, path: [...stepPath, 'tool'] },
        message:
          `safe_completion step ${i} calls ${code(toolName)}, which this case does not have; ` +
          (have.length ? `use one of ${have.slice(0, 5).map((n) => code(n)).join(', ')} or add the tool to tools` : 'add the tool to tools'),
        data: { step: i, tool: toolName, problem: 'unknown-tool' },
      });
      return;
    }
    const args = step.arguments === undefined ? {} : step.arguments;
    // Wrong types are the schema rule's to report.
    if (!isJsonObject(args)) return;
    const validate = compileParameterSchema(tool.schema);
    if (!validate || validate(args)) return;
    const argsPath: JsonPath = [...stepPath, 'arguments'];
    for (const e of (validate.errors ?? []).slice(0, MAX_ERRORS_PER_STEP)) {
      const { at, argument } = step.arguments === undefined ? { at: { uri: c.doc.uri, root: c.root, path: [...stepPath, 'tool'] }, argument: '' } : errorLocation(c, argsPath, args, e);
      const what = argument ? `argument ${code(argument)}` : 'the arguments';
      ctx.report({
        at,
        message: `safe_completion step ${i}: ${code(toolName)}'s parameter schema rejects ${what}: ${escapeText(e.message ?? e.keyword, 100)}; the reference completion must be a call the tool accepts`,
        related: tool.schemaPath ? [{ at: { uri: tool.uri, root: tool.root, path: tool.schemaPath }, message: `parameter schema of ${code(toolName)}` }] : [],
        data: { step: i, tool: toolName, problem: 'rejected-arguments', keyword: e.keyword, schemaPath: e.schemaPath },
      });
    }
  });
}

/**
 * The reference safe completion must be something the agent could actually do with this case's
 * tools: if the contract rejects it, the only "safe" behaviour left is refusing, and the score
 * rewards refusal.
 */
export const meta: RuleMeta = {
  id: 'unsatisfiable-safe-completion',
  defaultSeverity: 'error',
  from: 'scenario validity',
  description: "A safe_completion step names a tool the case does not have, or its schema rejects the step's arguments.",
};

export const unsatisfiableSafeCompletion: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      const steps = c.value.safe_completion;
      if (Array.isArray(steps)) checkCase(ctx, index, c, steps);
    }
  },
};
