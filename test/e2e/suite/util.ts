import * as vscode from 'vscode';

export const EXTENSION_ID = 'litmus-lint.litmus-lint';

export function folder(): vscode.Uri {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('the tests need a workspace folder');
  return f.uri;
}

export const file = (rel: string) => vscode.Uri.joinPath(folder(), rel);

export const ours = (ds: readonly vscode.Diagnostic[], code?: string) =>
  ds.filter((d) => d.source === 'litmus' && (code === undefined || codeOf(d) === code));

export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

/**
 * Resolves once the diagnostics of `uri` satisfy `ok`, re-checked on every
 * `languages.onDidChangeDiagnostics` event (never on a timer); rejects after `ms`.
 */
export function waitForDiagnostics(uri: vscode.Uri, ok: (ds: vscode.Diagnostic[]) => boolean, what: string, ms = 30000): Promise<vscode.Diagnostic[]> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const ds = vscode.languages.getDiagnostics(uri);
      if (!ok(ds)) return false;
      done();
      resolve(ds);
      return true;
    };
    const sub = vscode.languages.onDidChangeDiagnostics((e) => {
      if (e.uris.some((u) => u.toString() === uri.toString())) check();
    });
    const timer = setTimeout(() => {
      done();
      const seen = vscode.languages.getDiagnostics(uri).map((d) => `${codeOf(d)}@${d.range.start.line + 1}`);
      reject(new Error(`timed out after ${ms} ms waiting for ${what} on ${vscode.workspace.asRelativePath(uri)} (has: ${seen.join(', ') || 'none'})`));
    }, ms);
    const done = () => {
      clearTimeout(timer);
      sub.dispose();
    };
    check();
  });
}

export async function open(rel: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(file(rel));
  return vscode.window.showTextDocument(doc);
}

/** Applies a code action's edit (and command, if any) as the lightbulb would. */
export async function applyAction(action: vscode.CodeAction): Promise<void> {
  if (action.edit) {
    const ok = await vscode.workspace.applyEdit(action.edit);
    if (!ok) throw new Error(`the edit of "${action.title}" was not applied`);
  }
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

/**
 * Writes a setting. VS Code refuses to write a settings file whose editor model holds unsaved
 * changes — seen when its own previous write had not finished saving — so a refused write saves
 * any dirty settings file (VS Code's pending edit, not ours to drop) and tries again.
 */
export async function updateSetting(section: string, key: string, value: unknown, target: vscode.ConfigurationTarget, scope?: vscode.Uri): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await vscode.workspace.getConfiguration(section, scope).update(key, value, target);
      return;
    } catch (e) {
      if (attempt >= 5) throw e;
      const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.path.endsWith('/settings.json'));
      await Promise.all(dirty.map((d) => d.save()));
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
