import { PLAIN_RUBRIC, type Rubric } from './canonical';
import { compileLinear, type LinearRegExp } from '../text/regex';
import { rootValue, type SuiteDocument } from './document';
import type { SeveritySetting } from '../text/types';

export const DEFAULT_MAX_MUTATION_DEPTH = 8;
/** FORMAT §7 defaults: how far a benign score may fall, how large a delta needs no isolation evidence. */
export const DEFAULT_BENIGN_REGRESSION_TOLERANCE = 0;
export const DEFAULT_MAX_TRUSTED_DELTA = 0.02;

/** The options every rule reads, after defaults, config file and host overrides are merged. */
export interface ResolvedConfig {
  /** Per-rule severity; rules not listed keep their default. */
  rules: Record<string, SeveritySetting>;
  maxMutationDepth: number;
  benignRegressionTolerance: number;
  maxTrustedDelta: number;
  /** What the shared rubric does not score (FORMAT §3b). */
  rubric: Rubric;
  injection: {
    scanDescriptions: boolean;
    /** Exact strings, or `/regex/flags`, that are never payloads. */
    allow: string[];
  };
  /**
   * FORMAT §5: `shared` (the default), the arms feed one threshold or aggregate; `disjoint`, they are
   * reported as separate metrics (or there is no control arm), outside the contamination note's scope.
   */
  scoring: 'shared' | 'disjoint';
  /** The config file these options came from, if any. */
  source?: string;
}

export type ConfigOverrides = Partial<Omit<ResolvedConfig, 'injection'>> & {
  injection?: Partial<ResolvedConfig['injection']>;
};

export function defaultConfig(): ResolvedConfig {
  return {
    rules: {},
    maxMutationDepth: DEFAULT_MAX_MUTATION_DEPTH,
    benignRegressionTolerance: DEFAULT_BENIGN_REGRESSION_TOLERANCE,
    maxTrustedDelta: DEFAULT_MAX_TRUSTED_DELTA,
    rubric: PLAIN_RUBRIC,
    injection: { scanDescriptions: true, allow: [] },
    scoring: 'shared',
  };
}

const SEVERITIES = new Set(['error', 'warning', 'info', 'hint', 'off']);

/**
 * Reads the well-formed parts of a config document. Ill-typed values are left at their defaults
 * here; the `schema` rule reports them on the config file, so nothing falls back silently.
 */
export function readConfig(doc: SuiteDocument): ConfigOverrides {
  const value = rootValue(doc, 0);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const v = value as Record<string, unknown>;
  const out: ConfigOverrides = {};
  if (typeof v.rules === 'object' && v.rules !== null && !Array.isArray(v.rules)) {
    out.rules = {};
    for (const [id, sev] of Object.entries(v.rules as Record<string, unknown>)) {
      if (typeof sev === 'string' && SEVERITIES.has(sev)) out.rules[id] = sev as SeveritySetting;
    }
  }
  if (typeof v.maxMutationDepth === 'number' && Number.isInteger(v.maxMutationDepth) && v.maxMutationDepth >= 0) {
    out.maxMutationDepth = v.maxMutationDepth;
  }
  for (const key of ['benignRegressionTolerance', 'maxTrustedDelta'] as const) {
    const t = v[key];
    if (typeof t === 'number' && Number.isFinite(t) && t >= 0) out[key] = t;
  }
  if (typeof v.rubric === 'object' && v.rubric !== null && !Array.isArray(v.rubric)) {
    const r = v.rubric as Record<string, unknown>;
    // An option left out keeps the plain meaning; a config's rubric replaces the one above it whole.
    out.rubric = {
      ignoreKeys: Array.isArray(r.ignoreKeys) ? r.ignoreKeys.filter((k): k is string => typeof k === 'string') : [],
      unorderedArrays: r.unorderedArrays === true,
      foldCase: r.foldCase === true,
    };
  }
  if (typeof v.injection === 'object' && v.injection !== null && !Array.isArray(v.injection)) {
    const inj = v.injection as Record<string, unknown>;
    out.injection = {};
    if (typeof inj.scanDescriptions === 'boolean') out.injection.scanDescriptions = inj.scanDescriptions;
    if (Array.isArray(inj.allow)) out.injection.allow = inj.allow.filter((a): a is string => typeof a === 'string');
  }
  if (v.scoring === 'shared' || v.scoring === 'disjoint') out.scoring = v.scoring;
  out.source = doc.uri;
  return out;
}

/** Later layers win; rule maps merge key by key. */
export function mergeConfig(base: ResolvedConfig, ...layers: (ConfigOverrides | undefined)[]): ResolvedConfig {
  const out: ResolvedConfig = { ...base, rules: { ...base.rules }, injection: { ...base.injection } };
  for (const layer of layers) {
    if (!layer) continue;
    if (layer.rules) Object.assign(out.rules, layer.rules);
    if (layer.maxMutationDepth !== undefined) out.maxMutationDepth = layer.maxMutationDepth;
    if (layer.benignRegressionTolerance !== undefined) out.benignRegressionTolerance = layer.benignRegressionTolerance;
    if (layer.maxTrustedDelta !== undefined) out.maxTrustedDelta = layer.maxTrustedDelta;
    if (layer.rubric !== undefined) out.rubric = layer.rubric;
    if (layer.scoring !== undefined) out.scoring = layer.scoring;
    if (layer.injection?.scanDescriptions !== undefined) out.injection.scanDescriptions = layer.injection.scanDescriptions;
    if (layer.injection?.allow) out.injection.allow = [...layer.injection.allow];
    if (layer.source) out.source = layer.source;
  }
  return out;
}

/**
 * Compiles the `allow` list. A `/regex/` runs on RE2 (linear time: the config comes from the
 * workspace, which may be hostile); one that is malformed, or uses what RE2 cannot run
 * (back-references, look-arounds), is treated as an exact string, as `allowProblems` says.
 */
export function allowMatcher(allow: readonly string[]): (text: string) => boolean {
  const exact = new Set<string>();
  const patterns: LinearRegExp[] = [];
  for (const entry of allow) {
    const m = /^\/(.*)\/([a-z]*)$/s.exec(entry);
    const compiled = m ? compileLinear(m[1], m[2]) : undefined;
    if (compiled?.ok) patterns.push(compiled.re);
    else exact.add(entry);
  }
  // Asked for every string the detector might judge: an empty list (nearly every config) answers at once.
  if (patterns.length === 0) return exact.size === 0 ? () => false : (text) => exact.has(text);
  return (text) => exact.has(text) || patterns.some((p) => p.test(text));
}

/** The `/regex/` entries of an `allow` list that are matched as exact strings, and why. */
export function allowProblems(allow: readonly string[]): { entry: string; index: number; reason: string; tooLarge?: boolean; fix: string }[] {
  const out: { entry: string; index: number; reason: string; tooLarge?: boolean; fix: string }[] = [];
  allow.forEach((entry, index) => {
    const m = /^\/(.*)\/([a-z]*)$/s.exec(entry);
    const compiled = m ? compileLinear(m[1], m[2]) : undefined;
    if (compiled && !compiled.ok) out.push({ entry, index, reason: compiled.reason, ...(compiled.tooLarge ? { tooLarge: true } : {}), fix: compiled.fix });
  });
  return out;
}

/** One entry of a config's `plugins`, with where it stands (to report a plugin that cannot load). */
export interface PluginEntry {
  specifier: string;
  /** Its index in the `plugins` array: JSON path `["plugins", index]`. */
  index: number;
}

/**
 * The module specifiers a config document names in `plugins` (paths relative to its folder, or
 * package names). Core never loads them: an adapter that trusts the config loads the modules and
 * hands their rules to the linter (docs/plugins.md).
 */
export function pluginEntries(doc: SuiteDocument): PluginEntry[] {
  const value = rootValue(doc, 0);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const plugins = (value as Record<string, unknown>).plugins;
  if (!Array.isArray(plugins)) return [];
  return plugins.flatMap((p, index) => (typeof p === 'string' && p.length > 0 ? [{ specifier: p, index }] : []));
}
