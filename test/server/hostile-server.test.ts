import assert from 'node:assert/strict';
import type { CodeAction } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, workspace } from './lsp-client';

/** The server as an unlucky editor session meets it (issue 13, items 15 and 17). */
const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
const caseOf = (id: string, extra: Record<string, unknown> = {}) =>
  json({ instance_id: id, arm: 'benign', family: 'f', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });
const toolFile = (name: string) => json({ tools: [{ name, description: 'Sends an e-mail.', inputSchema: { type: 'object', properties: { to: { type: 'string' } } } }] });

describe('language server under hostile use', function () {
  this.timeout(120_000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function setup(files: Record<string, string>, nodeArgs?: string[]) {
    const ws = workspace(files);
    const client = new LspClient({ folders: [uriOf(ws.dir)], nodeArgs });
    cleanups.push(ws.cleanup, () => client.stop());
    return { ws, client };
  }

  it('answers the first code-action request right after didOpen with the fixes, not from an empty state', async () => {
    const files = { 'a.litmus.json': caseOf('a', { tools: ['m.tools.json#send_mail'] }), 'm.tools.json': toolFile('send_email') };
    const { ws, client } = setup(files);
    await client.start();
    const uri = ws.uri('a.litmus.json');
    client.open(uri, files['a.litmus.json']);
    // No waiting for diagnostics: the editor asks at once, and has none of ours to send yet.
    const line = files['a.litmus.json'].split('\n').findIndex((l) => l.includes('send_mail'));
    const range = { start: { line, character: 0 }, end: { line, character: 40 } };
    const actions: CodeAction[] = await client.codeActions(uri, range, []);
    const fix = actions.find((a) => a.title === 'Change to `m.tools.json#send_email`');
    assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
    const edit = fix.edit!.documentChanges![0] as { textDocument: { version: number } };
    assert.equal(edit.textDocument.version, 1, 'the fix is for the version just opened');
  });

  it('a codeAction whose diagnostics hold null (or junk) is answered, not an internal error', async () => {
    const files = { 'a.litmus.json': caseOf('a', { tools: ['m.tools.json#send_mail'] }), 'm.tools.json': toolFile('send_email') };
    const { ws, client } = setup(files);
    await client.start();
    const uri = ws.uri('a.litmus.json');
    client.open(uri, files['a.litmus.json']);
    const ds = await client.waitDiagnostics(uri, (d) => d.length > 0);
    const junk = [null, 3, 'x', ds[0]] as unknown as Parameters<LspClient['codeActions']>[2];
    const actions = await client.codeActions(uri, ds[0].range, junk);
    assert.ok(actions.some((a) => a.title === 'Change to `m.tools.json#send_email`'));
    const none = await client.conn.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: ds[0].range, context: { diagnostics: null } });
    assert.ok(Array.isArray(none));
  });

  it('refuses requests after shutdown', async () => {
    const { ws, client } = setup({ 'a.litmus.json': caseOf('a') });
    await client.start();
    await client.conn.sendRequest('shutdown');
    const uri = ws.uri('a.litmus.json');
    await assert.rejects(client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, []), /shutting down/);
    await assert.rejects(client.request('litmus/lintWorkspace'), /shutting down/);
    await assert.rejects(client.hover(uri, { line: 0, character: 0 }), /shutting down/);
  });

  it('forgets closed buffers: open/close cycles of large unsaved files fit in a 48 MB heap', async () => {
    const { ws, client } = setup({ 'a.litmus.json': caseOf('a') }, ['--max-old-space-size=48']);
    let died = '';
    client.proc.on('exit', (code, signal) => (died = `server exited (${code ?? signal})`));
    await client.start();
    const big = 't'.repeat(400_000);
    // Buffers outside the workspace get their own empty folder: a lone file's folder is read as its
    // suite, and the shared temp folder may hold anything (megabytes of other JSON read in a 48 MB heap).
    const outside = workspace({});
    cleanups.push(outside.cleanup);
    // 200 buffers of 400 KB each: 80 MB of text if closed buffers were kept.
    for (let i = 0; i < 200 && !died; i++) {
      const uri = i % 2 ? outside.uri(`outside-${i}.litmus.json`) : ws.uri(`draft-${i}.litmus.json`);
      client.open(uri, caseOf(`d${i}`, { task: big }));
      await client.request('litmus/lintWorkspace');
      client.close(uri);
      await client.request('litmus/lintWorkspace');
    }
    assert.equal(died, '', client.stderr.slice(-300));
  });
});
