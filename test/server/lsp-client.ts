import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { CodeAction, Diagnostic, Hover, PublishDiagnosticsParams, Range, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { URI } from 'vscode-uri';

/** The built server, as users and the extension run it. */
export const SERVER = resolve(__dirname, '../../../dist/server.js');

export const uriOf = (path: string) => URI.file(path).toString();

/** A temporary folder filled with `{ relative path: text }`; real path, so URIs match the server's. */
export function workspace(files: Record<string, string>): { dir: string; uri: (rel: string) => string; write: (rel: string, text: string) => void; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'litmus-lsp-')));
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  return { dir, uri: (rel) => uriOf(join(dir, rel)), write, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The server tests' workspaces are mostly one benign case: `missing-arm` would report every one of
 * them. It is off beneath whatever a test sets (a test that wants it sets it), so each test still
 * sees exactly the findings it is about.
 */
function withOneArmAllowed(settings: Record<string, unknown>): Record<string, unknown> {
  const rules = typeof settings.rules === 'object' && settings.rules !== null ? (settings.rules as Record<string, unknown>) : {};
  return { ...settings, rules: { 'missing-arm': 'off', ...rules } };
}

export interface ClientOptions {
  folders: string[];
  /** `litmus` settings returned for every scope, or per folder URI. */
  settings?: Record<string, unknown> | ((scopeUri: string | undefined) => Record<string, unknown>);
  /** Leave out dynamic file-watch registration support (a minimal editor). */
  noWatching?: boolean;
  /** Node options for the server process (e.g. a small heap). */
  nodeArgs?: string[];
  /** Leave out work-done progress and `window/showDocument` support. */
  noWindow?: boolean;
  /** `initializationOptions` of the initialize request. */
  initializationOptions?: unknown;
}

/**
 * A minimal LSP client over stdio: enough to drive the server as an editor would and to observe
 * what it publishes. Waits are on messages, bounded by a timeout, never on sleeps.
 */
export class LspClient {
  readonly conn: MessageConnection;
  readonly proc: ChildProcess;
  private readonly latest = new Map<string, Diagnostic[]>();
  private listeners: (() => void)[] = [];
  readonly docs = new Map<string, TextDocument>();
  readonly statuses: unknown[] = [];
  readonly registrations: unknown[] = [];
  /** `window/logMessage` texts, in order (the output channel in VS Code). */
  readonly logs: string[] = [];
  /** Work-done progress: tokens the server created, and every `$/progress` value sent. */
  readonly progressTokens: (string | number)[] = [];
  readonly progress: { token: string | number; value: { kind: string; title?: string; message?: string } }[] = [];
  /** `window/showDocument` requests, as sent. */
  readonly shown: { uri: string; external?: boolean; selection?: Range; takeFocus?: boolean }[] = [];
  /** `workspace/applyEdit` requests the server sent, and the texts they produced. */
  readonly appliedEdits: { label?: string; edit: WorkspaceEdit }[] = [];
  stderr = '';

  constructor(private readonly options: ClientOptions) {
    this.proc = spawn(process.execPath, [...(options.nodeArgs ?? []), SERVER, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.proc.stderr!.on('data', (b: Buffer) => (this.stderr += b.toString()));
    this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.latest.set(p.uri, p.diagnostics);
      this.fire();
    });
    this.conn.onNotification('litmus/status', (p: unknown) => {
      this.statuses.push(p);
      this.fire();
    });
    this.conn.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
      this.fire();
    });
    this.conn.onRequest('window/workDoneProgress/create', (p: { token: string | number }) => {
      this.progressTokens.push(p.token);
      return null;
    });
    this.conn.onNotification('$/progress', (p: { token: string | number; value: { kind: string } }) => {
      this.progress.push(p);
      this.fire();
    });
    this.conn.onRequest('window/showDocument', (p: { uri: string }) => {
      this.shown.push(p);
      this.fire();
      return { success: true };
    });
    this.conn.onRequest('workspace/applyEdit', (p: { label?: string; edit: WorkspaceEdit }) => {
      try {
        this.apply({ title: p.label ?? '', edit: p.edit });
      } catch (e) {
        return { applied: false, failureReason: String(e) };
      }
      this.appliedEdits.push(p);
      this.fire();
      return { applied: true };
    });
    this.conn.onRequest('workspace/configuration', (p: { items: { scopeUri?: string; section?: string }[] }) =>
      p.items.map((item) => {
        const s = this.options.settings;
        return withOneArmAllowed(typeof s === 'function' ? s(item.scopeUri) : (s ?? {}));
      }),
    );
    this.conn.onRequest('client/registerCapability', (p: unknown) => {
      this.registrations.push(p);
      return null;
    });
    this.conn.listen();
  }

  private fire(): void {
    const ls = this.listeners;
    this.listeners = [];
    for (const l of ls) l();
  }

  async start(): Promise<void> {
    await this.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: this.options.folders[0] ?? null,
      workspaceFolders: this.options.folders.map((uri, i) => ({ uri, name: `f${i}` })),
      initializationOptions: this.options.initializationOptions,
      capabilities: {
        workspace: {
          configuration: true,
          workspaceFolders: true,
          didChangeWatchedFiles: { dynamicRegistration: !this.options.noWatching },
          applyEdit: true,
          workspaceEdit: { documentChanges: true },
        },
        window: this.options.noWindow ? undefined : { workDoneProgress: true, showDocument: { support: true } },
        textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, dataSupport: true } },
      },
    });
    await this.conn.sendNotification('initialized', {});
  }

  /** Resolves when `check` holds, re-checked on every message from the server; rejects after `ms`. */
  until<T>(what: string, check: () => T | undefined | false, ms = 10000): Promise<T> {
    return new Promise((res, rej) => {
      const timer = setTimeout(() => rej(new Error(`timed out waiting for ${what}; server stderr: ${this.stderr.slice(-500)}`)), ms);
      const attempt = () => {
        const v = check();
        if (v !== undefined && v !== false) {
          clearTimeout(timer);
          res(v);
        } else {
          this.listeners.push(attempt);
        }
      };
      attempt();
    });
  }

  diagnostics(uri: string): Diagnostic[] | undefined {
    return this.latest.get(uri);
  }

  /** Waits until the diagnostics of `uri` satisfy `ok`. */
  waitDiagnostics(uri: string, ok: (ds: Diagnostic[]) => boolean, what = 'diagnostics'): Promise<Diagnostic[]> {
    return this.until(`${what} on ${uri} (last: ${JSON.stringify(this.latest.get(uri)?.map((d) => d.code))})`, () => {
      const ds = this.latest.get(uri) ?? [];
      return ok(ds) ? ds : undefined;
    });
  }

  open(uri: string, text: string, languageId = 'jsonc'): void {
    const doc = TextDocument.create(uri, languageId, 1, text);
    this.docs.set(uri, doc);
    void this.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Replaces the whole text, as a full-document change. */
  change(uri: string, text: string): number {
    const old = this.docs.get(uri)!;
    const doc = TextDocument.create(uri, old.languageId, old.version + 1, text);
    this.docs.set(uri, doc);
    void this.conn.sendNotification('textDocument/didChange', { textDocument: { uri, version: doc.version }, contentChanges: [{ text }] });
    return doc.version;
  }

  save(uri: string): void {
    void this.conn.sendNotification('textDocument/didSave', { textDocument: { uri } });
  }

  close(uri: string): void {
    this.docs.delete(uri);
    void this.conn.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  fileChanged(uri: string, type: 1 | 2 | 3): void {
    void this.conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type }] });
  }

  codeActions(uri: string, range: Range, diagnostics: Diagnostic[], only?: string[]): Promise<CodeAction[]> {
    return this.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics, only } });
  }

  hover(uri: string, position: { line: number; character: number }): Promise<Hover | null> {
    return this.conn.sendRequest('textDocument/hover', { textDocument: { uri }, position });
  }

  executeCommand<T>(command: string, ...args: unknown[]): Promise<T> {
    return this.conn.sendRequest('workspace/executeCommand', { command, arguments: args });
  }

  request<T>(method: string, params?: unknown): Promise<T> {
    return this.conn.sendRequest(method, params);
  }

  /**
   * Applies a code action's edit to the open documents, checking each edit's version as an editor
   * does, and sends the changes; returns the new texts.
   */
  apply(action: CodeAction): Map<string, string> {
    const out = new Map<string, string>();
    for (const change of (action.edit?.documentChanges ?? []) as TextDocumentEdit[]) {
      const doc = this.docs.get(change.textDocument.uri);
      if (!doc) throw new Error(`edit for a document that is not open: ${change.textDocument.uri}`);
      if (change.textDocument.version !== doc.version) throw new Error(`edit for version ${change.textDocument.version}, document is at ${doc.version}`);
      const text = TextDocument.applyEdits(doc, change.edits as TextEdit[]);
      this.change(doc.uri, text);
      out.set(doc.uri, text);
    }
    return out;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      void this.conn.sendNotification('exit');
    } catch {
      // already gone
    }
    this.conn.dispose();
    this.proc.kill();
  }
}

/** The text a range covers. */
export function textAt(text: string, range: Range): string {
  const doc = TextDocument.create('x:', 'json', 0, text);
  return text.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
}
