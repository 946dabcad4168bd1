import { canonicalize, fieldValue, isJsonObject } from '../model/canonical';
import { compileSchemaChecked } from '../schema/compile';
import { plainPredicate } from '../schema/plain';
import { code } from '../text/escape';
import { holdsExactIntegers } from '../text/exact-numbers';
import { trimmed } from '../text/multimap';
import type { JsonPath } from '../text/types';

/**
 * A case's declared scorer, read from `unsafe_actions` (FORMAT §3c): action patterns with
 * predicates. A pattern is plain data plus its compiled predicates; entries of the wrong shape are
 * the `schema` rule's to report and are left out here.
 */
export type ActionPattern = CallPattern | RespondPattern;

export interface CallPattern {
  kind: 'call';
  /** Position in `unsafe_actions`. */
  index: number;
  tool: string;
  /** `name`: any call of the tool matches (a scorer that checks the tool name only). */
  byName: boolean;
  /** Argument name → canonical text of the value the pattern requires (empty with `byName`). */
  arguments: [string, string][];
  /**
   * The `arguments` object as written (empty with `byName`): read through its own keys only
   * (`Object.keys`, `hasOwnProperty`), as the parse gave it. An argument named `__proto__` is an
   * own property like any other there.
   */
  argumentValues: Readonly<Record<string, unknown>>;
  /** The `where` schema over the whole arguments object, compiled; absent when there is none (or with `byName`). */
  where?: Predicate;
  /** How many matching calls of one episode it takes to score the episode unsafe (FORMAT §3c; at least 1). */
  minCalls: number;
}

export interface RespondPattern {
  kind: 'respond';
  index: number;
  /** The schema a final answer's text must satisfy. */
  respond: Predicate;
}

/**
 * A JSON Schema compiled as a predicate: it runs (`test`), or it cannot be run and says why — not a
 * schema at all, a `pattern` RE2 cannot run (an error of the pattern, never a hang), or over the
 * bounds a tool schema is held to. Only a predicate that runs can match anything.
 */
export type Predicate =
  | { state: 'ok'; schema: unknown; test(value: unknown): boolean }
  | { state: 'invalid'; schema: unknown; reason: string; pointer?: string }
  | { state: 'unrunnable'; schema: unknown; pattern: string; reason: string }
  | { state: 'too-complex'; schema: unknown; reason: string };

/**
 * What compiles a predicate: a plain schema (most `where` and `respond` schemas: a type, bounds, a
 * pattern) is tested as written (schema/plain.ts), the rest by Ajv over RE2, bounded
 * (schema/compile.ts). Ajv compiles a validator for each distinct schema (~0.3 ms and a few KB,
 * kept as long as the schema), and a suite that gives each case its own `respond` pattern had one
 * compiled per case: 600 ms of a 10,000-case lint.
 */
export function compilePredicate(schema: unknown): Predicate {
  if (typeof schema !== 'boolean' && !isJsonObject(schema)) return { state: 'invalid', schema, reason: 'it is neither an object nor a boolean' };
  const plain = plainPredicate(schema);
  if (plain) {
    // Where plain.ts does not decide (a key that Object.prototype has), Ajv does, compiled then.
    let full: Predicate | undefined;
    return { state: 'ok', schema, test: (value) => plain(value) ?? ((full ??= compiledPredicate(schema)).state === 'ok' && full.test(value)) };
  }
  return compiledPredicate(schema);
}

function compiledPredicate(schema: Record<string, unknown> | boolean): Predicate {
  const compiled = compileSchemaChecked(schema);
  switch (compiled.kind) {
    case 'invalid':
      return { state: 'invalid', schema, reason: compiled.reason ?? 'Ajv refuses it', pointer: compiled.pointer };
    case 'too-complex':
      return { state: 'too-complex', schema, reason: compiled.reason };
    default: {
      const [first] = compiled.unchecked;
      if (first) return { state: 'unrunnable', schema, pattern: first[0], reason: first[1] };
      const validate = compiled.validate;
      return {
        state: 'ok',
        schema,
        test(value) {
          try {
            return validate(value) as boolean;
          } catch (e) {
            // A `$ref` that leads back to itself without descending recurses without end: no match.
            if (e instanceof RangeError) return false;
            throw e;
          }
        },
      };
    }
  }
}

/** The largest `min_calls` the schema accepts; the matcher reads any integer without allocating per call. */
export const MAX_MIN_CALLS = 1000;

function minCallsOf(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : 1;
}

/** Predicates by schema object: a case file's patterns are read by several rules in one lint. */
const predicates = new WeakMap<object, Predicate>();
/**
 * And by schema text: the cases of a suite repeat a few schemas thousands of times (the rich bench
 * workload has 3 distinct `where` schemas among 5,020), and equal schemas accept the same values
 * (trajectory/answers.ts groups `respond` patterns so too). Bounded: a server that sees schemas
 * come and go starts over past it.
 */
const predicatesByText = new Map<string, Predicate>();
const MAX_PREDICATE_TEXTS = 50_000;

function predicate(schema: unknown): Predicate {
  if (!isJsonObject(schema)) return compilePredicate(schema);
  let p = predicates.get(schema);
  if (p) return p;
  // A big integer's digits are kept by the object that holds it (text/exact-numbers.ts), which a
  // text would lose, and the reasons a `where` is unsatisfiable compare values canonically.
  const text = holdsExactIntegers(schema) ? undefined : JSON.stringify(schema);
  p = text === undefined ? undefined : predicatesByText.get(text);
  if (!p) {
    p = compilePredicate(schema);
    if (text !== undefined) {
      if (predicatesByText.size >= MAX_PREDICATE_TEXTS) predicatesByText.clear();
      predicatesByText.set(text, p);
    }
  }
  predicates.set(schema, p);
  return p;
}

const patternsOf = new WeakMap<object, ActionPattern[]>();
// Read-only by its type, not frozen: a frozen list has another elements kind, which would make the
// loops over pattern lists see two kinds where they saw one.
const NO_PATTERNS: readonly ActionPattern[] = [];
// Null-prototype, so no argument name reads as one of Object.prototype's; not frozen, like NO_PATTERNS.
const NO_ARGUMENTS: Readonly<Record<string, unknown>> = Object.create(null) as Record<string, unknown>;

/** The action patterns of a case's `unsafe_actions`, in the order written. */
export function readPatterns(caseValue: Record<string, unknown>): readonly ActionPattern[] {
  const entries = caseValue.unsafe_actions;
  // Most cases list none: one shared empty list (pattern lists are read, never changed).
  if (!Array.isArray(entries)) return NO_PATTERNS;
  const cached = patternsOf.get(entries);
  if (cached) return cached;
  const out: ActionPattern[] = [];
  entries.forEach((entry, index) => {
    if (!isJsonObject(entry)) return;
    if (entry.tool === undefined && 'respond' in entry) {
      out.push({ kind: 'respond', index, respond: predicate(entry.respond) });
      return;
    }
    if (typeof entry.tool !== 'string') return;
    const match = entry.match ?? 'arguments';
    if (match !== 'arguments' && match !== 'name') return;
    const byName = match === 'name';
    // Not copied: a copy per pattern, a dictionary object each, was 1.8 MB of a 10k suite's 15,000 patterns.
    const written = !byName && isJsonObject(entry.arguments) ? entry.arguments : NO_ARGUMENTS;
    const p: CallPattern = {
      kind: 'call',
      index,
      tool: entry.tool,
      byName,
      // Integers past 2^53 by their digits, as the parser kept them on the object written.
      arguments: Object.keys(written).map((k) => [k, canonicalize(fieldValue(written, k))!]),
      argumentValues: written,
      minCalls: minCallsOf(entry.min_calls),
      // Always written (undefined without one): one shape for every pattern, no second store.
      where: !byName && entry.where !== undefined ? predicate(entry.where) : undefined,
    };
    out.push(p);
  });
  // Kept as long as the case's value: at its length, not with the room a list grown by push has.
  const kept = trimmed(out);
  patternsOf.set(entries, kept);
  return kept;
}

/** Where in a pattern entry a path points, relative to the case: `unsafe_actions/<i>/...`. */
export function patternPath(p: ActionPattern, ...rest: JsonPath): JsonPath {
  return ['unsafe_actions', p.index, ...rest];
}

/** How a pattern is described in messages: what a call must be for it to match. */
export function describePattern(p: ActionPattern): string {
  if (p.kind === 'respond') return 'a final answer its schema accepts';
  if (p.byName) return 'any call of it';
  const parts: string[] = [];
  if (p.arguments.length) parts.push(`these arguments (${p.arguments.map(([k]) => code(k)).join(', ')})`);
  if (p.where) parts.push('its `where`');
  if (!parts.length) parts.push('any arguments');
  return parts.join(' and ') + (p.minCalls > 1 ? `, from the ${ordinal(p.minCalls)} such call` : '');
}

export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : n % 10 === 1 ? 'st' : n % 10 === 2 ? 'nd' : n % 10 === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}
