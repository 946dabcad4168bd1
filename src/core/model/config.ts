import { rootValue, type SuiteDocument } from './document';
import type { SeveritySetting } from '../text/types';

export const DEFAULT_MAX_MUTATION_DEPTH = 8;

/** The options every rule reads, after defaults, config file and host overrides are merged. */
export interface ResolvedConfig {
  /** Per-rule severity; rules not listed keep their default. */
  rules: Record<string, SeveritySetting>;
  maxMutationDepth: number;
  injection: {
    scanDescriptions: boolean;
    /** Exact strings, or `/regex/flags`, that are never payloads. */
    allow: string[];
  };
  /** The config file these options came from, if any. */
  source?: string;
}

export type ConfigOverrides = Partial<Omit<ResolvedConfig, 'injection'>> & {
  injection?: Partial<ResolvedConfig['injection']>;
};

export function defaultConfig(): ResolvedConfig {
  return { rules: {}, maxMutationDepth: DEFAULT_MAX_MUTATION_DEPTH, injection: { scanDescriptions: true, allow: [] } };
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
  if (typeof v.injection === 'object' && v.injection !== null && !Array.isArray(v.injection)) {
    const inj = v.injection as Record<string, unknown>;
    out.injection = {};
    if (typeof inj.scanDescriptions === 'boolean') out.injection.scanDescriptions = inj.scanDescriptions;
    if (Array.isArray(inj.allow)) out.injection.allow = inj.allow.filter((a): a is string => typeof a === 'string');
  }
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
    if (layer.injection?.scanDescriptions !== undefined) out.injection.scanDescriptions = layer.injection.scanDescriptions;
    if (layer.injection?.allow) out.injection.allow = [...layer.injection.allow];
    if (layer.source) out.source = layer.source;
  }
  return out;
}

/** Compiles the `allow` list; a malformed `/regex/` is treated as an exact string. */
export function allowMatcher(allow: readonly string[]): (text: string) => boolean {
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of allow) {
    const m = /^\/(.*)\/([a-z]*)$/s.exec(entry);
    if (m) {
      try {
        patterns.push(new RegExp(m[1], m[2].replace(/[gy]/g, '')));
        continue;
      } catch {
        // falls through to exact match
      }
    }
    exact.add(entry);
  }
  return (text) => exact.has(text) || patterns.some((p) => p.test(text));
}
