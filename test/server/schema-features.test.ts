import assert from 'node:assert/strict';
import type { CompletionList, Hover, MarkupContent } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, workspace } from './lsp-client';

// Issue 23: the bundled schemas without the user's settings. The server answers completion and
// hover from them for files whose `$schema` names one (VS Code would download the URL), and for
// files named by their kind in editors without JSON support of their own.
const SCHEMA = 'https://litmus-lint.dev/schemas/';

describe('completion and hover from the bundled schemas', function () {
  this.timeout(30000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const start = async (files: Record<string, string>, initializationOptions?: unknown) => {
    const ws = workspace(files);
    cleanups.push(ws.cleanup);
    const client = new LspClient({ folders: [uriOf(ws.dir)], initializationOptions });
    cleanups.push(() => client.stop());
    await client.start();
    for (const [rel, text] of Object.entries(files)) client.open(ws.uri(rel), text);
    return { ws, client };
  };
  const labels = (r: CompletionList | null) => (r?.items ?? []).map((i) => i.label);
  const hoverText = (h: Hover | null) => (h ? (h.contents as MarkupContent).value ?? String(h.contents) : '');

  it('completes a case\'s properties in a file known only by its $schema, with no download', async () => {
    const text = `{\n  "$schema": "${SCHEMA}case-file.schema.json",\n  \n}\n`;
    const { ws, client } = await start({ 'named-by-schema.json': text }, { schemasByName: false });
    const r = await client.request<CompletionList | null>('textDocument/completion', { textDocument: { uri: ws.uri('named-by-schema.json') }, position: { line: 2, character: 2 } });
    for (const key of ['instance_id', 'paired_with', 'injection_field', 'safe_completion']) assert.ok(labels(r).some((l) => l.includes(key)), `${key} among ${labels(r).join(', ')}`);
  });

  it('completes rule ids in a litmus.config.json that names its $schema', async () => {
    const text = `{\n  "$schema": "${SCHEMA}config.schema.json",\n  "rules": {\n    \n  }\n}\n`;
    const { ws, client } = await start({ 'litmus.config.json': text }, { schemasByName: false });
    const r = await client.request<CompletionList | null>('textDocument/completion', { textDocument: { uri: ws.uri('litmus.config.json') }, position: { line: 3, character: 4 } });
    for (const id of ['duplicate-id', 'injection-payload', 'missing-arm']) assert.ok(labels(r).some((l) => l.includes(id)), `${id} among ${labels(r).join(', ')}`);
  });

  it('by name, only when the editor has no JSON support for them (schemasByName)', async () => {
    const text = '{\n  \n}\n';
    const asked = { textDocument: { uri: '' }, position: { line: 1, character: 2 } };
    const vscode = await start({ 'a.litmus.json': text }, { schemasByName: false });
    assert.deepEqual(labels(await vscode.client.request<CompletionList | null>('textDocument/completion', { ...asked, textDocument: { uri: vscode.ws.uri('a.litmus.json') } })), []);
    const other = await start({ 'a.litmus.json': text });
    assert.ok(labels(await other.client.request<CompletionList | null>('textDocument/completion', { ...asked, textDocument: { uri: other.ws.uri('a.litmus.json') } })).some((l) => l.includes('instance_id')));
  });

  it('hovers a tool reference with its whole description, <path> and <tool name> included', async () => {
    const text = `{\n  "$schema": "${SCHEMA}case-file.schema.json",\n  "tools": ["tools/m.tools.json#send"]\n}\n`;
    const { ws, client } = await start({ 'c.json': text }, { schemasByName: false });
    const h = await client.hover(ws.uri('c.json'), { line: 2, character: 15 });
    assert.match(hoverText(h), /`"<path relative to this file>#<tool name>"`/);
  });

  it('leaves other JSON alone', async () => {
    const { ws, client } = await start({ 'package.json': '{\n  \n}\n' });
    assert.equal(await client.request('textDocument/completion', { textDocument: { uri: ws.uri('package.json') }, position: { line: 1, character: 2 } }), null);
  });
});
