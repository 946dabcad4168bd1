import { compareDiagnostics, configDocuments, pluginEntries, resolveLocation, type LintDiagnostic, type Rule, type WorkspaceIndex } from '../core';
import { loadPlugins, PLUGINS_DOCS_URL, pluginScope, type LoadedPlugins } from '../node/plugins';

/** What the configs' `plugins` give one lint: rules to run, and what to say on the configs. */
export interface ServerPlugins {
  rules: Rule[];
  /** Diagnostics on config files: a plugin that cannot load, or plugins not run (untrusted). */
  notes: Map<string, LintDiagnostic[]>;
  loaded?: LoadedPlugins;
}

const NONE: ServerPlugins = { rules: [], notes: new Map() };

function note(index: WorkspaceIndex, uri: string, entry: number, severity: LintDiagnostic['severity'], message: string): LintDiagnostic | undefined {
  const doc = index.docs.get(uri);
  if (!doc) return undefined;
  const at = resolveLocation(doc, { uri, root: 0, path: ['plugins', entry] });
  // Not a rule's finding: the code names the config key, and the link explains plugins.
  return { uri, range: at.range, offset: at.offset, length: at.length, severity, code: 'plugins', message, docsUrl: PLUGINS_DOCS_URL, related: [], fixes: [] };
}

/**
 * The plugins of the workspace's configs. Code from a suite's repository runs only where the
 * editor trusts it (VS Code: a trusted workspace; other editors: `initializationOptions.trust`);
 * elsewhere each entry says, on the config, that it did not run.
 */
export async function pluginsOf(index: WorkspaceIndex, trusted: boolean): Promise<ServerPlugins> {
  const configs = configDocuments(index).filter((d) => pluginEntries(d).length);
  if (!configs.length) return NONE;
  const notes = new Map<string, LintDiagnostic[]>();
  const add = (d: LintDiagnostic | undefined) => d && notes.set(d.uri, [...(notes.get(d.uri) ?? []), d]);
  if (!trusted) {
    for (const doc of configs) {
      for (const e of pluginEntries(doc)) add(note(index, doc.uri, e.index, 'info', `plugin ${JSON.stringify(e.specifier).slice(0, 120)} not run: this workspace is not trusted, and a plugin is code from it (trust the workspace to run it)`));
    }
    return { rules: [], notes };
  }
  const loaded = await loadPlugins(index);
  for (const p of loaded.problems) add(note(index, p.configUri, p.index, 'error', `plugin not loaded: ${p.message.slice(0, 300)}; its rules did not run`));
  return { rules: loaded.rules, notes, loaded };
}

/**
 * The lint's diagnostics by file with the plugins' findings kept to where their config applies
 * and the notes on the configs added. An unchanged list stays the same array.
 */
export function withPlugins(byUri: ReadonlyMap<string, readonly LintDiagnostic[]>, plugins: ServerPlugins, index: WorkspaceIndex): ReadonlyMap<string, readonly LintDiagnostic[]> {
  if (!plugins.rules.length && !plugins.notes.size) return byUri;
  const inScope = plugins.loaded ? pluginScope(plugins.loaded, index) : () => true;
  const out = new Map<string, readonly LintDiagnostic[]>();
  for (const [uri, list] of byUri) {
    const kept = list.filter(inScope);
    const notes = plugins.notes.get(uri);
    out.set(uri, notes ? [...kept, ...notes].sort(compareDiagnostics) : kept.length === list.length ? list : kept);
  }
  for (const [uri, notes] of plugins.notes) if (!out.has(uri)) out.set(uri, notes);
  return out;
}
