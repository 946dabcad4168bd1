import assert from 'node:assert/strict';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, uriOf, workspace } from './lsp-client';

// Issue 23: a plugin rule runs in the language server as in the CLI, and only in a trusted workspace.
const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
const PLUGIN = `module.exports = { rules: [{
  meta: { id: 'acme/no-todo', defaultSeverity: 'warning', description: 'A task that still says TODO.', docsUrl: 'https://example.com/acme/no-todo' },
  check(ctx) {
    for (const c of ctx.index.cases) if (typeof c.value.task === 'string' && c.value.task.includes('TODO'))
      ctx.report({ at: { uri: c.doc.uri, root: c.root, path: ctx.index.casePath(c, 'task') }, message: 'task of ' + c.id + ' says TODO' });
  },
}] };\n`;

describe('plugins in the language server', function () {
  this.timeout(30000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  const start = async (files: Record<string, string>, trustedWorkspace?: boolean) => {
    const ws = workspace(files);
    cleanups.push(ws.cleanup);
    const client = new LspClient({ folders: [uriOf(ws.dir)], initializationOptions: trustedWorkspace === undefined ? undefined : { trustedWorkspace } });
    cleanups.push(() => client.stop());
    await client.start();
    await client.request('litmus/lintWorkspace');
    return { ws, client };
  };
  const files = {
    'plugins/acme.cjs': PLUGIN,
    'litmus.config.json': json({ plugins: ['./plugins/acme.cjs'], rules: { 'acme/no-todo': 'error' } }),
    'a.litmus.json': json({ instance_id: 'a', arm: 'benign', family: 'f', task: 'TODO write it', correct_resolution_signature: 's' }),
  };
  const codes = (ds: Diagnostic[] | undefined) => (ds ?? []).map((d) => d.code);

  it('runs the rule in a trusted workspace, with its severity and docs link', async () => {
    const { ws, client } = await start(files, true);
    const d = (client.diagnostics(ws.uri('a.litmus.json')) ?? []).find((x) => x.code === 'acme/no-todo');
    assert.ok(d, JSON.stringify(client.diagnostics(ws.uri('a.litmus.json'))));
    assert.equal(d.severity, 1);
    assert.equal(d.codeDescription?.href, 'https://example.com/acme/no-todo');
    assert.equal(d.message, 'task of a says TODO');
    assert.deepEqual(codes(client.diagnostics(ws.uri('litmus.config.json'))), []);
  });

  it('runs no plugin where the workspace is not trusted, and says so on the config', async () => {
    for (const trusted of [false, undefined]) {
      const { ws, client } = await start(files, trusted);
      assert.ok(!codes(client.diagnostics(ws.uri('a.litmus.json'))).includes('acme/no-todo'));
      const notes = client.diagnostics(ws.uri('litmus.config.json')) ?? [];
      assert.equal(notes.length, 1, JSON.stringify(notes));
      assert.equal(notes[0].code, 'plugins');
      assert.equal(notes[0].severity, 3);
      assert.match(notes[0].message, /not run: this workspace is not trusted/);
    }
  });

  it('shows a plugin that cannot load as an error on its entry, and lints with the rest', async () => {
    const { ws, client } = await start({ ...files, 'litmus.config.json': json({ plugins: ['./plugins/missing.cjs'] }) }, true);
    const notes = client.diagnostics(ws.uri('litmus.config.json')) ?? [];
    assert.equal(notes.length, 1, JSON.stringify(notes));
    assert.equal(notes[0].severity, 1);
    assert.match(notes[0].message, /plugin not loaded: cannot load \.\/plugins\/missing\.cjs/);
    const config = json({ plugins: ['./plugins/missing.cjs'] }).split('\n');
    assert.equal(notes[0].range.start.line, config.findIndex((l) => l.includes('missing.cjs')), 'on the plugins entry');
  });
});
