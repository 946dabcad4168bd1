import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../../../src/core';
import { importInjecAgent, type OutputFile } from '../../../src/importers/index';
import { applyAction, codeOf, EXTENSION_ID, file, ours, waitForDiagnostics } from './util';

// Round trip: a suite made by `litmus-lint import` is opened in the editor and gets the same
// diagnostics the core gives it, and its quick fixes work as in a hand-written suite.
const ROOT = resolve(__dirname, '../../../..');
const SOURCE = join(ROOT, 'test/fixtures/import/injecagent/source');
const DIR = 'imported-injecagent';
const CASES = `${DIR}/cases/ds_enhanced.litmus.json`;
const UNLABELLED = `${DIR}/cases/dh_enhanced.litmus.json`;

const key = (code: string | undefined, line: number, character: number) => `${code}@${line + 1}:${character + 1}`;

describe('An imported suite in a real VS Code', () => {
  let files: OutputFile[] = [];

  before(async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    const api = (await ext.activate()) as { ready(): Promise<void> };
    await api.ready();
    const reader = {
      read: (p: string) => {
        try {
          return readFileSync(join(SOURCE, p), 'utf8');
        } catch {
          return undefined;
        }
      },
      list: (p: string) => {
        try {
          return readdirSync(join(SOURCE, p)).sort();
        } catch {
          return undefined;
        }
      },
    };
    const r = importInjecAgent(reader);
    if (!r.ok) assert.fail(r.error);
    files = r.files;
    for (const f of files) await vscode.workspace.fs.writeFile(file(`${DIR}/${f.path}`), Buffer.from(f.text, 'utf8'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(file(DIR), { recursive: true, useTrash: false });
  });

  it('shows the diagnostics the core gives the imported files', async () => {
    const base = 'file:///imported';
    const fs = memoryFileSystem(Object.fromEntries(files.map((f) => [`${base}/${f.path}`, f.text])));
    const { diagnostics } = lintIndex((await loadWorkspace(fs, [base])).index);
    const want = diagnostics
      .filter((d) => d.uri === `${base}/cases/ds_enhanced.litmus.json`)
      .map((d) => key(d.code, d.range.start.line, d.range.start.character))
      .sort();
    assert.ok(want.length > 0, 'the fixture has findings of its own (its user tool is also an attacker tool, as in InjecAgent)');
    const doc = await vscode.workspace.openTextDocument(file(CASES));
    await vscode.window.showTextDocument(doc);
    const same = (ds: vscode.Diagnostic[]) => JSON.stringify(ours(ds).map((d) => key(codeOf(d), d.range.start.line, d.range.start.character)).sort()) === JSON.stringify(want);
    await waitForDiagnostics(doc.uri, same, `the core's ${want.join(', ')}`);
  });

  it('an author who drops a label gets injection-payload, and its quick fix puts the label back', async () => {
    // The author deletes the label of the first case and saves, before opening the file.
    const uri = file(UNLABELLED);
    const text = files.find((f) => f.path === UNLABELLED.slice(DIR.length + 1))!.text;
    const label = /^ *"injection_field": "#\/tool_outputs\/0\/output\/reviews\/1\/text",\n/m;
    assert.match(text, label, 'the first case is labelled where the instruction sits');
    await vscode.workspace.fs.writeFile(uri, Buffer.from(text.replace(label, ''), 'utf8'));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const payloadAt = (ds: vscode.Diagnostic[]) =>
      ours(ds, 'injection-payload').find((d) => d.severity !== vscode.DiagnosticSeverity.Hint && /IMPORTANT!!! Ignore all previous instructions/.test(editor.document.getText(d.range)));
    const ds = await waitForDiagnostics(uri, (x) => payloadAt(x) !== undefined, 'injection-payload on the unlabelled instruction');
    const d = payloadAt(ds)!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title.startsWith('Label as injection_field'));
    assert.ok(fix, `a label fix among: ${actions.map((a) => a.title).join(' | ')}`);
    await applyAction(fix);
    assert.match(editor.document.getText(), /"injection_field": "#\/tool_outputs\/0\/output\/reviews\/1\/text"/);
    assert.match(editor.document.getText(), /^\/\/ InjecAgent test_cases_dh_enhanced\.json/, "the import's comments are kept");
    assert.ok(await editor.document.save(), 'saved');
    await waitForDiagnostics(uri, (x) => payloadAt(x) === undefined, 'the relabelled payload to clear');
  });
});
