import { isJsonObject } from '../model/canonical';
import { code } from '../text/escape';
import type { FileKind } from '../model/kinds';
import type { JsonPath } from '../text/types';
import { didYouMean } from '../text/similar';
import { allowsCustomFields, declaredProperties, propertyTitle } from './titles';
import { validatorFor, type SchemaError } from './validators';

/** One schema violation, placed by path inside the validated root (FORMAT §9). */
export interface SchemaProblem {
  path: JsonPath;
  /** `key`: the property name (unknown property), or the key/brace of an object that lacks one. */
  part: 'value' | 'key';
  message: string;
  data: Record<string, unknown>;
}

/** Why a property is required only sometimes: said in the message, since the schema says it in an if/then. */
const CONDITIONAL: Record<string, string> = {
  probe: 'required on adversarial cases',
  drift_terminal_state: 'required when `probe` is "goal_drift"',
};

const ROOT_SHAPE: Record<FileKind, string> = {
  cases: 'a case file holds one case object, or a suite {"suite": …, "cases": […]}',
  caseLines: 'each line of a .litmus.jsonl file holds one case object',
  tools: 'a tool-schema file holds {"tools": […]}',
  config: 'litmus.config.json holds an object {"rules", "maxMutationDepth", "injection"}',
  harness: 'litmus.harness.json holds an object of isolation settings',
  scores: 'a score report holds {"suite": …, "runs": […]}',
  environment: 'an environment file holds any JSON value',
};

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'an integer' : 'a number';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** ajv's instancePath (a JSON Pointer) as a path, with array indices as numbers. */
export function pathOfInstance(root: unknown, pointer: string): { path: JsonPath; value: unknown } {
  const path: JsonPath = [];
  let value: unknown = root;
  if (pointer === '') return { path, value };
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(value)) {
      const i = Number(token);
      path.push(i);
      value = value[i];
    } else {
      path.push(token);
      value = isJsonObject(value) ? value[token] : undefined;
    }
  }
  return { path, value };
}

/** How a message names a value: its key, or `key[i]` for an array item. */
function label(path: JsonPath): string | undefined {
  if (path.length === 0) return undefined;
  const last = path[path.length - 1];
  if (typeof last === 'string') return code(last);
  let i = path.length - 2;
  while (i >= 0 && typeof path[i] === 'number') i--;
  const owner = i >= 0 ? String(path[i]) : '';
  return code(`${owner}${path.slice(i + 1).map((n) => `[${n}]`).join('')}`);
}

function lastKey(path: JsonPath): string | number | undefined {
  return path[path.length - 1];
}

/** An item of a case's `tools` array: cases at the top level, in a suite, or on a JSONL line. */
function isCaseToolItem(kind: FileKind, path: JsonPath): boolean {
  if (kind !== 'cases' && kind !== 'caseLines') return false;
  const n = path.length;
  return n >= 2 && typeof path[n - 1] === 'number' && path[n - 2] === 'tools' && (n === 2 || (n === 4 && path[0] === 'cases'));
}

function unknownProperty(kind: FileKind, e: SchemaError, path: JsonPath): SchemaProblem {
  const name = String((e.params as { additionalProperty?: unknown }).additionalProperty);
  const declared = declaredProperties(e.parentSchema);
  const suggestion = didYouMean(name, declared);
  const at = [...path, name];
  if (kind === 'config' && lastKey(path) === 'rules') {
    return {
      path: at,
      part: 'key',
      message: `unknown rule ${code(name)}${suggestion ? `; did you mean ${code(suggestion)}?` : '; see docs/rules for the rule ids'}`,
      data: { keyword: 'additionalProperties', property: name, suggestion },
    };
  }
  // FORMAT §3: an override key is an RFC 6901 pointer into the environment; one that is not is
  // not an unknown property but a malformed pointer.
  if ((kind === 'cases' || kind === 'caseLines') && lastKey(path) === 'environment_overrides') {
    const fix = name.startsWith('/') ? 'a `~` in a pointer must be followed by `0` (for `~`) or `1` (for `/`)' : `a pointer starts with \`/\` (${code('/' + name)}), or is \`""\` for the whole environment`;
    return { path: at, part: 'key', message: `override key ${code(name)} is not a JSON pointer: ${fix}`, data: { keyword: 'additionalProperties', property: name, problem: 'not-a-pointer' } };
  }
  let message = `unknown property ${code(name)}`;
  if (suggestion) message += `: did you mean ${code(suggestion)}?`;
  if (allowsCustomFields(e.parentSchema)) message += `${suggestion ? ' (' : ': '}custom fields need the \`x-\` prefix${suggestion ? ')' : ''}`;
  else if (!suggestion) message += declared.length > 0 && declared.length <= 8 ? `; expected ${orList(declared.map((d) => code(d)))}` : '; remove it';
  return { path: at, part: 'key', message, data: { keyword: 'additionalProperties', property: name, suggestion, customFields: allowsCustomFields(e.parentSchema) } };
}

function comparison(op: string): string {
  return op === '>=' ? 'at least' : op === '<=' ? 'at most' : op === '>' ? 'greater than' : 'less than';
}

/** Our own message for one ajv error, naming the fix; undefined for errors that only repeat others. */
function describe(kind: FileKind, e: SchemaError, root: unknown): SchemaProblem | undefined {
  // An `if` error only says that a then/else branch failed; that branch's own errors say how.
  if (e.keyword === 'if') return undefined;
  const { path, value } = pathOfInstance(root, e.instancePath);
  const what = label(path);
  const params = e.params as Record<string, unknown>;
  const problem = (message: string, data: Record<string, unknown> = {}): SchemaProblem => ({
    path,
    part: 'value',
    message,
    data: { keyword: e.keyword, ...data },
  });

  switch (e.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      const title = propertyTitle(missing, e.parentSchema);
      const when = e.schemaPath.includes('/then/') ? CONDITIONAL[missing] : undefined;
      return {
        path,
        part: 'key',
        message: `missing required property ${code(missing)}${title ? `: ${title}` : ''}${when ? ` (${when})` : ''}`,
        data: { keyword: 'required', property: missing },
      };
    }
    case 'additionalProperties':
      return unknownProperty(kind, e, path);
    case 'false schema':
      if (lastKey(path) === 'probe') {
        return problem('`probe` must not be set on a benign case: remove it, or make the case adversarial', { property: 'probe' });
      }
      return problem(`${what ?? 'this value'} is not allowed here; remove it`);
    case 'enum': {
      const allowed = (Array.isArray(params.allowedValues) ? params.allowedValues : []) as unknown[];
      const strings = allowed.filter((a): a is string => typeof a === 'string');
      const suggestion = typeof value === 'string' ? didYouMean(value, strings) : undefined;
      return problem(
        `${what ?? 'this value'} must be ${orList(allowed.map((a) => JSON.stringify(a)))}${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
        { allowed, suggestion },
      );
    }
    case 'const': {
      // A short description on the constant says why it is fixed (a tool's arguments are an object).
      const why = isJsonObject(e.parentSchema) && typeof e.parentSchema.description === 'string' ? e.parentSchema.description : '';
      const reason = why && why.length <= 60 ? `: ${why.charAt(0).toLowerCase()}${why.slice(1).replace(/\.$/, '')}` : '';
      return problem(`${what ?? 'this value'} must be ${JSON.stringify(params.allowedValue)}${reason}`, { allowed: [params.allowedValue] });
    }
    case 'type': {
      const expected = (Array.isArray(params.type) ? params.type : String(params.type).split(',')) as string[];
      if (path.length === 0) return problem(`${ROOT_SHAPE[kind]}; this is ${jsonType(value)}`, { expected });
      if (isCaseToolItem(kind, path)) {
        return problem(`${what} must be a tool reference "<path>#<tool name>" or a tool object, not ${jsonType(value)}`, { expected: ['string', 'object'] });
      }
      return problem(`${what} must be ${orList(expected.map((t) => TYPE_WORDS[t] ?? t))}, not ${jsonType(value)}`, { expected });
    }
    case 'not':
      if (value === null) {
        const title = typeof lastKey(path) === 'string' ? propertyTitle(String(lastKey(path)), undefined) : undefined;
        return problem(`${what ?? 'this value'} must not be null${title ? `: give the ${title.replace(/^the /, '')}` : ''}`);
      }
      return problem(`${what ?? 'this value'} has a value that is not allowed here`);
    case 'minLength':
      return params.limit === 1
        ? problem(`${what ?? 'this value'} must not be empty`)
        : problem(`${what ?? 'this value'} must be at least ${String(params.limit)} characters long`);
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return problem(`${what ?? 'this value'} must be ${comparison(String(params.comparison))} ${String(params.limit)}, not ${String(value)}`, {
        limit: params.limit,
      });
    default:
      return problem(`${what ?? 'this value'} ${e.message ?? 'breaks the schema'}`);
  }
}

const NO_ERRORS: readonly SchemaError[] = [];

/**
 * Ajv's errors for one case object, paths relative to it, kept per value object: an edit keeps the
 * values of the cases it did not touch (text/unchanged.ts), and a suite file of a thousand cases
 * was validated whole on every edit. The case schema is the one a suite's items and a JSONL line
 * refer to, so the errors are those a whole-file validation gives for the case (a test holds them
 * to it).
 */
const caseErrors = new WeakMap<object, readonly SchemaError[]>();

function errorsOfCase(value: Record<string, unknown>): readonly SchemaError[] {
  let errors = caseErrors.get(value);
  if (!errors) {
    const validate = validatorFor('caseLines');
    errors = validate(value) ? NO_ERRORS : [...(validate.errors ?? [])];
    caseErrors.set(value, errors);
  }
  return errors;
}

/**
 * Ajv's errors for one root. A suite whose cases are all objects is validated as its envelope (the
 * suite with no cases) and then case by case; a JSONL line is one case.
 */
function errorsOf(kind: FileKind, value: unknown): readonly SchemaError[] {
  if (kind === 'caseLines' && isJsonObject(value)) return errorsOfCase(value);
  if (kind === 'cases' && isJsonObject(value) && Array.isArray(value.cases) && value.cases.every(isJsonObject)) {
    const validate = validatorFor(kind);
    const out: SchemaError[] = validate({ ...value, cases: [] }) ? [] : [...(validate.errors ?? [])];
    value.cases.forEach((c, i) => {
      for (const e of errorsOfCase(c as Record<string, unknown>)) out.push({ ...e, instancePath: `/cases/${i}${e.instancePath}` });
    });
    return out;
  }
  const validate = validatorFor(kind);
  return validate(value) ? NO_ERRORS : (validate.errors ?? NO_ERRORS);
}

/** Validates one root value of a document of `kind`; problems in document order of their paths. */
export function schemaProblems(kind: FileKind, value: unknown): SchemaProblem[] {
  return problemsOf(kind, value, errorsOf(kind, value));
}

/** The problems Ajv's errors for a root say, in their order, each once. */
export function problemsOf(kind: FileKind, value: unknown, errors: readonly SchemaError[]): SchemaProblem[] {
  if (errors.length === 0) return [];
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const p = describe(kind, e, value);
    if (!p) continue;
    // The same failure reached through two branches (e.g. the same $ref twice) is reported once.
    const key = `${JSON.stringify(p.path)}\u0000${p.part}\u0000${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}
