import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { CodeActionRequest, ExecuteCommandRequest, LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  APPLY_AUTO_FIXES_COMMAND,
  LINT_WORKSPACE_REQUEST,
  STATUS_NOTIFICATION,
  SUITE_REPORT_DATA_REQUEST,
  type ApplyAutoFixesParams,
  type ApplyAutoFixesResult,
  type LintWorkspaceResult,
  type StatusParams,
  type SuiteReportData,
  type SuiteReportParams,
} from '../server/protocol';
import { renderReportHtml } from './report-html';
import { syncSchemaSettings } from './schemas';
import { createStatusView, statusText, type StatusView } from './status';

/** The webview that shows the suite report (one at a time, refreshed as lints finish). */
export const REPORT_VIEW_TYPE = 'litmus.suiteReport';

/**
 * Suite files open as JSON with Comments (package.json `contributes.languages`); `$schema`-marked
 * files stay `json`; `*.litmus.jsonl` is linted whatever language it gets.
 */
export const DOCUMENT_SELECTOR: { scheme: string; language?: string; pattern?: string }[] = [
  { scheme: 'file', language: 'jsonc' },
  { scheme: 'file', language: 'json' },
  { scheme: 'file', pattern: '**/*.litmus.jsonl' },
];

/** What the extension returns from `activate`: used by its own tests, and by other extensions. */
export interface LitmusApi {
  /** The language status item's text and detail as shown. */
  status(): { text: string; detail: string } | undefined;
  /** The last status the server sent. */
  lastStatus(): StatusParams | undefined;
  /** Resolves once the current language client is running. */
  ready(): Promise<void>;
  /** The HTML the suite report view shows now, while it is open. */
  reportHtml(): string | undefined;
}

let client: LanguageClient | undefined;
let starting: Promise<void> = Promise.resolve();

function createClient(context: vscode.ExtensionContext, output: vscode.OutputChannel, status: StatusView): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    outputChannel: output,
    // The server pulls settings per folder (workspace/configuration); these serve clients without that.
    // schemasByName: VS Code's JSON support gives files named by their kind the bundled schemas
    // (contributes.jsonValidation); the server answers only those whose `$schema` names one.
    // trustedWorkspace: plugins named in litmus.config.json (code from the workspace) run only then.
    initializationOptions: { settings: vscode.workspace.getConfiguration('litmus'), schemasByName: false, trustedWorkspace: vscode.workspace.isTrusted },
    synchronize: { configurationSection: 'litmus' },
  };
  // The id `litmus` makes `litmus.trace.server` the trace setting.
  const c = new LanguageClient('litmus', 'LITMUS Lint', serverOptions, clientOptions);
  c.onNotification(STATUS_NOTIFICATION, (s: StatusParams) => {
    status.update(s);
    onStatus?.();
  });
  return c;
}

/** Called after every status the server sends (the open report refreshes itself). */
let onStatus: (() => void) | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<LitmusApi> {
  const output = vscode.window.createOutputChannel('LITMUS Lint');
  const status = createStatusView(DOCUMENT_SELECTOR);
  context.subscriptions.push(output, status.item);

  const start = () => {
    client = createClient(context, output, status);
    starting = client.start();
    return starting;
  };

  const running = async (): Promise<LanguageClient> => {
    await starting;
    if (!client) throw new Error('the LITMUS language server is not running');
    return client;
  };

  let report: vscode.WebviewPanel | undefined;
  let reportParams: SuiteReportParams = {};
  let reportHtml: string | undefined;
  const renderReport = async (): Promise<string> => {
    const c = await running();
    const data = await c.sendRequest<SuiteReportData>(SUITE_REPORT_DATA_REQUEST, reportParams);
    reportHtml = renderReportHtml(data, randomBytes(16).toString('base64'));
    return reportHtml;
  };
  // While the report is open, each finished lint redraws it (at most twice a second).
  let refresh: ReturnType<typeof setTimeout> | undefined;
  onStatus = () => {
    if (!report || refresh) return;
    refresh = setTimeout(() => {
      refresh = undefined;
      if (!report) return;
      renderReport().then(
        (html) => report && (report.webview.html = html),
        (e: unknown) => output.appendLine(`refreshing the suite report: ${String(e)}`),
      );
    }, 500);
  };
  context.subscriptions.push({ dispose: () => refresh && clearTimeout(refresh) });

  context.subscriptions.push(
    vscode.commands.registerCommand('litmus.lintWorkspace', async (): Promise<LintWorkspaceResult> => {
      const c = await running();
      status.busy(true);
      try {
        const result = await c.sendRequest<LintWorkspaceResult>(LINT_WORKSPACE_REQUEST);
        status.update(result);
        void vscode.window.setStatusBarMessage(`LITMUS: ${statusText(result).detail}`, 5000);
        return result;
      } finally {
        status.busy(false);
      }
    }),
    vscode.commands.registerCommand('litmus.showSuiteReport', async (): Promise<string> => {
      const active = vscode.window.activeTextEditor?.document.uri;
      reportParams = active && vscode.workspace.getWorkspaceFolder(active) ? { uri: active.toString() } : {};
      const html = await renderReport();
      if (!report) {
        report = vscode.window.createWebviewPanel(REPORT_VIEW_TYPE, 'LITMUS Suite Report', { viewColumn: vscode.ViewColumn.Active, preserveFocus: false }, {
          // A static page: no script, no command links, no local files.
          enableScripts: false,
          enableCommandUris: false,
          localResourceRoots: [],
        });
        report.onDidDispose(() => (report = undefined));
      }
      report.webview.html = html;
      report.reveal();
      return html;
    }),
    vscode.commands.registerCommand('litmus.fixAll', async (): Promise<ApplyAutoFixesResult | undefined> => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) {
        void vscode.window.showInformationMessage('LITMUS: open a suite file to fix its auto-fixable problems.');
        return undefined;
      }
      const c = await running();
      const params: ApplyAutoFixesParams = { uri: c.code2ProtocolConverter.asUri(editor.document.uri), version: editor.document.version };
      const result = (await c.sendRequest(ExecuteCommandRequest.type, { command: APPLY_AUTO_FIXES_COMMAND, arguments: [params] })) as ApplyAutoFixesResult;
      const said = result.fixed ? `fixed ${result.fixed} problem${result.fixed === 1 ? '' : 's'}` : 'no auto-fixable problems here';
      void vscode.window.setStatusBarMessage(`LITMUS: ${said}`, 5000);
      return result;
    }),
    vscode.commands.registerCommand('litmus.restartServer', async () => {
      const old = client;
      client = undefined;
      status.busy(true);
      const restarted = (async () => {
        if (old) await old.dispose(5000).catch((e: unknown) => output.appendLine(`stopping the server: ${String(e)}`));
        await start();
      })();
      // Requests made meanwhile (quick fixes, commands) wait for the new server.
      starting = restarted;
      await restarted;
      output.appendLine('LITMUS language server restarted');
    }),
    vscode.commands.registerCommand('litmus.showOutput', () => output.show(true)),
    // Trust granted: a new server runs the configs' plugins.
    vscode.workspace.onDidGrantWorkspaceTrust(() => void vscode.commands.executeCommand('litmus.restartServer')),
    { dispose: () => void client?.dispose() },
  );

  // Before the client starts: VS Code asks for quick fixes as soon as a file opens, which may be
  // while the server is still starting (a second or more after the window opens); without this the
  // answer would come from no provider at all and hold nothing.
  context.subscriptions.push(earlyCodeActions());
  await start();
  // Only with `litmus.offlineSchemas` on (off by default: user settings are the user's) or to take
  // back entries an earlier version wrote; settled before `ready()` resolves.
  let schemasSynced = syncSchemaSettings(context.extensionUri, (t) => output.appendLine(t));
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('litmus.offlineSchemas')) schemasSynced = syncSchemaSettings(context.extensionUri, (t) => output.appendLine(t));
    }),
  );
  return {
    status: () => (status.last() ? { text: status.item.text, detail: status.item.detail ?? '' } : undefined),
    lastStatus: () => status.last(),
    ready: async () => {
      await starting;
      await schemasSynced;
    },
    reportHtml: () => (report ? reportHtml : undefined),
  };
}

/**
 * Answers code-action requests made while the language client is not running yet (starting or
 * restarting): each waits for it, then asks the server, which waits for the lint of the file's
 * current text. Once the client runs, its own provider answers and this one gives nothing, so no
 * action comes twice.
 */
function earlyCodeActions(): vscode.Disposable {
  return vscode.languages.registerCodeActionsProvider(
    DOCUMENT_SELECTOR,
    {
      async provideCodeActions(document, range, context, token) {
        if (client?.isRunning()) return undefined;
        await starting.catch(() => undefined);
        const c = client;
        if (!c || token.isCancellationRequested) return undefined;
        try {
          const params = {
            textDocument: c.code2ProtocolConverter.asTextDocumentIdentifier(document),
            range: c.code2ProtocolConverter.asRange(range),
            context: await c.code2ProtocolConverter.asCodeActionContext(context, token),
          };
          const result = await c.sendRequest(CodeActionRequest.type, params, token);
          if (!result || token.isCancellationRequested) return undefined;
          return (await c.protocol2CodeConverter.asCodeActionResult(result, token)).filter((a): a is vscode.CodeAction => a instanceof vscode.CodeAction);
        } catch {
          // Cancelled, or the server went away meanwhile: no actions from here.
          return undefined;
        }
      },
    },
    { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, vscode.CodeActionKind.SourceFixAll.append('litmus')] },
  );
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.dispose(2000);
}
