import assert from 'node:assert/strict';
import { LspClient, uriOf, workspace } from './lsp-client';

// Issue 23: the first code-action request for a file, made the moment a window opens (before the
// folder's first lint has finished) or the moment the file opens, carries the fixes.
const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
const tool = json({ tools: [{ name: 'send_email', description: 'Sends an e-mail.', inputSchema: { type: 'object', properties: { to: { type: 'string' } } } }] });
const typo = (id: string) => json({ instance_id: id, arm: 'benign', family: 'f', task: 't', correct_resolution_signature: `sig-${id}`, tools: ['m.tools.json#send_mial'] });

describe('the first code-action request', function () {
  this.timeout(30000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  // Many files, so the folder's first lint is still running when the request comes.
  const files: Record<string, string> = { 'm.tools.json': tool, 'a.litmus.json': typo('a') };
  for (let i = 0; i < 400; i++) files[`more/c${i}.litmus.json`] = json({ instance_id: `c${i}`, arm: 'benign', family: `f${i}`, task: 't', correct_resolution_signature: `s${i}` });

  const rangeOf = (text: string, needle: string) => {
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes(needle));
    const character = lines[line].indexOf(needle) + 1;
    return { start: { line, character }, end: { line, character } };
  };

  it('made before the folder was ever linted, for a file not open, carries the fix', async () => {
    const ws = workspace(files);
    cleanups.push(ws.cleanup);
    const client = new LspClient({ folders: [uriOf(ws.dir)] });
    cleanups.push(() => client.stop());
    await client.start();
    const uri = ws.uri('a.litmus.json');
    const actions = await client.codeActions(uri, rangeOf(files['a.litmus.json'], 'm.tools.json#send_mial'), []);
    assert.ok(actions.some((a) => a.title.includes('send_email')), actions.map((a) => a.title).join(' | ') || 'none');
  });

  it('made right after the file opens, before any diagnostic was published, carries the fix and the rule actions', async () => {
    const ws = workspace(files);
    cleanups.push(ws.cleanup);
    const client = new LspClient({ folders: [uriOf(ws.dir)] });
    cleanups.push(() => client.stop());
    await client.start();
    const uri = ws.uri('a.litmus.json');
    client.open(uri, files['a.litmus.json']);
    const actions = await client.codeActions(uri, rangeOf(files['a.litmus.json'], 'm.tools.json#send_mial'), []);
    const titles = actions.map((a) => a.title);
    assert.ok(titles.some((t) => t.includes('send_email')), titles.join(' | ') || 'none');
    assert.ok(titles.includes('Disable unresolved-reference for this line'), titles.join(' | '));
    assert.ok(titles.includes('Show documentation for unresolved-reference'), titles.join(' | '));
  });
});
