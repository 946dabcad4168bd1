import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  ResponseError,
  FileChangeType,
  TextDocumentSyncKind,
  TextDocuments,
  WatchKind,
  type CodeAction,
  type Connection,
  type InitializeResult,
  type Range,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { version } from '../../package.json';
import { buildSuiteReport, displayPath, escapeText, type FileSystem, forgetFile, type LintDiagnostic, markdownComment, renderSuiteReport } from '../core';
import { FIX_ALL_KIND, fixAllAction, quickFixes, ruleActions, wants } from './code-actions';
import { sameDiagnostics, toLspDiagnostic } from './diagnostics';
import { payloadHover } from './hover';
import { createSchemaFeatures, type SchemaFeatures } from './schema-features';
import {
  APPLY_AUTO_FIXES_COMMAND,
  LINT_WORKSPACE_REQUEST,
  SELECT_RANGE_COMMAND,
  SERVER_COMMANDS,
  SHOW_RULE_DOCS_COMMAND,
  STATUS_NOTIFICATION,
  SUITE_REPORT_DATA_REQUEST,
  SUITE_REPORT_REQUEST,
  type ApplyAutoFixesParams,
  type ApplyAutoFixesResult,
  type Counts,
  type LintWorkspaceResult,
  type StatusParams,
  type SuiteReportData,
  type SuiteReportParams,
} from './protocol';
import { buildReportView } from './report-view';
import { createScheduler } from './scheduler';
import { readSettings } from './settings';
import { createWorkspaceState, type GroupResult } from './workspace-state';

/** Quiet time after a keystroke before a lint starts. */
export const DEBOUNCE_MS = 150;

/**
 * How long a code-action request waits for the lint that will carry the document's current version
 * (in flight, or due after the debounce) before answering from the last one. Long: a first lint of
 * a large workspace on a busy machine takes seconds, and an answer from before it is empty.
 */
const STALE_WAIT_MS = 30_000;

const CHANGE_KIND: Record<number, 'created' | 'changed' | 'deleted'> = {
  [FileChangeType.Created]: 'created',
  [FileChangeType.Changed]: 'changed',
  [FileChangeType.Deleted]: 'deleted',
};

/** Wires LSP messages to the workspace state. Transport-agnostic: node.ts hands in the connection. */
export function startServer(connection: Connection, fs: FileSystem): void {
  const documents = new TextDocuments(TextDocument);
  // Without file-watch events a cached file could go stale, so caching waits for the watcher.
  let watching = false;
  // Plugins (docs/plugins.md) are code from the workspace: they run only when the editor says it is
  // trusted (VS Code: a trusted workspace).
  let trusted = false;
  const state = createWorkspaceState(fs, { caching: () => watching, trusted: () => trusted });
  let schemaFeatures: SchemaFeatures = createSchemaFeatures({ byName: true });
  let configurationCapability = false;
  let dynamicWatchCapability = false;
  let workspaceFoldersCapability = false;
  let showDocumentCapability = false;
  // Groups whose first lint is still to come: the start-up line waits for them.
  let startup: { at: number; pending: Set<string> } | undefined;
  let pushedSettings: unknown;
  const summaries = new Map<string, { counts: Counts; files: number; withProblems: number; oversized: string[] }>();
  let last = { durationMs: 0, finishedAt: 0 };
  // Lines already logged about unreadable entries: each is said once per server run.
  const logged = new Set<string>();
  // After `shutdown` the protocol allows only `exit`: every other request is refused.
  let shutDown = false;
  const refuseAfterShutdown = () => {
    if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, 'the server is shutting down');
  };

  const log = (text: string) => connection.console.log(`[${new Date().toISOString().slice(11, 19)}] ${text}`);
  // Settled once `initialized` has scheduled the first lint of every folder: a request that comes
  // sooner waits for that, rather than finding nothing scheduled and nothing linted.
  let markInitialized: () => void = () => undefined;
  const initialized = new Promise<void>((resolve) => (markInitialized = resolve));

  /**
   * Work-done progress the client shows while `work` runs (VS Code: in the status bar). A client
   * without `window.workDoneProgress` gets a reporter that sends nothing.
   */
  const withProgress = async <T>(title: string, message: string, work: () => Promise<T>): Promise<T> => {
    const reporter = await connection.window.createWorkDoneProgress().catch(() => undefined);
    reporter?.begin(title, undefined, message);
    try {
      return await work();
    } finally {
      reporter?.done();
    }
  };

  /** One line once every folder has been indexed: what the author looks for when in doubt. */
  const startupDone = (group: string) => {
    if (!startup) return;
    startup.pending.delete(group);
    if (startup.pending.size) return;
    const folders = state.folders();
    const where = folders.length ? `${folders.length} folder${folders.length === 1 ? '' : 's'} (${folders.map((f) => displayPath(f)).join(', ')})` : 'no folder';
    let total = 0;
    for (const s of summaries.values()) total += s.files;
    log(`LITMUS Lint ${version} started: ${where}, ${total} files indexed in ${Date.now() - startup.at} ms`);
    startup = undefined;
  };

  const ensureSettings = async (group: string) => {
    if (state.hasSettings(group)) return;
    let raw: unknown = pushedSettings;
    if (configurationCapability) {
      try {
        raw = await connection.workspace.getConfiguration({ scopeUri: group, section: 'litmus' });
      } catch (e) {
        log(`could not read settings for ${group}: ${String(e)}`);
      }
    }
    state.setSettings(group, readSettings(raw));
  };

  const status = (): StatusParams => {
    const out: StatusParams = { errors: 0, warnings: 0, infos: 0, hints: 0, files: 0, filesWithProblems: 0, oversized: [], ...last };
    for (const s of summaries.values()) {
      out.errors += s.counts.errors;
      out.warnings += s.counts.warnings;
      out.infos += s.counts.infos;
      out.hints += s.counts.hints;
      out.files += s.files;
      out.filesWithProblems += s.withProblems;
      for (const file of s.oversized) out.oversized.push(file);
    }
    return out;
  };

  // The last list published per file: an unchanged file's list comes back as the same array.
  const publishedLists = new Map<string, readonly LintDiagnostic[]>();
  const publish = (uri: string, list: readonly LintDiagnostic[], version?: number) => {
    const last = publishedLists.get(uri);
    if (last === list) return;
    // An empty list is not kept: a closed buffer's URI would otherwise stay here for good.
    if (list.length) publishedLists.set(uri, list);
    else publishedLists.delete(uri);
    // The same diagnostics as the list last published (sameDiagnostics is exact about what the
    // conversion sends: server-diagnostics.test.ts), or none where none were: nothing to send.
    if (last ? sameDiagnostics(last, list) : list.length === 0) return;
    void connection.sendDiagnostics({ uri, diagnostics: list.map(toLspDiagnostic), version });
  };

  // What each group's last published result showed, so the next one that says what changed since
  // (GroupResult.delta) is published and counted by those files alone.
  const shown = new Map<string, { byUri: ReadonlyMap<string, readonly LintDiagnostic[]>; counts: Counts; withProblems: number }>();
  const tally = (counts: Counts, ds: readonly LintDiagnostic[], by: 1 | -1) => {
    for (const d of ds) {
      if (d.severity === 'error') counts.errors += by;
      else if (d.severity === 'warning') counts.warnings += by;
      else if (d.severity === 'info') counts.infos += by;
      else counts.hints += by;
    }
  };

  const onResult = (group: string, r: GroupResult) => {
    let counts: Counts = { errors: 0, warnings: 0, infos: 0, hints: 0 };
    let withProblems = 0;
    const before = shown.get(group);
    if (r.delta && before && r.delta.since === before.byUri) {
      counts = { ...before.counts };
      withProblems = before.withProblems;
      for (const uri of r.delta.changed) {
        const was = before.byUri.get(uri) ?? [];
        const now = r.byUri.get(uri) ?? [];
        if (was === now) continue;
        tally(counts, was, -1);
        tally(counts, now, 1);
        withProblems += (now.length ? 1 : 0) - (was.length ? 1 : 0);
        if (r.byUri.has(uri)) publish(uri, now, r.versions.get(uri));
      }
    } else {
      for (const [uri, ds] of r.byUri) {
        if (ds.length) withProblems++;
        tally(counts, ds, 1);
        publish(uri, ds, r.versions.get(uri));
      }
    }
    for (const uri of r.cleared) publish(uri, []);
    shown.set(group, { byUri: r.byUri, counts, withProblems });
    summaries.set(group, { counts, files: r.files, withProblems, oversized: r.oversized });
    last = { durationMs: r.durationMs, finishedAt: r.finishedAt };
    const where = displayPath(group);
    if (r.disabled) {
      log(`not linted (litmus.enable is off): ${where}`);
      void connection.sendNotification(STATUS_NOTIFICATION, status());
      startupDone(group);
      return;
    }
    log(`linted ${where}: ${r.files} files, ${counts.errors} errors, ${counts.warnings} warnings, ${counts.infos + counts.hints} other, ${r.durationMs} ms`);
    for (const uri of r.oversized) log(`not linted (over litmus.maxFileSize): ${displayPath(uri)}`);
    // What could not be read and has no document to carry a diagnostic (an odd entry, a name that
    // is not UTF-8, a link out of the folder) is said once in the log rather than not at all.
    const index = state.index(group);
    for (const [uri, reason] of index?.readErrors ?? []) {
      const line = `not read: ${escapeText(displayPath(uri))}: ${escapeText(reason)}`;
      if (!index!.docs.has(uri) && !logged.has(line)) {
        if (logged.size >= 10_000) logged.clear();
        logged.add(line);
        log(line);
      }
    }
    void connection.sendNotification(STATUS_NOTIFICATION, status());
    startupDone(group);
  };

  const scheduler = createScheduler<GroupResult>(
    async (group, isCancelled) => {
      await ensureSettings(group);
      if (isCancelled()) return undefined;
      // The first lint of a folder reads all of it: a large suite takes a second or more.
      if (state.index(group) || !state.settingsOf(group).enable || !state.folders().includes(group)) return state.lint(group, isCancelled);
      return withProgress('LITMUS', `Indexing ${displayPath(group)}`, () => state.lint(group, isCancelled));
    },
    onResult,
    (group, e) => {
      connection.console.error(`lint of ${group} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      startupDone(group);
    },
  );

  const dropGroup = (group: string) => {
    for (const uri of state.dropGroup(group)) publish(uri, []);
    summaries.delete(group);
    shown.delete(group);
  };

  const lintAll = (delay: number) => {
    for (const g of state.groups()) scheduler.schedule(g, delay);
  };

  const runAll = async () => {
    const groups = state.groups();
    await Promise.all(groups.map((g) => scheduler.runNow(g)));
    // A run overtaken by an edit is replaced by a newer one: wait for that too.
    await Promise.all(groups.map((g) => scheduler.idle(g)));
  };

  connection.onInitialize((params): InitializeResult => {
    const caps = params.capabilities;
    configurationCapability = !!caps.workspace?.configuration;
    dynamicWatchCapability = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
    workspaceFoldersCapability = !!caps.workspace?.workspaceFolders;
    showDocumentCapability = !!caps.window?.showDocument?.support;
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    state.setFolders(folders);
    const init = params.initializationOptions as { settings?: unknown; schemasByName?: unknown; trustedWorkspace?: unknown } | undefined;
    pushedSettings = init?.settings;
    trusted = init?.trustedWorkspace === true;
    // VS Code gives files named by their kind the bundled schemas itself (jsonValidation) and says so.
    schemaFeatures = createSchemaFeatures({ byName: init?.schemasByName !== false });
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND], resolveProvider: false },
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['"', ':'] },
        executeCommandProvider: { commands: SERVER_COMMANDS },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'litmus-lint', version },
    };
  });

  connection.onInitialized(async () => {
    if (dynamicWatchCapability) {
      try {
        await connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [
            { globPattern: '**/*.{json,jsonc,jsonl}' },
            // A deleted folder reports only its own path, which no file pattern matches.
            { globPattern: '**/*', kind: WatchKind.Delete },
          ],
        });
        watching = true;
      } catch (e) {
        log(`file watching unavailable, reading files afresh on every lint: ${String(e)}`);
      }
    } else {
      log('the client cannot watch files for the server: files are read afresh on every lint');
    }
    if (workspaceFoldersCapability) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        const removed = e.removed.map((f) => state.groupOf(f.uri));
        state.setFolders([...state.folders().filter((f) => !removed.includes(f)), ...e.added.map((f) => f.uri)]);
        for (const g of removed) dropGroup(g);
        lintAll(0);
      });
    }
    startup = { at: Date.now(), pending: new Set(state.groups()) };
    if (!startup.pending.size) startupDone('');
    lintAll(0);
    markInitialized();
  });

  documents.onDidOpen((e) => {
    state.open(e.document.uri, e.document.getText(), e.document.version);
    if (state.lints(e.document.uri)) scheduler.schedule(state.groupOf(e.document.uri), DEBOUNCE_MS);
  });

  documents.onDidChangeContent((e) => {
    if (!state.isOpen(e.document.uri)) state.open(e.document.uri, e.document.getText(), e.document.version);
    else state.change(e.document.uri, e.document.getText(), e.document.version);
    if (!state.lints(e.document.uri)) return;
    const group = state.groupOf(e.document.uri);
    void ensureSettings(group).then(() => {
      if (state.settingsOf(group).run === 'onType') scheduler.schedule(group, DEBOUNCE_MS);
    });
  });

  documents.onDidSave((e) => {
    if (!state.lints(e.document.uri)) return;
    const group = state.groupOf(e.document.uri);
    if (state.settingsOf(group).run === 'onSave') scheduler.schedule(group, 0);
  });

  documents.onDidClose((e) => {
    const uri = e.document.uri;
    const group = state.groupOf(uri);
    state.close(uri);
    // What core kept of the buffer (its document, tool models) goes with it; the disk is read afresh.
    forgetFile(uri);
    if (!state.folders().includes(group)) dropGroup(group);
    else scheduler.schedule(group, DEBOUNCE_MS);
  });

  connection.onDidChangeWatchedFiles((params) => {
    const groups = new Set<string>();
    for (const change of params.changes) {
      const kind = CHANGE_KIND[change.type] ?? 'changed';
      const affected = state.fileEvent(change.uri, kind);
      // An open buffer wins over the disk, so saving it changes nothing the last run did not see.
      if (kind === 'changed' && state.isOpen(change.uri)) continue;
      for (const g of affected) groups.add(g);
    }
    for (const g of groups) scheduler.schedule(g, DEBOUNCE_MS);
  });

  connection.onDidChangeConfiguration((params) => {
    const settings = params.settings as { litmus?: unknown } | undefined;
    if (settings?.litmus !== undefined) pushedSettings = settings.litmus;
    state.clearSettings();
    lintAll(0);
  });

  connection.onCodeAction(async (params, token) => {
    refuseAfterShutdown();
    const uri = params.textDocument.uri;
    // VS Code asks on every save of every JSON file when fix-all on save is on, its own settings
    // files included, and waits: a lint (and the settings it asks the client for) must not hold
    // up a file the server does not lint. Saving settings.json would otherwise wait on itself.
    if (!state.lints(uri)) return [];
    const only = params.context?.only;
    const sent: unknown[] = Array.isArray(params.context?.diagnostics) ? params.context.diagnostics : [];
    const versionOf = (u: string) => state.openVersion(u);
    const actions: CodeAction[] = [];
    // Just opened or edited: the lint in flight, or the debounced one due in moments, will carry
    // fixes for this version. Wait for it (never force it: the lightbulb asks on every cursor move
    // while typing), so an answer never comes from the state before the file was opened. A file
    // asked about before the first lint of its folder has finished (a window just opened) waits
    // for that lint too, open or not: an empty answer then would only mean "not linted yet".
    const stale = () => (state.isOpen(uri) ? state.lintedVersion(uri) !== state.openVersion(uri) : !state.index(state.groupOf(uri)));
    if (stale()) {
      const cancelled = new Promise<void>((r) => token.onCancellationRequested(() => r()));
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise((r) => (timer = setTimeout(r, STALE_WAIT_MS)));
      await Promise.race([initialized.then(() => scheduler.idle(state.groupOf(uri))), timeout, cancelled]);
      clearTimeout(timer);
      if (token.isCancellationRequested || shutDown) return [];
    }
    if (wants(only, CodeActionKind.QuickFix)) {
      for (const action of quickFixes(state.diagnostics(uri), sent, versionOf, params.range)) actions.push(action);
      // Offered on the text the editor has now; a suppression's edit is tied to that version.
      const doc = documents.get(uri);
      if (doc && state.lintedVersion(uri) === doc.version) {
        for (const action of ruleActions(state.diagnostics(uri), sent, doc, showDocumentCapability, params.range)) actions.push(action);
      }
    }
    if (only && wants(only, FIX_ALL_KIND)) {
      const all = await upToDateFixAll(uri);
      if (all) actions.push(all);
    }
    return actions;
  });

  /** The fix-all action on the text the editor has now: a last run may predate the final keystrokes. */
  const upToDateFixAll = async (uri: string) => {
    if (state.lintedVersion(uri) !== state.openVersion(uri)) {
      await scheduler.runNow(state.groupOf(uri));
      await scheduler.idle(state.groupOf(uri));
    }
    return fixAllAction(uri, state.diagnostics(uri), (u) => state.openVersion(u));
  };

  connection.onExecuteCommand(async (params) => {
    refuseAfterShutdown();
    const args = params.arguments ?? [];
    if (params.command === SHOW_RULE_DOCS_COMMAND) {
      const url = args[0];
      // Only our own documentation links: the argument comes back from the client as sent, but is
      // never trusted to name a local file or another scheme.
      if (typeof url !== 'string' || !/^https:\/\//.test(url)) return { success: false };
      return connection.window.showDocument({ uri: url, external: true });
    }
    if (params.command === SELECT_RANGE_COMMAND) {
      const [uri, range] = args as [unknown, unknown];
      if (typeof uri !== 'string' || typeof range !== 'object' || range === null) return { success: false };
      return connection.window.showDocument({ uri, selection: range as Range, takeFocus: true });
    }
    if (params.command === APPLY_AUTO_FIXES_COMMAND) {
      const p = args[0] as ApplyAutoFixesParams | undefined;
      const none: ApplyAutoFixesResult = { fixed: 0, applied: false };
      if (!p || typeof p.uri !== 'string' || !state.lints(p.uri)) return none;
      const all = await upToDateFixAll(p.uri);
      if (!all?.edit) return none;
      const r = await connection.workspace.applyEdit({ label: all.title, edit: all.edit });
      const result: ApplyAutoFixesResult = { fixed: all.diagnostics?.length ?? 0, applied: r.applied };
      if (!r.applied) log(`fix-all of ${displayPath(p.uri)} was not applied${r.failureReason ? `: ${r.failureReason}` : ''}`);
      return result;
    }
    return undefined;
  });

  connection.onHover(async (params) => {
    refuseAfterShutdown();
    const uri = params.textDocument.uri;
    if (!state.lints(uri)) return undefined;
    const payload = payloadHover(state.diagnostics(uri), params.position);
    if (payload) return payload;
    const doc = documents.get(uri);
    return (doc && (await schemaFeatures.hover(doc, params.position))) ?? undefined;
  });

  // Property names, values and snippets from the bundled schemas (schema-features.ts).
  connection.onCompletion(async (params) => {
    refuseAfterShutdown();
    const doc = documents.get(params.textDocument.uri);
    if (!doc || !state.lints(doc.uri)) return null;
    return schemaFeatures.complete(doc, params.position);
  });

  connection.onRequest(LINT_WORKSPACE_REQUEST, async (): Promise<LintWorkspaceResult> => {
    refuseAfterShutdown();
    const groups = state.groups();
    await withProgress('LITMUS', `Linting ${groups.length === 1 ? displayPath(groups[0]) : `${groups.length} folders`}`, runAll);
    return { ...status(), rules: state.ruleIds() };
  });

  /** The groups a report is about, each linted at least once. */
  const reportGroups = async (params: SuiteReportParams | undefined): Promise<string[]> => {
    refuseAfterShutdown();
    const groups = params?.uri ? [state.groupOf(params.uri)] : state.folders();
    for (const g of groups) {
      if (!state.index(g)) {
        await scheduler.runNow(g);
        await scheduler.idle(g);
      }
    }
    return groups.filter((g) => state.index(g));
  };

  connection.onRequest(SUITE_REPORT_DATA_REQUEST, async (params: SuiteReportParams | undefined): Promise<SuiteReportData> => {
    const groups = await reportGroups(params);
    return { folders: groups.map((g) => buildReportView(displayPath(g), state.index(g)!, state.groupDiagnostics(g))) };
  });

  connection.onRequest(SUITE_REPORT_REQUEST, async (params: SuiteReportParams | undefined): Promise<string> => {
    const groups = await reportGroups(params);
    const parts: string[] = [];
    for (const g of groups) {
      const index = state.index(g);
      if (!index) continue;
      const markdown = renderSuiteReport(buildSuiteReport(index, state.groupDiagnostics(g)), 'markdown');
      // A folder name is untrusted text: escaped so it cannot close the comment and inject markup.
      parts.push(groups.length > 1 ? `${markdownComment(displayPath(g))}\n${markdown}` : markdown);
    }
    return parts.length ? parts.join('\n\n---\n\n') : 'No workspace folder is open: open a folder that holds LITMUS suite files.';
  });

  connection.onShutdown(() => {
    shutDown = true;
    scheduler.cancelAll();
  });

  documents.listen(connection);
  connection.listen();
}
