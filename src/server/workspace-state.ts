import { ALL_RULES, createIncrementalLinter, detectKind, dirnameUri, type FileSystem, findSuiteRoot, holdGuessedRenames, type IncrementalLinter, isUnder, type LintDiagnostic, type LoadResult, loadWorkspace, normalizeUri, reloadFiles, type SuiteRoot, type WorkspaceIndex } from '../core';
import { createChangeLog } from './changes';
import { editorFileSystem, type EditorFileSystem, type OpenText } from './editor-fs';
import { pluginsOf, withPlugins } from './plugins';
import { defaultSettings, toBaseConfig, type ServerSettings } from './settings';

/**
 * All document and index state of the server, and the only place that calls core's loader and
 * linter. The LSP wiring (server.ts) feeds it events and publishes what it returns.
 *
 * The workspace is split into groups: one per workspace folder (its files, references confined to
 * it, its own settings), plus one per open suite file that lies outside every folder. Such a file
 * is linted with its suite (the outermost folder with a `litmus.config.json`, else the repository
 * root, else its own folder: see findSuiteRoot), as the CLI lints a file named alone, and only its findings are shown.
 */
export interface GroupResult {
  group: string;
  /**
   * Diagnostics per file the group owns, every file of the group included (empty lists too). A
   * list that did not change since the group's previous result is the same array.
   */
  byUri: Map<string, readonly LintDiagnostic[]>;
  /** Files that had diagnostics in the previous run of this group and have none now, or left it. */
  cleared: string[];
  /**
   * Set when `byUri` is the map `since` (the group's previous result's) with only the files of
   * `changed` differing: a host that showed `since` need only look at those.
   */
  delta?: { since: ReadonlyMap<string, readonly LintDiagnostic[]>; changed: ReadonlySet<string> };
  files: number;
  durationMs: number;
  finishedAt: number;
  /** The versions of the open documents this run saw. */
  versions: Map<string, number>;
  /** Files over `litmus.maxFileSize`, not linted (each has one diagnostic saying so). */
  oversized: string[];
  /** `litmus.enable` is off for the group: nothing was linted. */
  disabled?: boolean;
  /** The group's folder was walked afresh (its first lint, or files came or went). */
  walked?: boolean;
}

export interface WorkspaceState {
  fs: EditorFileSystem;
  setFolders(uris: string[]): void;
  folders(): string[];
  /** The group that owns `uri`: its innermost workspace folder, else the file itself. */
  groupOf(uri: string): string;
  groups(): string[];
  setSettings(group: string, settings: ServerSettings): void;
  hasSettings(group: string): boolean;
  settingsOf(group: string): ServerSettings;
  clearSettings(): void;
  open(uri: string, text: string, version: number): void;
  change(uri: string, text: string, version: number): void;
  close(uri: string): void;
  openVersion(uri: string): number | undefined;
  isOpen(uri: string): boolean;
  /**
   * Whether the document is one the server lints: a LITMUS file by name or `$schema`, or a file its
   * group's last lint read (a tool file referenced under any name). The client hands the server
   * every JSON document, VS Code's own settings files included; the rest get no work and no waiting.
   */
  lints(uri: string): boolean;
  /** A file-watch event; returns the groups whose results may have changed. */
  fileEvent(uri: string, kind: 'created' | 'changed' | 'deleted'): string[];
  /** Loads and lints one group; undefined when cancelled part-way. */
  lint(group: string, isCancelled: () => boolean): Promise<GroupResult | undefined>;
  /** The last finished diagnostics of a file. */
  diagnostics(uri: string): readonly LintDiagnostic[];
  /** Every diagnostic of the last finished run of a group. */
  groupDiagnostics(group: string): LintDiagnostic[];
  /** The last finished index of a group. */
  index(group: string): WorkspaceIndex | undefined;
  /** The open-document versions the last finished run of the group saw. */
  lintedVersion(uri: string): number | undefined;
  /** The rules the server runs (for clients and tests that adapt to what is available). */
  ruleIds(): string[];
  /**
   * Forgets a group (a loose file was closed, a folder left the workspace); returns the files whose
   * diagnostics must be cleared.
   */
  dropGroup(group: string): string[];
}

/** A group's last finished lint, and what its `byUri` was made from (so the next can be made from it). */
interface GroupRecord {
  byUri: Map<string, readonly LintDiagnostic[]>;
  index: WorkspaceIndex;
  versions: Map<string, number>;
  /** The linter's map the lists came from, and how they were chosen and held. */
  made: { from: ReadonlyMap<string, readonly LintDiagnostic[]>; folders: readonly string[]; loose: boolean; guessed: boolean };
}

export function createWorkspaceState(base: FileSystem, options: { caching: () => boolean; trusted?: () => boolean }): WorkspaceState {
  let folderList: string[] = [];
  const openDocs = new Map<string, OpenText>();
  const settings = new Map<string, ServerSettings>();
  const linters = new Map<string, IncrementalLinter>();
  const results = new Map<string, GroupRecord>();
  const looseGroups = new Set<string>();
  // Plugin rule ids seen so far, for clients that list what runs.
  const lastPluginIds: string[] = [];
  // The suite each loose file is linted in, found at its first lint.
  const looseRoots = new Map<string, SuiteRoot>();
  // What each group's last finished lint loaded, and what changed since: a lint reads just the
  // changed files again when it can, and walks the folder only when files came or went.
  const loads = new Map<string, LoadResult>();
  const changes = createChangeLog();

  const folderOf = (uri: string): string | undefined => {
    let best: string | undefined;
    for (const f of folderList) if (isUnder(uri, f) && (!best || f.length > best.length)) best = f;
    return best;
  };
  // Asked for every file of a group after every lint: kept until the folders change.
  const groups = new Map<string, string>();
  const groupOf = (raw: string): string => {
    let group = groups.get(raw);
    if (group === undefined) {
      const uri = normalizeUri(raw);
      group = folderOf(uri) ?? uri;
      if (groups.size >= 200_000) groups.clear();
      groups.set(raw, group);
    }
    return group;
  };
  const settingsOf = (group: string) => settings.get(group) ?? defaultSettings();
  // The held copy of a list is kept while the list is the same array, so an unchanged file's list
  // still comes back unchanged (the server publishes nothing for it).
  const heldLists = new WeakMap<readonly LintDiagnostic[], readonly LintDiagnostic[]>();
  const held = (list: readonly LintDiagnostic[]) => {
    let out = heldLists.get(list);
    if (!out) heldLists.set(list, (out = list.map(holdGuessedRenames)));
    return out;
  };

  const fs = editorFileSystem(
    base,
    (uri) => openDocs.get(uri),
    () => openDocs.keys(),
    options.caching,
  );

  const state: WorkspaceState = {
    fs,
    setFolders(uris) {
      folderList = [...new Set(uris.map(normalizeUri))];
      groups.clear();
      // Which group owns which file may have changed.
      changes.reloadAll();
    },
    folders: () => [...folderList],
    groupOf,
    groups: () => [...folderList, ...[...looseGroups].filter((g) => !folderOf(g))],
    setSettings: (group, s) => void settings.set(group, s),
    hasSettings: (group) => settings.has(group),
    settingsOf,
    clearSettings: () => settings.clear(),
    open(raw, text, version) {
      const uri = normalizeUri(raw);
      openDocs.set(uri, { text, version });
      changes.file(uri);
      // A LITMUS file outside every folder is linted on its own; any other JSON file there is not.
      if (!folderOf(uri) && detectKind(uri, text)) looseGroups.add(uri);
    },
    change(raw, text, version) {
      const uri = normalizeUri(raw);
      openDocs.set(uri, { text, version });
      changes.file(uri);
      // Gaining a LITMUS `$schema` makes a loose JSON file a LITMUS file.
      if (!folderOf(uri) && !looseGroups.has(uri) && detectKind(uri, text)) looseGroups.add(uri);
    },
    close(raw) {
      // The buffer is gone: what counts now is the file on disk, which the cache may not hold.
      const uri = normalizeUri(raw);
      openDocs.delete(uri);
      fs.invalidate(uri, 'changed');
      changes.file(uri);
    },
    openVersion: (raw) => openDocs.get(normalizeUri(raw))?.version,
    isOpen: (raw) => openDocs.has(normalizeUri(raw)),
    lints(raw) {
      const uri = normalizeUri(raw);
      if (!settingsOf(groupOf(uri)).enable) return false;
      if (detectKind(uri, openDocs.get(uri)?.text)) return true;
      return results.get(groupOf(uri))?.index.docs.has(uri) ?? false;
    },
    fileEvent(raw, kind) {
      const uri = normalizeUri(raw);
      fs.invalidate(uri, kind);
      // A file that came or went changes what a walk finds (it may be a whole folder).
      if (kind === 'changed') changes.file(uri);
      else changes.reloadAll();
      // A suite marker that came or went moves the suite a loose file is linted in.
      if (kind !== 'changed' && /\/(litmus\.config\.json|\.git)$/.test(uri)) looseRoots.clear();
      const folder = folderOf(uri);
      if (folder) return [folder];
      // A file outside every folder matters to the loose groups whose suite holds it.
      return [...looseGroups].filter((g) => isUnder(uri, looseRoots.get(g)?.uri ?? dirnameUri(g)));
    },
    async lint(group, isCancelled) {
      const started = Date.now();
      const loose = !folderList.includes(group);
      const s = settingsOf(group);
      if (!s.enable) {
        // `litmus.enable` off: nothing is read or linted, and what was published goes.
        const previous = results.get(group);
        results.delete(group);
        linters.delete(group);
        loads.delete(group);
        changes.forget(group);
        const cleared = previous ? [...previous.byUri].filter(([, ds]) => ds.length > 0).map(([u]) => u) : [];
        return { group, byUri: new Map(), cleared, files: 0, durationMs: 0, finishedAt: Date.now(), versions: new Map(), oversized: [], disabled: true };
      }
      let suite: SuiteRoot | undefined;
      if (loose) {
        suite = looseRoots.get(group) ?? (await findSuiteRoot(fs, group, false));
        looseRoots.set(group, suite);
      }
      const overlays = new Map<string, { text: string; version: number }>();
      const versions = new Map<string, number>();
      for (const [uri, doc] of openDocs) {
        // A loose file's suite sees every buffer open in it (other loose files of the suite too).
        if (suite ? !isUnder(uri, suite.uri) : groupOf(uri) !== group) continue;
        overlays.set(uri, doc);
        versions.set(uri, doc.version);
      }
      const confine = suite ? [suite.uri] : [group];
      // With nothing to mark its suite, a loose file's folder is read one level deep: walking all
      // below it could mean a home folder or /tmp.
      const reader = suite && !suite.marker ? shallowFolder(fs, suite.uri) : fs;
      const loadOptions = { overlays, confineTo: confine, baseConfig: toBaseConfig(s), maxFileSize: s.maxFileSize, isCancelled };
      const seen = changes.mark();
      const last = loads.get(group);
      const pending = changes.since(group);
      // Without file watching the disk may have changed unannounced: every lint reads it afresh.
      let loaded = last && pending && options.caching() ? await reloadFiles(reader, last, pending, loadOptions) : undefined;
      const walked = !loaded;
      loaded ??= await loadWorkspace(reader, confine, { ...loadOptions, previous: last });
      if (isCancelled()) return undefined;
      // The configs' plugins (docs/plugins.md), only in a trusted workspace.
      const plugins = await pluginsOf(loaded.index, options.trusted?.() ?? false);
      for (const r of plugins.rules) if (!lastPluginIds.includes(r.meta.id)) lastPluginIds.push(r.meta.id);
      if (isCancelled()) return undefined;
      // Per group, so each folder's rules re-run only where its latest changes reach.
      let linter = linters.get(group);
      if (!linter) linters.set(group, (linter = createIncrementalLinter()));
      const linted = linter.lint(loaded.index, { isCancelled, ...(plugins.rules.length ? { rules: [...ALL_RULES, ...plugins.rules] } : {}) });
      if (linted.cancelled || isCancelled()) return undefined;
      const all = withPlugins(linted.byUri, plugins, loaded.index);
      loads.set(group, loaded);
      changes.done(group, seen);

      const owns = (uri: string) => (loose ? uri === group : groupOf(uri) === group);
      // Without a marker, the loose file's folder only stands in for its suite: renames of ids it
      // cannot resolve are offered, never applied on save (the id may be a case not read).
      const guessed = suite !== undefined && !suite.marker;
      const made = { from: all, folders: folderList, loose, guessed };
      const previous = results.get(group);
      let byUri: Map<string, readonly LintDiagnostic[]>;
      let cleared: string[];
      let delta: GroupResult['delta'];
      const was = previous?.made;
      if (previous && was && linted.changed && linted.since === was.from && all === linted.byUri && was.folders === folderList && was.loose === loose && was.guessed === guessed) {
        // The linter changed only these lists since the map this group's last result was made
        // from: that result with them replaced. A walk over every file after every edit cost
        // milliseconds in a workspace of one case per file.
        byUri = new Map(previous.byUri);
        cleared = [];
        for (const uri of linted.changed) {
          const list = all.get(uri);
          if (list && owns(uri)) byUri.set(uri, guessed ? held(list) : list);
          else if (byUri.delete(uri) && previous.byUri.get(uri)!.length > 0) cleared.push(uri);
        }
        delta = { since: previous.byUri, changed: linted.changed };
      } else {
        byUri = new Map();
        for (const [uri, list] of all) if (owns(uri)) byUri.set(uri, guessed ? held(list) : list);
        cleared = previous ? [...previous.byUri.keys()].filter((u) => !byUri.has(u) && previous.byUri.get(u)!.length > 0) : [];
      }
      results.set(group, { byUri, index: loaded.index, versions, made });
      const finishedAt = Date.now();
      return { group, byUri, cleared, ...(delta ? { delta } : {}), files: loaded.index.docs.size, durationMs: finishedAt - started, finishedAt, versions, oversized: loaded.oversized.filter(owns), walked };
    },
    diagnostics(raw) {
      const uri = normalizeUri(raw);
      return results.get(groupOf(uri))?.byUri.get(uri) ?? [];
    },
    groupDiagnostics: (group) => [...(results.get(group)?.byUri.values() ?? [])].flat(),
    index: (group) => results.get(group)?.index,
    lintedVersion(raw) {
      const uri = normalizeUri(raw);
      return results.get(groupOf(uri))?.versions.get(uri);
    },
    ruleIds: () => [...ALL_RULES.map((r) => r.meta.id), ...lastPluginIds],
    dropGroup(group) {
      looseGroups.delete(group);
      looseRoots.delete(group);
      const previous = results.get(group);
      results.delete(group);
      linters.delete(group);
      loads.delete(group);
      changes.forget(group);
      settings.delete(group);
      return previous ? [...previous.byUri.entries()].filter(([, ds]) => ds.length > 0).map(([u]) => u) : [];
    },
  };
  return state;
}

/** The file system with the subfolders of one folder hidden: that folder is read one level deep. */
function shallowFolder(fs: FileSystem, folder: string): FileSystem {
  return {
    readFile: (uri, options) => fs.readFile(uri, options),
    stat: (uri) => fs.stat(uri),
    ...(fs.realUri ? { realUri: fs.realUri.bind(fs) } : {}),
    async readDirectory(uri) {
      const entries = await fs.readDirectory(uri);
      return normalizeUri(uri) === folder ? entries.filter(([, type]) => type !== 'directory') : entries;
    },
  };
}
