import type { ConfigOverrides, SeveritySetting } from '../core';

/** The `litmus.*` settings the server reads, per workspace folder. */
export interface ServerSettings {
  /** Off: the folder gets no diagnostics, code actions or hovers (`litmus.enable`). */
  enable: boolean;
  /** Lint as the user types (debounced) or only when a file is saved. */
  run: 'onType' | 'onSave';
  /** Rule severities, beneath any `litmus.config.json`. */
  rules: Record<string, SeveritySetting>;
  maxMutationDepth?: number;
  /** Files larger than this many bytes get one diagnostic instead of being parsed. */
  maxFileSize: number;
}

export const DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024;

const SEVERITIES = new Set(['error', 'warning', 'info', 'hint', 'off']);

export function defaultSettings(): ServerSettings {
  return { enable: true, run: 'onType', rules: {}, maxFileSize: DEFAULT_MAX_FILE_SIZE };
}

/** Reads what the client sent; ill-typed values fall back to the defaults, never throw. */
export function readSettings(raw: unknown): ServerSettings {
  const out = defaultSettings();
  if (typeof raw !== 'object' || raw === null) return out;
  const v = raw as Record<string, unknown>;
  if (v.enable === false) out.enable = false;
  if (v.run === 'onSave' || v.run === 'onType') out.run = v.run;
  if (typeof v.rules === 'object' && v.rules !== null && !Array.isArray(v.rules)) {
    for (const [id, sev] of Object.entries(v.rules as Record<string, unknown>)) {
      if (typeof sev === 'string' && SEVERITIES.has(sev)) out.rules[id] = sev as SeveritySetting;
    }
  }
  if (typeof v.maxMutationDepth === 'number' && Number.isInteger(v.maxMutationDepth) && v.maxMutationDepth >= 0) {
    out.maxMutationDepth = v.maxMutationDepth;
  }
  if (typeof v.maxFileSize === 'number' && Number.isFinite(v.maxFileSize) && v.maxFileSize > 0) out.maxFileSize = v.maxFileSize;
  return out;
}

/** Settings as core's host defaults: a `litmus.config.json` still wins over them. */
export function toBaseConfig(s: ServerSettings): ConfigOverrides {
  const out: ConfigOverrides = { rules: { ...s.rules } };
  if (s.maxMutationDepth !== undefined) out.maxMutationDepth = s.maxMutationDepth;
  return out;
}
