import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { configDocuments, normalizeUri, pluginEntries, RULES, uriToPath, type LintDiagnostic, type Rule, type RuleMeta, type WorkspaceIndex } from '../core';

/** Where plugins are documented: the link of every problem with one. */
export const PLUGINS_DOCS_URL = 'https://github.com/litmus-lint/litmus-lint/blob/main/docs/plugins.md';

/** A plugin rule's id: a namespace of its own, then the rule (`my-team/no-todo-task`). */
const PLUGIN_RULE_ID = /^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/;
const SEVERITIES = new Set(['error', 'warning', 'info', 'hint']);

export interface PluginProblem {
  /** The config file that names the plugin, and the entry's index in its `plugins`. */
  configUri: string;
  index: number;
  specifier: string;
  message: string;
}

export interface LoadedPlugins {
  /** Every plugin rule, once, in the order the configs name them. */
  rules: Rule[];
  /** The plugin rule ids each config file (by URI) brings: its findings stay where it applies. */
  byConfig: Map<string, Set<string>>;
  problems: PluginProblem[];
}

/**
 * Loads a module with Node's require, which loads ES modules too from Node 20.19 (without top-level
 * await). `import()` would not do: the CLI runs as a vm script (src/cli/launch.ts), where Node 20
 * allows it only behind an experimental flag. A CommonJS module is read afresh after an edit; an ES
 * module stays as first loaded until the process ends (restart the language server after editing).
 */
function requireModule(path: string): Record<string, unknown> {
  const load = createRequire(path);
  delete load.cache[path];
  try {
    return load(path) as Record<string, unknown>;
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_REQUIRE_ESM') throw new Error(`it is an ES module, which needs Node.js 20.19 or newer (this is ${process.version}); or write it as CommonJS (.cjs)`);
    throw e;
  }
}

/** The file a specifier names, seen from the config's folder: a relative path, or a package. */
function resolveSpecifier(specifier: string, configPath: string): string {
  const base = dirname(configPath);
  if (specifier.startsWith('.') || isAbsolute(specifier)) return resolve(base, specifier);
  return createRequire(join(base, 'litmus.config.json')).resolve(specifier);
}

/** The rules a module exports: `rules`, or a default export that is (or holds) the list. */
function exportedRules(mod: Record<string, unknown>): unknown[] | undefined {
  const def = mod.default as Record<string, unknown> | unknown[] | undefined;
  const list = mod.rules ?? (Array.isArray(def) ? def : (def as Record<string, unknown> | undefined)?.rules);
  return Array.isArray(list) ? list : undefined;
}

/** The rule in our own shape (`meta` + `check`), or why it is not one. */
function checkRule(value: unknown): Rule | string {
  const r = value as { meta?: Partial<RuleMeta>; check?: unknown } | null;
  const meta = r?.meta;
  if (!r || typeof r !== 'object' || !meta || typeof meta !== 'object') return 'a rule is not an object with `meta` and `check`';
  const id = typeof meta.id === 'string' ? meta.id : '';
  if (!PLUGIN_RULE_ID.test(id)) return `rule id ${JSON.stringify(meta.id ?? null).slice(0, 80)} is not "namespace/rule" (lower-case letters, digits and hyphens)`;
  if (typeof r.check !== 'function') return `rule ${id} has no check(ctx) function`;
  if (!SEVERITIES.has(meta.defaultSeverity as string)) return `rule ${id}: defaultSeverity must be error, warning, info or hint`;
  if (typeof meta.description !== 'string' || !meta.description.trim()) return `rule ${id}: meta.description is missing`;
  if (meta.docsUrl !== undefined && (typeof meta.docsUrl !== 'string' || !/^https?:\/\//.test(meta.docsUrl))) return `rule ${id}: meta.docsUrl must be an http(s) URL`;
  const check = r.check as Rule['check'];
  return {
    meta: {
      id,
      defaultSeverity: meta.defaultSeverity as RuleMeta['defaultSeverity'],
      description: meta.description,
      from: typeof meta.from === 'string' && meta.from ? meta.from : 'plugin',
      ...(typeof meta.securitySeverity === 'number' ? { securitySeverity: meta.securitySeverity } : {}),
      ...(meta.docsUrl ? { docsUrl: meta.docsUrl } : {}),
    },
    check: (ctx) => check.call(r, ctx),
  };
}

/**
 * Loads the modules every config file of the workspace names in `plugins` (docs/plugins.md) and
 * returns their rules for core to run. Called only where those configs are trusted: the CLI unless
 * `--no-plugins`, the editor in a trusted workspace.
 */
export async function loadPlugins(index: WorkspaceIndex): Promise<LoadedPlugins> {
  const out: LoadedPlugins = { rules: [], byConfig: new Map(), problems: [] };
  const byId = new Map<string, { rule: Rule; from: string }>();
  for (const doc of [...configDocuments(index)].sort((a, b) => (a.uri < b.uri ? -1 : 1))) {
    const entries = pluginEntries(doc);
    if (!entries.length) continue;
    const ids = new Set<string>();
    out.byConfig.set(doc.uri, ids);
    for (const { specifier, index: i } of entries) {
      const problem = (message: string) => out.problems.push({ configUri: doc.uri, index: i, specifier, message });
      let path: string;
      let mod: Record<string, unknown>;
      try {
        path = resolveSpecifier(specifier, uriToPath(doc.uri));
        mod = requireModule(path);
      } catch (e) {
        problem(`cannot load ${specifier}: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`);
        continue;
      }
      const list = exportedRules(mod);
      if (!list) {
        problem(`${specifier} exports no rules (export const rules = [...], or module.exports = { rules })`);
        continue;
      }
      for (const value of list) {
        const rule = checkRule(value);
        if (typeof rule === 'string') {
          problem(`${specifier}: ${rule}`);
          continue;
        }
        if (RULES.has(rule.meta.id)) {
          problem(`${specifier}: ${rule.meta.id} is a built-in rule's id`);
          continue;
        }
        const seen = byId.get(rule.meta.id);
        if (seen && seen.from !== path) {
          problem(`${specifier}: rule ${rule.meta.id} is also defined by ${seen.from}`);
          continue;
        }
        if (!seen) {
          byId.set(rule.meta.id, { rule, from: path });
          out.rules.push(rule);
        }
        ids.add(rule.meta.id);
      }
    }
  }
  return out;
}

/**
 * Keeps a plugin rule's findings to the files its config applies to: a plugin named in one suite's
 * config does not speak in another suite that did not ask for it.
 */
export function pluginScope(plugins: LoadedPlugins, index: WorkspaceIndex): (d: LintDiagnostic) => boolean {
  const pluginIds = new Set(plugins.rules.map((r) => r.meta.id));
  return (d) => {
    if (!pluginIds.has(d.code)) return true;
    const source = index.configFor(d.uri).source;
    return source !== undefined && (plugins.byConfig.get(normalizeUri(source))?.has(d.code) ?? false);
  };
}
