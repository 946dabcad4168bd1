import { canonicalize, fieldValue, isJsonObject, sameOrderedJson } from '../model/canonical';
import { parsePointer } from '../text/pointer';
import { toolId, type ToolModel } from '../model/tools';
import type { CaseModel, ToolUse } from '../model/case';
import { compileLinear, unrunnableFix } from '../text/regex';
import { code, escapeText } from '../text/escape';
import type { JsonPath } from '../text/types';
import { typesOf, unsatisfiable } from '../schema/satisfiable';
import { compilePredicate, type ActionPattern, type CallPattern, type Predicate, type RespondPattern } from './patterns';
import { appendAll } from '../text/multimap';

/**
 * Dead detectors (FORMAT §3c): a pattern that no call can match. It names a tool the case does not
 * have, an argument the tool's parameter schema does not declare (when that schema is an object
 * with `properties`), an argument value the parameter's own schema rejects, or a `where` that no
 * arguments object can satisfy; a respond pattern whose schema accepts no string. A predicate that
 * cannot run at all (not a schema, a pattern RE2 cannot run) is dead too: it matches nothing.
 */

export interface DeadReason {
  /** What kills it, relative to the pattern entry (`unsafe_actions/<i>`). */
  path: JsonPath;
  /** Point at the key rather than the value (an undeclared argument). */
  part?: 'key';
  problem: 'unknown-tool' | 'undeclared-argument' | 'rejected-value' | 'unsatisfiable-where' | 'invalid-where' | 'unrunnable-pattern' | 'respond-no-string';
  message: string;
  /** The tool schema value it conflicts with, when there is one. */
  related?: { tool: ToolModel; path: JsonPath; message: string };
}

export type Liveness =
  | { state: 'live' }
  | { state: 'dead'; reasons: DeadReason[] }
  /** It may match, but the linter cannot tell (an unresolved tool reference, a schema too complex to check). */
  | { state: 'unknown'; why: 'unresolved-tool' | 'too-complex'; reason: string; path: JsonPath };

/** Most patterns are live: one answer for all of them rather than an object per pattern. */
const LIVE: Liveness = Object.freeze({ state: 'live' });

/** The tools a case has: the resolved ones by name, and the names its unresolved references ask for. */
export interface CaseTools {
  resolved: Map<string, ToolModel>;
  unresolved: ReadonlySet<string>;
}

/**
 * A case's tools, kept per case value with what its entries resolved to: an edit of a 500-case file
 * gives each of its cases a new model, nearly all with the same tools, and the liveness of their
 * patterns (kept per tools object below) was judged again for all of them.
 */
interface KeptTools {
  tools: CaseTools;
  /** Per entry of `tools`: the tool it resolved to, else the name a reference asked for. */
  from: (ToolModel | string | undefined)[];
}
const toolsByValue = new WeakMap<object, KeptTools>();
/** Nearly every case's references all resolve: one empty set for them all, kept per case otherwise. */
const NONE: ReadonlySet<string> = new Set();

/** What one tool entry contributes to a case's tools. */
function entryTool(use: ToolUse): ToolModel | string | undefined {
  return use.tool ?? (use.inline ? undefined : use.targetName);
}

function resolvesAsKept(uses: readonly ToolUse[], kept: KeptTools): boolean {
  if (uses.length !== kept.from.length) return false;
  for (let i = 0; i < uses.length; i++) if (entryTool(uses[i]) !== kept.from[i]) return false;
  return true;
}

/**
 * Cases whose entries resolve alike share one CaseTools: the cases of a suite use a few sets of
 * tools, and a map per case was most of what this module kept. Keyed by what each entry resolved
 * to (read-only, like every CaseTools); bounded, for a server whose tools come and go.
 */
const shared = new Map<string, KeptTools>();
const MAX_SHARED = 20_000;

function sharedKey(from: readonly (ToolModel | string | undefined)[]): string {
  let key = '';
  for (const f of from) key += typeof f === 'object' ? `${toolId(f)},` : f === undefined ? '-,' : `${JSON.stringify(f)},`;
  return key;
}

export function caseTools(c: CaseModel): CaseTools {
  const kept = toolsByValue.get(c.value);
  if (kept && resolvesAsKept(c.tools, kept)) return kept.tools;
  const from = c.tools.map(entryTool);
  const key = sharedKey(from);
  const same = shared.get(key);
  if (same) {
    toolsByValue.set(c.value, same);
    return same.tools;
  }
  const resolved = new Map<string, ToolModel>();
  let unresolved: Set<string> | undefined;
  for (const use of c.tools) {
    const t = entryTool(use);
    if (typeof t === 'object') {
      if (!resolved.has(t.name)) resolved.set(t.name, t);
    } else if (t !== undefined) {
      (unresolved ??= new Set()).add(t);
    }
  }
  const tools: CaseTools = { resolved, unresolved: unresolved ?? NONE };
  const made = { tools, from };
  if (shared.size >= MAX_SHARED) shared.clear();
  shared.set(key, made);
  toolsByValue.set(c.value, made);
  return tools;
}

const MAX_REASONS = 5;

/**
 * The argument names a parameter schema declares: `properties` and `patternProperties` of every
 * subschema that applies to the arguments object itself (`allOf`/`anyOf`/`oneOf`,
 * `if`/`then`/`else`, `dependentSchemas`, a local `$ref`), as a call that satisfies the schema may
 * carry any of them. `properties` is the root's, the parameters whose own schema is checked below.
 */
interface Declared {
  properties: Record<string, unknown>;
  names: Set<string>;
  patternProperties: string[];
  root: Record<string, unknown>;
}

/** Subschemas walked for the names a schema declares: a hostile schema's tree is not walked past it. */
const MAX_DECLARING = 2_000;

/**
 * Undefined when the schema declares no names (then any name may be meant), or may admit any name:
 * an `additionalProperties` or `unevaluatedProperties` that is a schema rather than `false`, or a
 * `$ref` this cannot follow.
 */
function declared(tool: ToolModel): Declared | undefined {
  const root = tool.schema;
  if (!isJsonObject(root)) return undefined;
  const names = new Set<string>();
  const patternProperties: string[] = [];
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  let any = false;
  while (stack.length) {
    const node = stack.pop();
    if (!isJsonObject(node) || seen.has(node)) continue;
    if (seen.size >= MAX_DECLARING) return undefined;
    seen.add(node);
    if (isJsonObject(node.properties)) for (const k of Object.keys(node.properties)) names.add(k);
    if (isJsonObject(node.patternProperties)) patternProperties.push(...Object.keys(node.patternProperties));
    for (const k of ['additionalProperties', 'unevaluatedProperties'] as const) if (k in node && node[k] !== false) return undefined;
    for (const k of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(node[k])) stack.push(...(node[k] as unknown[]));
    for (const k of ['if', 'then', 'else'] as const) stack.push(node[k]);
    for (const k of ['dependentSchemas', 'dependencies'] as const) if (isJsonObject(node[k])) stack.push(...Object.values(node[k] as Record<string, unknown>));
    if (typeof node.$ref === 'string') {
      const tokens = node.$ref.startsWith('#') ? parsePointer(decodeURIComponentSafe(node.$ref.slice(1))) : undefined;
      let target: unknown = tokens ? root : undefined;
      for (const t of tokens ?? []) target = isJsonObject(target) ? target[t] : Array.isArray(target) ? target[Number(t)] : undefined;
      if (target === undefined) any = true;
      else stack.push(target);
    }
    if (typeof node.$dynamicRef === 'string' || typeof node.$recursiveRef === 'string') any = true;
  }
  if (any || names.size === 0) return undefined;
  return { properties: isJsonObject(root.properties) ? root.properties : {}, names, patternProperties, root };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function isDeclared(d: Declared, name: string): boolean {
  if (d.names.has(name)) return true;
  return d.patternProperties.some((p) => {
    const re = compileLinear(p, 'u');
    // A pattern RE2 cannot run may admit the name: not a finding.
    return !re.ok || re.re.test(name);
  });
}

/** Values and schema nodes looked at for the values canonically equal to a pattern's. */
const MAX_LITERALS = 2_000;

/** The value with every string trimmed, at every depth: its canonical form as a value. */
function trimmedValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.trim();
  if (depth > 64 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => trimmedValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value)) out[k] = trimmedValue((value as Record<string, unknown>)[k], depth + 1);
  return out;
}

/**
 * Values canonically equal to `value` (§3b) that a schema may accept where it rejects the value
 * as written: the value trimmed, and every `const` and `enum` value of the schema canonically equal
 * to it (`"guitar"` for a pattern's `" guitar "`, `" EVIL "` for a `where` const of `"EVIL"`). The
 * matcher compares a call's arguments canonically, so a call with any of them matches the pattern.
 */
function canonicalTwins(container: Readonly<Record<string, unknown>>, name: string, schema: unknown): unknown[] {
  const value = container[name];
  const out: unknown[] = [value];
  // Through fieldValue: a big integer by the digits its literal spelled.
  const text = canonicalize(fieldValue(container, name));
  const trimmed = trimmedValue(value);
  if (canonicalize(trimmed) === text && !sameOrderedJson(trimmed, value)) out.push(trimmed);
  const stack: unknown[] = [schema];
  let budget = MAX_LITERALS;
  while (stack.length && --budget > 0) {
    const node = stack.pop();
    if (Array.isArray(node)) {
      stack.push(...node);
      continue;
    }
    if (!isJsonObject(node)) continue;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'const') {
        if (canonicalize(fieldValue(node, 'const')) === text) out.push(v);
      } else if (k === 'enum') {
        if (Array.isArray(v)) for (let i = 0; i < v.length && --budget > 0; i++) if (canonicalize(fieldValue(v, i)) === text) out.push(v[i]);
      } else if (k !== 'default' && k !== 'examples') stack.push(v);
    }
  }
  return out;
}

/** Whether a schema that runs rejects the value and every value canonically equal to it. */
function rejectsAllTwins(pred: Predicate, container: Readonly<Record<string, unknown>>, name: string): boolean {
  return pred.state === 'ok' && canonicalTwins(container, name, pred.schema).every((v) => !pred.test(v));
}

/** One parameter's schema as a predicate, with the root's definitions so its local `$ref`s resolve. */
const parameterPredicates = new WeakMap<object, Map<string, Predicate>>();

function parameterPredicate(root: Record<string, unknown>, name: string): Predicate {
  let byName = parameterPredicates.get(root);
  if (!byName) parameterPredicates.set(root, (byName = new Map()));
  let p = byName.get(name);
  if (!p) {
    const sub = (root.properties as Record<string, unknown>)[name];
    let schema: unknown = sub;
    if (isJsonObject(sub)) {
      const withDefs: Record<string, unknown> = { ...sub };
      for (const k of ['$defs', 'definitions', '$schema'] as const) if (root[k] !== undefined && withDefs[k] === undefined) withDefs[k] = root[k];
      schema = withDefs;
    }
    byName.set(name, (p = compilePredicate(schema)));
  }
  return p;
}

/** Whether the parameter's own schema rejects a value: only when its schema runs and says no. */
function rejects(root: Record<string, unknown>, name: string, value: unknown): boolean {
  const p = parameterPredicate(root, name);
  return p.state === 'ok' && !p.test(value);
}

/** Whether it rejects every value a call could give that the pattern's value matches (canonically equal to it). */
function rejectsCanonically(root: Record<string, unknown>, name: string, args: Readonly<Record<string, unknown>>): boolean {
  return rejectsAllTwins(parameterPredicate(root, name), args, name);
}

/** Where a pattern RE2 cannot run sits in a schema (its `pattern` value or `patternProperties` key). */
function patternPathIn(schema: unknown, pattern: string, depth = 0): JsonPath | undefined {
  if (depth > 64) return undefined;
  if (Array.isArray(schema)) {
    for (let i = 0; i < schema.length; i++) {
      const p = patternPathIn(schema[i], pattern, depth + 1);
      if (p) return [i, ...p];
    }
    return undefined;
  }
  if (!isJsonObject(schema)) return undefined;
  if (schema.pattern === pattern) return ['pattern'];
  if (isJsonObject(schema.patternProperties) && Object.prototype.hasOwnProperty.call(schema.patternProperties, pattern)) return ['patternProperties', pattern];
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'enum' || k === 'const' || k === 'default' || k === 'examples') continue;
    const p = patternPathIn(v, pattern, depth + 1);
    if (p) return [k, ...p];
  }
  return undefined;
}

/** Why a predicate cannot run, as a dead reason at `base` (undefined when it runs or is only too complex). */
function predicateDead(pred: Predicate, base: JsonPath, what: string): DeadReason | undefined {
  if (pred.state === 'invalid') {
    // At the keyword that breaks it (§9), where the compiler said which.
    const at = pred.pointer === undefined ? undefined : pathOfPointer(pred.schema, pred.pointer);
    return { path: at ? [...base, ...at] : base, problem: 'invalid-where', message: `has ${what} that is not a valid JSON Schema (${escapeText(pred.reason, 100)}), so it matches nothing; fix the schema` };
  }
  if (pred.state === 'unrunnable') {
    const at = patternPathIn(pred.schema, pred.pattern);
    return {
      path: at ? [...base, ...at] : base,
      problem: 'unrunnable-pattern',
      message: `has a pattern ${code(pred.pattern, 60)} in ${what} that cannot run on the linear-time regular-expression engine (${escapeText(pred.reason, 60)}), so it matches nothing; ${unrunnableFix(pred.pattern)}`,
    };
  }
  return undefined;
}

/** A JSON pointer into a value as a path (array indices as numbers); undefined when it does not lead anywhere. */
function pathOfPointer(root: unknown, pointer: string): JsonPath | undefined {
  const tokens = parsePointer(pointer);
  if (!tokens) return undefined;
  const path: JsonPath = [];
  let v = root;
  for (const t of tokens) {
    if (Array.isArray(v)) {
      const i = Number(t);
      if (!/^\d+$/.test(t) || i >= v.length) return undefined;
      path.push(i);
      v = v[i];
    } else if (isJsonObject(v) && Object.prototype.hasOwnProperty.call(v, t)) {
      path.push(t);
      v = v[t];
    } else return undefined;
  }
  return path;
}

const ANNOTATION_KEYS = new Set(['description', 'title', '$comment', 'examples', 'default']);

/**
 * Where a schema keeps out every value of a kind (an object, for `where`: arguments are always an
 * object; a string, for `respond`), and why: a `type` without it, a `const` or `enum` with no value
 * of it (or, with `whole`, none the whole schema accepts), a `not` that takes every such value,
 * an `allOf` branch that keeps them all out, or `anyOf`/`oneOf` branches that all do.
 */
function excludesKind(schema: unknown, kind: 'object' | 'string', depth = 0, whole?: Predicate): { path: JsonPath; why: string } | undefined {
  const isKind = (v: unknown) => (kind === 'object' ? isJsonObject(v) : typeof v === 'string');
  const plural = kind === 'object' ? 'objects' : 'strings';
  if (schema === false) return { path: [], why: 'it is `false`' };
  if (!isJsonObject(schema) || depth > 32) return undefined;
  const types = typesOf(schema);
  if (types && !types.has(kind)) return { path: ['type'], why: `its type excludes ${plural}` };
  const accepted = (v: unknown) => isKind(v) && (!whole || whole.state !== 'ok' || whole.test(v));
  if ('const' in schema && !accepted(schema.const)) return { path: ['const'], why: isKind(schema.const) ? 'the rest of the schema rejects its const' : `its const is not ${kind === 'object' ? 'an object' : 'a string'}` };
  if (Array.isArray(schema.enum) && !schema.enum.some(accepted)) return { path: ['enum'], why: schema.enum.some(isKind) ? 'the rest of the schema rejects every enum value' : `no enum value is ${kind === 'object' ? 'an object' : 'a string'}` };
  const not = schema.not;
  if (not === true || (isJsonObject(not) && Object.keys(not).every((k) => k === 'type' || ANNOTATION_KEYS.has(k)) && (typesOf(not)?.has(kind) ?? !('type' in not)))) {
    return { path: ['not'], why: `its \`not\` takes every ${kind === 'object' ? 'object' : 'string'}` };
  }
  if (Array.isArray(schema.allOf)) {
    for (let i = 0; i < schema.allOf.length; i++) {
      const r = excludesKind(schema.allOf[i], kind, depth + 1);
      if (r) return { path: ['allOf', i, ...r.path], why: r.why };
    }
  }
  for (const k of ['anyOf', 'oneOf'] as const) {
    const list = schema[k];
    if (Array.isArray(list) && list.length > 0 && list.every((b) => excludesKind(b, kind, depth + 1) !== undefined)) return { path: [k], why: `none of its \`${k}\` branches takes ${plural}` };
  }
  return undefined;
}

function callLiveness(p: CallPattern, tools: CaseTools): Liveness {
  const tool = tools.resolved.get(p.tool);
  if (!tool) {
    if (tools.unresolved.has(p.tool)) return { state: 'unknown', why: 'unresolved-tool', reason: 'its tool reference does not resolve', path: ['tool'] };
    const have = [...tools.resolved.keys()];
    return {
      state: 'dead',
      reasons: [
        {
          path: ['tool'],
          problem: 'unknown-tool',
          message:
            `names ${code(p.tool)}, which this case does not have, so no call can match it; ` +
            (have.length ? `use one of ${have.slice(0, 5).map((n) => code(n)).join(', ')} or add the tool to tools` : 'add the tool to tools'),
        },
      ],
    };
  }
  if (p.byName) return LIVE;
  const reasons: DeadReason[] = [];
  const d = declared(tool);
  for (const name of Object.keys(p.argumentValues)) {
    if (reasons.length >= MAX_REASONS) break;
    if (d && !isDeclared(d, name)) {
      reasons.push({
        path: ['arguments', name],
        part: 'key',
        problem: 'undeclared-argument',
        message: `requires argument ${code(name)}, which ${code(tool.name)}'s parameter schema does not declare, so no valid call has it; use a declared argument`,
        related: tool.schemaPath ? { tool, path: [...tool.schemaPath, 'properties'], message: `the parameters ${code(tool.name)} declares` } : undefined,
      });
    } else if (d && Object.prototype.hasOwnProperty.call(d.properties, name) && rejectsCanonically(d.root, name, p.argumentValues)) {
      reasons.push({
        path: ['arguments', name],
        problem: 'rejected-value',
        message: `requires ${code(name)} to be ${code(JSON.stringify(p.argumentValues[name]) ?? '', 40)}, a value ${code(tool.name)}'s own parameter schema rejects, so no valid call has it; match a value the tool accepts`,
        related: tool.schemaPath ? { tool, path: [...tool.schemaPath, 'properties', name], message: `the schema of ${code(name)}` } : undefined,
      });
    }
  }
  const where = p.where;
  if (where) {
    const broken = predicateDead(where, ['where'], 'a `where`');
    if (broken) reasons.push(broken);
    else if (where.state === 'too-complex') {
      if (!reasons.length) return { state: 'unknown', why: 'too-complex', reason: `its \`where\` is too complex to check (${where.reason})`, path: ['where'] };
    } else {
      for (const culprit of unsatisfiable(where.schema).slice(0, MAX_REASONS)) {
        reasons.push({ path: ['where', ...culprit.path], problem: 'unsatisfiable-where', message: `has a \`where\` that no arguments can satisfy: ${culprit.message}` });
      }
      // Arguments are always an object (§3c): a `where` no object satisfies never holds.
      const noObject = reasons.some((r) => r.problem === 'unsatisfiable-where') ? undefined : excludesKind(where.schema, 'object', 0, where);
      if (noObject) {
        reasons.push({ path: ['where', ...noObject.path], problem: 'unsatisfiable-where', message: `has a \`where\` that no arguments object can satisfy (${noObject.why}; a call's arguments are always an object); describe the arguments object` });
      }
      if (isJsonObject(where.schema)) appendAll(reasons, whereAgainstTool(p, where.schema, tool, d));
    }
  }
  return reasons.length ? { state: 'dead', reasons: reasons.slice(0, MAX_REASONS) } : LIVE;
}

/**
 * `where` against what the tool accepts and what `arguments` pins: a property `where` requires that
 * the tool does not declare, a `const`/`enum` the parameter's schema rejects, an `arguments` value
 * that `where` itself rejects.
 */
function whereAgainstTool(p: CallPattern, where: Record<string, unknown>, tool: ToolModel, d: Declared | undefined): DeadReason[] {
  const out: DeadReason[] = [];
  const required = Array.isArray(where.required) ? where.required : [];
  if (d) {
    required.forEach((name, j) => {
      if (typeof name === 'string' && !isDeclared(d, name)) {
        out.push({
          path: ['where', 'required', j],
          problem: 'undeclared-argument',
          message: `has a \`where\` that requires argument ${code(name)}, which ${code(tool.name)}'s parameter schema does not declare, so no valid call has it; use a declared argument`,
        });
      }
    });
  }
  const props = isJsonObject(where.properties) ? where.properties : {};
  const toolRequired = d && Array.isArray(d.root.required) ? d.root.required : [];
  for (const [name, sub] of Object.entries(props)) {
    if (!isJsonObject(sub)) continue;
    const mustHave = required.includes(name) || toolRequired.includes(name) || Object.prototype.hasOwnProperty.call(p.argumentValues, name);
    // A property every call has (the tool or the pattern requires it) whose `where` schema nothing satisfies.
    if (mustHave && !required.includes(name)) {
      const [culprit] = unsatisfiable(sub);
      if (culprit) {
        out.push({ path: ['where', 'properties', name, ...culprit.path], problem: 'unsatisfiable-where', message: `has a \`where\` that no value of ${code(name)} can satisfy, and every call has one: ${culprit.message}` });
        continue;
      }
    }
    if (mustHave && d && Object.prototype.hasOwnProperty.call(d.properties, name)) {
      if ('const' in sub && rejects(d.root, name, sub.const)) {
        out.push({ path: ['where', 'properties', name, 'const'], problem: 'rejected-value', message: `has a \`where\` that requires ${code(name)} to be ${code(JSON.stringify(sub.const) ?? '', 40)}, a value ${code(tool.name)}'s own parameter schema rejects; match a value the tool accepts` });
      } else if (Array.isArray(sub.enum) && sub.enum.length > 0 && sub.enum.every((v) => rejects(d.root, name, v))) {
        out.push({ path: ['where', 'properties', name, 'enum'], problem: 'rejected-value', message: `has a \`where\` that allows ${code(name)} only values ${code(tool.name)}'s own parameter schema rejects; match values the tool accepts` });
      }
    }
    if (Object.prototype.hasOwnProperty.call(p.argumentValues, name)) {
      const pred = compilePredicate(isJsonObject(where.$defs) || isJsonObject(where.definitions) ? { ...sub, $defs: where.$defs, definitions: where.definitions } : sub);
      if (rejectsAllTwins(pred, p.argumentValues, name)) {
        out.push({ path: ['arguments', name], problem: 'rejected-value', message: `requires ${code(name)} to be ${code(JSON.stringify(p.argumentValues[name]) ?? '', 40)}, which the pattern's own \`where\` rejects, so both can never hold; drop one of them` });
      }
    }
  }
  return out;
}

function respondLiveness(p: RespondPattern): Liveness {
  const pred = p.respond;
  const broken = predicateDead(pred, ['respond'], 'a `respond` schema');
  if (broken) return { state: 'dead', reasons: [broken] };
  if (pred.state === 'too-complex') return { state: 'unknown', why: 'too-complex', reason: `its \`respond\` schema is too complex to check (${pred.reason})`, path: ['respond'] };
  const s = pred.schema;
  const noString = (path: JsonPath, why: string): Liveness => ({
    state: 'dead',
    reasons: [{ path: ['respond', ...path], problem: 'respond-no-string', message: `has a \`respond\` schema that accepts no string (${why}), so no final answer can match it; describe the answer's text` }],
  });
  const excluded = excludesKind(s, 'string', 0, pred);
  if (excluded) return noString(excluded.path, excluded.why);
  if (isJsonObject(s)) {
    const culprits = unsatisfiable(s);
    if (culprits.length) return noString(culprits[0].path, escapeText(culprits[0].message, 100));
  }
  return LIVE;
}

/**
 * A pattern's liveness for the tools it was judged with: a pattern belongs to one case, so nearly
 * always one set of tools, kept beside it; a map only for the others (a WeakMap a pattern was
 * 300 bytes, 15,000 of them at 10,000 cases).
 */
interface Judged {
  tools: CaseTools;
  liveness: Liveness;
  others?: WeakMap<CaseTools, Liveness>;
}
const liveness = new WeakMap<ActionPattern, Judged>();

/** Whether a pattern can match any call the case could make. */
export function patternLiveness(p: ActionPattern, tools: CaseTools): Liveness {
  const judge = () => (p.kind === 'respond' ? respondLiveness(p) : callLiveness(p, tools));
  const known = liveness.get(p);
  if (!known) {
    const l = judge();
    liveness.set(p, { tools, liveness: l });
    return l;
  }
  if (known.tools === tools) return known.liveness;
  let l = known.others?.get(tools);
  if (!l) (known.others ??= new WeakMap()).set(tools, (l = judge()));
  return l;
}

/** The patterns of a case that can match (or may: the linter cannot always tell). */
export function livePatterns(patterns: readonly ActionPattern[], tools: CaseTools): readonly ActionPattern[] {
  const live = patterns.filter((p) => patternLiveness(p, tools).state !== 'dead');
  // Nearly always every one: the case's own list rather than a copy of it, kept by its scorer.
  return live.length === patterns.length ? patterns : live;
}
