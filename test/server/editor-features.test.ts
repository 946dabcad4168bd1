import assert from 'node:assert/strict';
import type { CodeAction, Diagnostic, Range } from 'vscode-languageserver-protocol';
import { LspClient, textAt, uriOf, workspace } from './lsp-client';

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
const caseOf = (id: string, extra: Record<string, unknown> = {}) =>
  json({ instance_id: id, arm: 'benign', family: 'f', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });
const line = (id: string) => JSON.stringify({ instance_id: id, arm: 'benign', family: 'f', task: 't', correct_resolution_signature: `s-${id}` });
const toolFile = (name: string) => json({ tools: [{ name, description: 'Sends an e-mail.', inputSchema: { type: 'object', properties: { to: { type: 'string' } } } }] });
const DOCS = 'https://github.com/litmus-lint/litmus-lint/blob/main/docs/rules/';

describe('editor conveniences over LSP', function () {
  this.timeout(30000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  function setup(files: Record<string, string>, options: Partial<ConstructorParameters<typeof LspClient>[0]> = {}) {
    const ws = workspace(files);
    const client = new LspClient({ folders: [uriOf(ws.dir)], ...options });
    cleanups.push(ws.cleanup, () => client.stop());
    return { ws, client };
  }

  async function actionsFor(client: LspClient, uri: string, code: string): Promise<{ d: Diagnostic; actions: CodeAction[] }> {
    const ds = await client.waitDiagnostics(uri, (x) => x.some((d) => d.code === code), code);
    const d = ds.find((x) => x.code === code)!;
    return { d, actions: await client.codeActions(uri, d.range, [d]) };
  }

  describe('litmus.enable', () => {
    it('off: a folder gets no diagnostics, code actions or hovers, and says so in the log', async () => {
      const files = { 'a.litmus.json': caseOf('x'), 'b.litmus.json': caseOf('x') };
      const { ws, client } = setup(files, { settings: { enable: false } });
      await client.start();
      await client.until('the disabled log line', () => client.logs.some((l) => /litmus\.enable is off/.test(l)));
      const uri = ws.uri('a.litmus.json');
      client.open(uri, files['a.litmus.json']);
      const r = await client.request<{ errors: number; files: number }>('litmus/lintWorkspace');
      assert.equal(r.errors, 0);
      assert.equal(r.files, 0);
      assert.equal(client.diagnostics(uri), undefined, 'nothing was ever published');
      const fake: Diagnostic = { range: { start: { line: 1, character: 17 }, end: { line: 1, character: 20 } }, message: 'm', source: 'litmus', code: 'duplicate-id', data: { key: 'k' } };
      assert.deepEqual(await client.codeActions(uri, fake.range, [fake]), []);
      assert.equal(await client.hover(uri, { line: 1, character: 18 }), null);
    });

    it('turned off: what was published is cleared; turned on again: it comes back', async () => {
      const files = { 'a.litmus.json': caseOf('x'), 'b.litmus.json': caseOf('x') };
      let enable = true;
      const { ws, client } = setup(files, { settings: () => ({ enable }) });
      await client.start();
      const uri = ws.uri('a.litmus.json');
      await client.waitDiagnostics(uri, (ds) => ds.some((d) => d.code === 'duplicate-id'), 'duplicate-id');
      enable = false;
      void client.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      await client.waitDiagnostics(uri, (ds) => ds.length === 0, 'cleared on a');
      await client.waitDiagnostics(ws.uri('b.litmus.json'), (ds) => ds.length === 0, 'cleared on b');
      enable = true;
      void client.conn.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      await client.waitDiagnostics(uri, (ds) => ds.some((d) => d.code === 'duplicate-id'), 'duplicate-id back');
    });

    it('is per folder: one folder off, the other still linted', async () => {
      const on = workspace({ 'a.litmus.json': caseOf('x'), 'b.litmus.json': caseOf('x') });
      const off = workspace({ 'a.litmus.json': caseOf('y'), 'b.litmus.json': caseOf('y') });
      const client = new LspClient({ folders: [uriOf(on.dir), uriOf(off.dir)], settings: (scope) => ({ enable: !scope?.startsWith(uriOf(off.dir)) }) });
      cleanups.push(on.cleanup, off.cleanup, () => client.stop());
      await client.start();
      const r = await client.request<{ errors: number }>('litmus/lintWorkspace');
      assert.equal(r.errors, 2, 'the two duplicate-ids of the enabled folder only');
      assert.equal(client.diagnostics(off.uri('a.litmus.json')), undefined);
      assert.ok(client.diagnostics(on.uri('a.litmus.json'))?.some((d) => d.code === 'duplicate-id'));
    });
  });

  describe('"Disable <rule> for this line"', () => {
    it('JSONC: writes the §11 comment above the line, with its indentation, and selects the reason', async () => {
      const text = '{\n  // the case\n    "instance_id": "x",\n  "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "s"\n}\n';
      const { ws, client } = setup({ 'a.litmus.jsonc': text, 'b.litmus.json': caseOf('x') });
      await client.start();
      const uri = ws.uri('a.litmus.jsonc');
      client.open(uri, text);
      const { actions } = await actionsFor(client, uri, 'duplicate-id');
      const disable = actions.find((a) => a.title === 'Disable duplicate-id for this line');
      assert.ok(disable, `among: ${actions.map((a) => a.title).join(' | ')}`);
      assert.equal(disable.kind, 'quickfix');
      const after = client.apply(disable).get(uri)!;
      assert.equal(after, '{\n  // the case\n    // litmus-disable-next-line duplicate-id -- reason\n    "instance_id": "x",\n  "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "s"\n}\n');
      // LSP code actions cannot select: the action's command asks the client to, through showDocument.
      assert.equal(disable.command?.command, 'litmus.selectRange');
      const [target, range] = disable.command!.arguments as [string, Range];
      assert.equal(target, uri);
      assert.equal(textAt(after, range), 'reason');
      await client.executeCommand(disable.command!.command, ...disable.command!.arguments!);
      assert.deepEqual(client.shown.at(-1), { uri, selection: range, takeFocus: true });
      // Core reads what was written: the finding is suppressed, and the suppression is in use.
      await client.waitDiagnostics(uri, (ds) => ds.length === 0, 'duplicate-id suppressed, no unused-suppression');
    });

    it('JSONC: keeps CRLF line ends; a second rule joins the comment already above the line', async () => {
      const text = '{\r\n  "instance_id": "x",\r\n  "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "s", "paired_with": "nope"\r\n}\r\n';
      const { ws, client } = setup({ 'a.litmus.json': text, 'b.litmus.json': caseOf('x') });
      await client.start();
      const uri = ws.uri('a.litmus.json');
      client.open(uri, text);
      const first = (await actionsFor(client, uri, 'duplicate-id')).actions.find((a) => a.title === 'Disable duplicate-id for this line')!;
      const once = client.apply(first).get(uri)!;
      assert.equal(once.split('\r\n')[1], '  // litmus-disable-next-line duplicate-id -- reason');
      assert.ok(!/[^\r]\n/.test(once), 'no bare LF');
      // Move the paired_with onto the instance_id line, so a second rule is on the commented line.
      const moved = once.replace('"instance_id": "x",', '"instance_id": "x", "paired_with": "nope",').replace(', "paired_with": "nope"\r\n}', '\r\n}');
      client.change(uri, moved);
      const ds = await client.waitDiagnostics(uri, (x) => x.some((y) => y.code === 'unresolved-reference' && y.range.start.line === 2 && textAt(moved, y.range) === '"nope"'), 'the moved paired_with');
      const d = ds.find((y) => y.code === 'unresolved-reference')!;
      const actions = await client.codeActions(uri, d.range, [d]);
      const second = actions.find((a) => a.title === 'Disable unresolved-reference for this line');
      assert.ok(second, `line ${d.range.start.line} among: ${actions.map((a) => a.title).join(' | ')}`);
      const twice = client.apply(second).get(uri)!;
      assert.equal(twice.split('\r\n')[1], '  // litmus-disable-next-line duplicate-id, unresolved-reference -- reason');
      const [, range] = second.command!.arguments as [string, Range];
      assert.equal(textAt(twice, range), 'reason', 'the existing reason is selected for review');
      await client.waitDiagnostics(uri, (ds) => ds.length === 0, 'both findings of the line suppressed');
    });

    it('JSONL: adds "x-litmus-disable" to that line\'s case object, the reason selected', async () => {
      const text = `${line('a')}\n${line('x')}\n`;
      const { ws, client } = setup({ 'c.litmus.jsonl': text, 'b.litmus.json': caseOf('x') });
      await client.start();
      const uri = ws.uri('c.litmus.jsonl');
      client.open(uri, text, 'jsonl');
      const { actions } = await actionsFor(client, uri, 'duplicate-id');
      const disable = actions.find((a) => a.title === 'Disable duplicate-id for this line')!;
      assert.ok(disable);
      const after = client.apply(disable).get(uri)!;
      const lines = after.split('\n');
      assert.equal(lines[0], line('a'), 'the other line is untouched');
      assert.deepEqual(JSON.parse(lines[1])['x-litmus-disable'], { 'duplicate-id': 'reason' });
      assert.ok(!after.includes('//'), 'no comment in JSONL');
      assert.equal(textAt(after, (disable.command!.arguments as [string, Range])[1]), 'reason');
      await client.waitDiagnostics(uri, (ds) => ds.length === 0, 'duplicate-id suppressed on that line');
    });

    it('JSONL: a line that already has the field gets the rule added to it', async () => {
      const text = `${JSON.stringify({ 'x-litmus-disable': { schema: 'because' }, ...JSON.parse(line('x')) })}\n`;
      const { ws, client } = setup({ 'c.litmus.jsonl': text, 'b.litmus.json': caseOf('x') });
      await client.start();
      const uri = ws.uri('c.litmus.jsonl');
      client.open(uri, text, 'jsonl');
      const disable = (await actionsFor(client, uri, 'duplicate-id')).actions.find((a) => a.title === 'Disable duplicate-id for this line')!;
      const after = client.apply(disable).get(uri)!;
      assert.deepEqual(JSON.parse(after)['x-litmus-disable'], { 'duplicate-id': 'reason', schema: 'because' });
    });

    it('a client without showDocument gets the edit and no command; parse errors get no suppression', async () => {
      const { ws, client } = setup({ 'b.litmus.json': caseOf('x') }, { noWindow: true });
      await client.start();
      const uri = ws.uri('a.litmus.json');
      const text = caseOf('x');
      client.open(uri, text);
      const disable = (await actionsFor(client, uri, 'duplicate-id')).actions.find((a) => a.title === 'Disable duplicate-id for this line')!;
      assert.ok(disable.edit);
      assert.equal(disable.command, undefined);
      client.change(uri, '{\n  "instance_id": "x",\n}\n');
      const { actions } = await actionsFor(client, uri, 'parse-error');
      assert.ok(!actions.some((a) => a.title.startsWith('Disable')), actions.map((a) => a.title).join(' | '));
    });
  });

  describe('"Show documentation for <rule>"', () => {
    it('is offered once per rule and opens the docs page externally through window/showDocument', async () => {
      const { ws, client } = setup({ 'a.litmus.json': caseOf('x'), 'b.litmus.json': caseOf('x') });
      await client.start();
      const uri = ws.uri('a.litmus.json');
      client.open(uri, caseOf('x'));
      const { d, actions } = await actionsFor(client, uri, 'duplicate-id');
      const docs = actions.filter((a) => a.title === 'Show documentation for duplicate-id');
      assert.equal(docs.length, 1);
      assert.equal(docs[0].kind, 'quickfix');
      assert.equal(docs[0].edit, undefined);
      assert.deepEqual(docs[0].command?.arguments, [`${DOCS}duplicate-id.md`]);
      assert.equal(docs[0].command?.arguments?.[0], d.codeDescription?.href);
      // The suppression comes before the docs link, as in vscode-eslint's menu.
      assert.ok(actions.indexOf(docs[0]) > actions.findIndex((a) => a.title.startsWith('Disable')));
      const r = await client.executeCommand<{ success: boolean }>(docs[0].command!.command, ...docs[0].command!.arguments!);
      assert.equal(r.success, true);
      assert.deepEqual(client.shown.at(-1), { uri: `${DOCS}duplicate-id.md`, external: true });
      // Anything but a web page is refused: the argument comes back from the client.
      const refused = await client.executeCommand<{ success: boolean }>('litmus.openRuleDocs', 'file:///etc/passwd');
      assert.equal(refused.success, false);
      assert.equal(client.shown.length, 1);
    });
  });

  describe('"Fix all auto-fixable problems" command', () => {
    it('applies the fixes of source.fixAll.litmus through workspace/applyEdit, on the latest text', async () => {
      const text = caseOf('a', { tools: ['m.tools.json#send_mail'] });
      const { ws, client } = setup({ 'a.litmus.json': text, 'm.tools.json': toolFile('send_email') });
      await client.start();
      const uri = ws.uri('a.litmus.json');
      client.open(uri, text);
      await client.waitDiagnostics(uri, (ds) => ds.some((d) => d.code === 'unresolved-reference'));
      const viaKind = (await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, [], ['source.fixAll.litmus']))[0];
      // An edit the last lint has not seen: the command must fix the text as it is now.
      const edited = text.replace('"family": "f"', '"family": "g"');
      client.change(uri, edited);
      const r = await client.executeCommand<{ fixed: number; applied: boolean }>('litmus.applyAutoFixes', { uri });
      assert.deepEqual(r, { fixed: 1, applied: true });
      const after = client.docs.get(uri)!.getText();
      assert.equal(after, edited.replace('send_mail', 'send_email'));
      assert.equal(client.appliedEdits.length, 1);
      assert.equal(client.appliedEdits[0].label, viaKind.title);
      await client.waitDiagnostics(uri, (ds) => ds.length === 0, 'fixed');
      assert.deepEqual(await client.executeCommand('litmus.applyAutoFixes', { uri }), { fixed: 0, applied: false }, 'nothing left to fix');
    });
  });

  describe('progress and the start-up line', () => {
    it('reports work-done progress while a folder is indexed and while Lint Workspace runs', async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 30; i++) files[`c${i}.litmus.json`] = caseOf(`c${i}`);
      const { ws, client } = setup(files);
      await client.start();
      const kinds = (token: string | number) => client.progress.filter((p) => p.token === token).map((p) => p.value.kind);
      const first = await client.until('indexing progress to end', () => client.progressTokens.length >= 1 && kinds(client.progressTokens[0]).includes('end') && client.progressTokens[0]);
      assert.deepEqual(kinds(first), ['begin', 'end']);
      const begin = client.progress.find((p) => p.token === first)!.value;
      assert.equal(begin.title, 'LITMUS');
      assert.match(begin.message ?? '', /^Indexing .+/);
      await client.request('litmus/lintWorkspace');
      const second = client.progressTokens.find((t) => t !== first);
      assert.ok(second !== undefined, 'a second progress for Lint Workspace');
      assert.deepEqual(kinds(second), ['begin', 'end']);
      assert.match(client.progress.find((p) => p.token === second)!.value.message ?? '', /^Linting /);
      // Later lints of a known folder (keystrokes) show no progress.
      const uri = ws.uri('c0.litmus.json');
      client.open(uri, files['c0.litmus.json']);
      client.change(uri, files['c0.litmus.json'].replace('"c0"', '"c1"'));
      await client.waitDiagnostics(uri, (ds) => ds.some((d) => d.code === 'duplicate-id'));
      assert.equal(client.progressTokens.length, 2);
    });

    it('logs one start-up line: version, folders, files indexed, time', async () => {
      const { ws, client } = setup({ 'a.litmus.json': caseOf('a'), 'm.tools.json': toolFile('send_email') });
      await client.start();
      const l = await client.until('the start-up line', () => client.logs.find((x) => / started: /.test(x)));
      const version = (require('../../../package.json') as { version: string }).version;
      const m = /LITMUS Lint (\S+) started: 1 folder \((.+)\), (\d+) files indexed in (\d+) ms$/.exec(l);
      assert.ok(m, l);
      assert.equal(m[1], version);
      assert.ok(m[2].length > 0 && ws.dir.endsWith(m[2].split('/').pop()!), m[2]);
      assert.equal(m[3], '2');
      assert.equal(client.logs.filter((x) => / started: /.test(x)).length, 1);
    });
  });
});
