import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, file } from './util';

/** Polls a condition that no event announces (an extension's activation), bounded by `ms`. */
async function until(what: string, ok: () => boolean, ms = 20000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// Runs alone, in a folder that holds no LITMUS file (scripts/e2e/run.sh: ws-plain).
describe('LITMUS Lint in a folder without LITMUS files', () => {
  it('opening a plain .jsonc file does not activate the extension', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    const doc = await vscode.workspace.openTextDocument(file('notes.jsonc'));
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.languageId, 'jsonc');
    // `onLanguage:jsonc` starts VS Code's own JSON support: once that is up, every extension that
    // listens for the event has been started with it.
    const json = vscode.extensions.getExtension('vscode.json-language-features');
    await until('VS Code JSON support to start', () => !!json?.isActive);
    assert.equal(ext.isActive, false, 'LITMUS Lint was activated by a plain JSONC file');
  });
});
