import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import {
  LINT_WORKSPACE_REQUEST,
  STATUS_NOTIFICATION,
  SUITE_REPORT_REQUEST,
  type LintWorkspaceResult,
  type StatusParams,
  type SuiteReportParams,
} from '../server/protocol';
import { createStatusView, statusText, type StatusView } from './status';

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
    initializationOptions: { settings: vscode.workspace.getConfiguration('litmus') },
    synchronize: { configurationSection: 'litmus' },
  };
  // The id `litmus` makes `litmus.trace.server` the trace setting.
  const c = new LanguageClient('litmus', 'LITMUS Lint', serverOptions, clientOptions);
  c.onNotification(STATUS_NOTIFICATION, (s: StatusParams) => status.update(s));
  return c;
}

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
    vscode.commands.registerCommand('litmus.showSuiteReport', async (): Promise<vscode.TextDocument> => {
      const c = await running();
      const active = vscode.window.activeTextEditor?.document.uri;
      const params: SuiteReportParams = active && vscode.workspace.getWorkspaceFolder(active) ? { uri: active.toString() } : {};
      const markdown = await c.sendRequest<string>(SUITE_REPORT_REQUEST, params);
      const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: markdown });
      await vscode.window.showTextDocument(doc, { preview: false });
      return doc;
    }),
    vscode.commands.registerCommand('litmus.restartServer', async () => {
      const old = client;
      client = undefined;
      status.busy(true);
      if (old) await old.dispose(5000).catch((e: unknown) => output.appendLine(`stopping the server: ${String(e)}`));
      await start();
      output.appendLine('LITMUS language server restarted');
    }),
    vscode.commands.registerCommand('litmus.showOutput', () => output.show(true)),
    { dispose: () => void client?.dispose() },
  );

  await start();
  return {
    status: () => (status.last() ? { text: status.item.text, detail: status.item.detail ?? '' } : undefined),
    lastStatus: () => status.last(),
    ready: async () => {
      await starting;
    },
  };
}

export async function deactivate(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) await c.dispose(2000);
}
