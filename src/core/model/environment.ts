import { isJsonObject } from './canonical';
import { rootValue, type SuiteDocument } from './document';
import { parsePointer } from '../text/pointer';
import type { JsonPath } from '../text/types';

/**
 * Environments (FORMAT §3, §3a): the state an agent starts from. A case names an environment file
 * by a relative path, or writes its environment inline; its `environment_overrides` then replace
 * values (or add keys to objects) by JSON pointer. The *effective* environment is the base with the
 * overrides applied in the order written.
 */

/** An environment file of the workspace: one JSON value, shared by the cases that reference it. */
export interface EnvironmentFile {
  doc: SuiteDocument;
  /** The file's value; undefined when it does not parse (parse-error reports it). */
  value: unknown;
  broken: boolean;
}

/** How a case's `environment` resolved. */
export interface EnvironmentUse {
  /** Path of the `environment` value (from the case's document root). */
  path: JsonPath;
  /** The value is the environment itself rather than a reference. */
  inline: boolean;
  /** The reference string, for a reference. */
  ref?: string;
  /** The file a reference names (normalised URI), when well-formed. */
  targetUri?: string;
  file?: EnvironmentFile;
  /**
   * Why a reference did not resolve. `outside-workspace`: it leads out of the confinement roots, so
   * it was not read; `broken-file`: the file does not parse (parse-error reports it there).
   */
  problem?: 'malformed' | 'missing-file' | 'unreadable' | 'not-an-environment-file' | 'outside-workspace' | 'broken-file';
}

/** One entry of a case's `environment_overrides`. */
export interface Override {
  /** The key as written. */
  key: string;
  /** Its pointer tokens; undefined when the key is not an RFC 6901 pointer (the schema rule reports it). */
  tokens?: string[];
  /** Path of the entry's value (from the case's document root); its key is where key findings point. */
  path: JsonPath;
  value: unknown;
}

const environmentFiles = new WeakMap<SuiteDocument, EnvironmentFile>();

export function readEnvironmentFile(doc: SuiteDocument): EnvironmentFile {
  let file = environmentFiles.get(doc);
  if (!file) {
    const root = doc.parsed.roots[0];
    const broken = !root || root.broken;
    file = { doc, value: broken ? undefined : rootValue(doc, 0), broken };
    environmentFiles.set(doc, file);
  }
  return file;
}

const NO_OVERRIDES: readonly Override[] = [];
const overrideCache = new WeakMap<object, readonly Override[]>();

/** A case's overrides in the order written (none when the field is absent or not an object). */
export function overridesOf(caseValue: Record<string, unknown>, casePath: JsonPath): readonly Override[] {
  const raw = caseValue.environment_overrides;
  if (!isJsonObject(raw)) return NO_OVERRIDES;
  // A case's overrides object is the same object while its document is unchanged.
  const cached = overrideCache.get(raw);
  if (cached) return cached;
  const out: Override[] = [];
  for (const [key, value] of Object.entries(raw)) out.push({ key, tokens: parsePointer(key), path: [...casePath, 'environment_overrides', key], value });
  overrideCache.set(raw, out);
  return out;
}

const ABSENT = Symbol('absent');
type Found = unknown | typeof ABSENT;

function step(value: unknown, token: string): Found {
  if (Array.isArray(value)) {
    if (!/^(0|[1-9][0-9]*)$/.test(token)) return ABSENT;
    const i = Number(token);
    return i < value.length ? value[i] : ABSENT;
  }
  if (isJsonObject(value) && Object.prototype.hasOwnProperty.call(value, token)) return value[token];
  return ABSENT;
}

function walk(value: unknown, tokens: readonly string[], from = 0): Found {
  let v: Found = value;
  for (let i = from; i < tokens.length; i++) {
    if (v === ABSENT) return ABSENT;
    v = step(v, tokens[i]);
  }
  return v;
}

function isPrefix(prefix: readonly string[], tokens: readonly string[]): boolean {
  if (prefix.length > tokens.length) return false;
  for (let i = 0; i < prefix.length; i++) if (prefix[i] !== tokens[i]) return false;
  return true;
}

/**
 * The value at `tokens` in the base with the first `count` overrides applied, without building it:
 * the latest override at or above the place decides, else the base.
 */
function lookup(base: Found, overrides: readonly Override[], count: number, tokens: readonly string[]): Found {
  for (let i = count - 1; i >= 0; i--) {
    const o = overrides[i];
    if (o.tokens && isPrefix(o.tokens, tokens)) return walk(o.value, tokens, o.tokens.length);
  }
  return base === ABSENT ? ABSENT : walk(base, tokens);
}

/**
 * Whether override `i` lands somewhere: the root pointer always does; any other pointer needs a
 * parent that is an object (a new key is added, an existing one replaced) or an array it indexes
 * (an existing index, or `-` / the length to append). `base` undefined: the case has no environment.
 */
export function overrideResolves(base: unknown, hasBase: boolean, overrides: readonly Override[], i: number): boolean {
  return overrideProblem(base, hasBase, overrides, i) === undefined;
}

/**
 * Why override `i` lands nowhere: `no-parent` (nothing at its parent), `scalar-parent` (its parent
 * is a string, number, boolean or null, which has no keys), `bad-index` (its parent is an array and
 * its last token is not an index within it, `-` or the array's length); undefined when it lands.
 */
export function overrideProblem(base: unknown, hasBase: boolean, overrides: readonly Override[], i: number): 'not-a-pointer' | 'no-parent' | 'scalar-parent' | 'bad-index' | undefined {
  const tokens = overrides[i].tokens;
  if (!tokens) return 'not-a-pointer';
  if (tokens.length === 0) return undefined;
  const parent = lookup(hasBase ? base : ABSENT, overrides, i, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1];
  if (parent === ABSENT) return 'no-parent';
  if (Array.isArray(parent)) return last === '-' || (/^(0|[1-9][0-9]*)$/.test(last) && Number(last) <= parent.length) ? undefined : 'bad-index';
  return isJsonObject(parent) ? undefined : 'scalar-parent';
}

/** Whether the string at `path` of the base environment is gone from the effective one: an override at or above it replaced it. */
export function replacedByOverrides(path: JsonPath, overrides: readonly Override[]): boolean {
  for (const o of overrides) {
    if (!o.tokens || o.tokens.length > path.length) continue;
    let prefix = true;
    for (let k = 0; k < o.tokens.length; k++) {
      if (o.tokens[k] !== String(path[k])) {
        prefix = false;
        break;
      }
    }
    if (prefix) return true;
  }
  return false;
}

function setIn(value: unknown, tokens: readonly string[], at: number, replacement: unknown): unknown {
  if (at === tokens.length) return replacement;
  const token = tokens[at];
  if (Array.isArray(value)) {
    const copy = value.slice();
    const i = token === '-' ? copy.length : Number(token);
    copy[i] = setIn(copy[i], tokens, at + 1, replacement);
    return copy;
  }
  const obj = isJsonObject(value) ? value : {};
  const copy: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(obj)) copy[k] = v;
  copy[token] = setIn(obj[token], tokens, at + 1, replacement);
  return copy;
}

/**
 * The effective environment: `base` with every override that lands applied in order. Shares every
 * value an override does not touch with the base (only the spine down to each change is copied), so
 * it costs the overrides' depth, not the environment's size. Overrides that do not land are skipped.
 */
export function effectiveEnvironment(base: unknown, hasBase: boolean, overrides: readonly Override[]): unknown {
  let env: unknown = hasBase ? base : undefined;
  let present = hasBase;
  overrides.forEach((o, i) => {
    if (!o.tokens || !overrideResolves(base, hasBase, overrides, i)) return;
    env = setIn(present ? env : undefined, o.tokens, 0, o.value);
    present = true;
  });
  return env;
}
