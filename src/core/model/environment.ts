import { isJsonObject } from './canonical';
import { rootValue, type SuiteDocument } from './document';
import { parsePointer } from '../text/pointer';
import type { JsonPath } from '../text/types';
import { trimmed } from '../text/multimap';

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

/**
 * How a case's `environment` resolved. The same object for every case of a folder that names the
 * same file (and one for every inline environment): the value is at the case's `environment`.
 */
export interface EnvironmentUse {
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
  // `map` and `concat` make lists of their exact length: a list grown by push or a spread keeps room to spare, per case.
  const out: Override[] = Object.entries(raw).map(([key, value]) => ({ key, tokens: parsePointer(key), path: casePath.concat('environment_overrides', key), value }));
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

type Problem = 'not-a-pointer' | 'no-parent' | 'scalar-parent' | 'bad-index';

/** Where each override lands, read in order: its pointer with `-` spelt as the index it appends at, or why it lands nowhere. */
interface Landing {
  tokens?: readonly string[];
  problem?: Problem;
}

const pathKey = (tokens: readonly string[], length = tokens.length): string => JSON.stringify(tokens.slice(0, length));

/**
 * Resolves every override in the order written, without building the environment: the value at a
 * place is decided by the latest override that landed at or above it, else the base. An override
 * that appends (`-`, or the array's length) adds index N, so a later pointer into `/…/N/…` finds
 * it: the array's length counts the appends made since its value was last set.
 */
function land(base: unknown, hasBase: boolean, overrides: readonly Override[]): Landing[] {
  /** The latest landed override per resolved pointer. */
  const latest = new Map<string, number>();
  /** The last append per array (resolved pointer of the array): which override, at which index. */
  const appended = new Map<string, { at: number; index: number }>();
  const out: Landing[] = [];
  /** The value at `tokens`, and the override that decided it (-1: the base). */
  const lookup = (tokens: readonly string[]): { value: Found; by: number } => {
    let by = -1;
    let depth = 0;
    for (let n = 0; n <= tokens.length; n++) {
      const j = latest.get(pathKey(tokens, n));
      if (j !== undefined && j > by) {
        by = j;
        depth = n;
      }
    }
    if (by >= 0) return { value: walk(overrides[by].value, tokens, depth), by };
    return { value: hasBase ? walk(base, tokens) : ABSENT, by };
  };
  overrides.forEach((o, i) => {
    const tokens = o.tokens;
    let landing: Landing;
    if (!tokens) landing = { problem: 'not-a-pointer' };
    else if (tokens.length === 0) landing = { tokens };
    else {
      const parentTokens = tokens.slice(0, -1);
      const { value: parent, by } = lookup(parentTokens);
      const last = tokens[tokens.length - 1];
      if (parent === ABSENT) landing = { problem: 'no-parent' };
      else if (Array.isArray(parent)) {
        const key = pathKey(parentTokens);
        const append = appended.get(key);
        const length = append && append.at > by ? append.index + 1 : parent.length;
        const index = last === '-' ? length : /^(0|[1-9][0-9]*)$/.test(last) ? Number(last) : -1;
        if (index < 0 || index > length) landing = { problem: 'bad-index' };
        else {
          if (index === length) appended.set(key, { at: i, index });
          landing = { tokens: [...parentTokens, String(index)] };
        }
      } else landing = isJsonObject(parent) ? { tokens } : { problem: 'scalar-parent' };
    }
    if (landing.tokens) latest.set(pathKey(landing.tokens), i);
    out.push(landing);
  });
  return out;
}

const landings = new WeakMap<readonly Override[], { base: unknown; hasBase: boolean; out: Landing[] }>();

function landingsOf(base: unknown, hasBase: boolean, overrides: readonly Override[]): Landing[] {
  const hit = landings.get(overrides);
  if (hit && hit.base === base && hit.hasBase === hasBase) return hit.out;
  const out = trimmed(land(base, hasBase, overrides));
  landings.set(overrides, { base, hasBase, out });
  return out;
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
 * The overrides before it count: an earlier `-` made the array longer.
 */
export function overrideProblem(base: unknown, hasBase: boolean, overrides: readonly Override[], i: number): Problem | undefined {
  return landingsOf(base, hasBase, overrides)[i]?.problem;
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
  const landed = landingsOf(base, hasBase, overrides);
  overrides.forEach((o, i) => {
    const tokens = landed[i].tokens;
    if (!tokens) return;
    env = setIn(present ? env : undefined, tokens, 0, o.value);
    present = true;
  });
  return env;
}
