import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { CodeAction } from 'vscode-languageserver-protocol';
import type { JsonReport } from '../../src/cli/format/json';
import { runCli } from '../../src/cli/run';
import { nodeFileSystem } from '../../src/node/fs';
import { captureIo } from '../cli/capture';
import { LspClient, workspace } from './lsp-client';

// Issue 23: a suite file opened without its folder is linted with its suite, as the CLI lints a
// file named alone, and shows exactly what it shows when the suite's folder is open.
const EXAMPLES = resolve(__dirname, '../../../examples');
const LINT_WORKSPACE = 'litmus/lintWorkspace';

function suiteFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? suiteFiles(p) : /\.jsonl?c?$/.test(n) ? [p] : [];
  });
}

describe('a file opened without its folder', function () {
  this.timeout(60000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('gets, for every file of examples/, the findings the CLI gives it in the folder, and no other file gets any', async () => {
    const ws = workspace({});
    cleanups.push(ws.cleanup);
    cpSync(EXAMPLES, join(ws.dir, 'examples'), { recursive: true });
    const root = join(ws.dir, 'examples');
    const cap = captureIo(nodeFileSystem, ws.dir);
    await runCli(['--format', 'json', 'examples'], cap.io);
    const cli = JSON.parse(cap.stdout()) as JsonReport;
    // The server's own defaults (missing-arm on), as in a fresh editor.
    const client = new LspClient({ folders: [], settings: { rules: { 'missing-arm': 'error' } } });
    cleanups.push(() => client.stop());
    await client.start();
    for (const file of suiteFiles(root).sort()) {
      const rel = relative(ws.dir, file);
      const uri = ws.uri(rel);
      client.open(uri, readFileSync(file, 'utf8'));
      await client.request(LINT_WORKSPACE);
      const shown = (client.diagnostics(uri) ?? []).map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code} ${d.message}`);
      const expected = (cli.files.find((f) => f.path === rel)?.diagnostics ?? []).map((d) => `${d.line}:${d.column} ${d.ruleId} ${d.message}`);
      assert.deepEqual(shown, expected, rel);
      for (const other of suiteFiles(root)) {
        const o = ws.uri(relative(ws.dir, other));
        if (o !== uri) assert.deepEqual(client.diagnostics(o) ?? [], [], `${rel} opened: nothing shown on ${relative(ws.dir, other)}`);
      }
      client.close(uri);
      await client.waitDiagnostics(uri, (d) => d.length === 0, `${rel} to clear on close`);
    }
  });

  it('offers, never applies on save, the rename of a paired_with whose twin may sit outside the folder it can see (issue 22, item 1)', async () => {
    const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
    const ws = workspace({
      'cases/adv/a.litmus.json': json({ instance_id: 'adv-one', arm: 'adversarial', probe: 'skill_misuse', family: 'f', task: 't', correct_resolution_signature: 'a', paired_with: 'ben-001' }),
      'cases/adv/c.litmus.json': json({ instance_id: 'ben-011', arm: 'adversarial', probe: 'skill_misuse', family: 'f', task: 't', correct_resolution_signature: 'c' }),
      'cases/ben/b.litmus.json': json({ instance_id: 'ben-001', arm: 'benign', family: 'f', task: 't', correct_resolution_signature: 'b', paired_with: 'adv-one' }),
    });
    cleanups.push(ws.cleanup);
    const client = new LspClient({ folders: [] });
    cleanups.push(() => client.stop());
    await client.start();
    const uri = ws.uri('cases/adv/a.litmus.json');
    const text = readFileSync(join(ws.dir, 'cases/adv/a.litmus.json'), 'utf8');
    client.open(uri, text);
    // No litmus.config.json or .git above it: its folder stands in for the suite, and the twin in
    // cases/ben/ is not seen.
    const ds = await client.waitDiagnostics(uri, (d) => d.some((x) => x.code === 'unresolved-reference'));
    const d = ds.find((x) => x.code === 'unresolved-reference')!;
    const whole = { start: { line: 0, character: 0 }, end: { line: 99, character: 0 } };
    const fixAll: CodeAction[] = await client.codeActions(uri, whole, [], ['source.fixAll.litmus']);
    assert.ok(!JSON.stringify(fixAll).includes('ben-011'), `fix-all on save leaves the link alone: ${JSON.stringify(fixAll)}`);
    const quick: CodeAction[] = await client.codeActions(uri, d.range, [d]);
    const rename = quick.find((a) => a.title === 'Change to `ben-011`');
    assert.ok(rename, 'the rename stays on offer');
    assert.equal(rename.isPreferred, false);
    client.close(uri);

    // With a litmus.config.json at the top, the whole suite is read and the link resolves.
    mkdirSync(join(ws.dir, 'cases'), { recursive: true });
    ws.write('litmus.config.json', '{}\n');
    const again = new LspClient({ folders: [] });
    cleanups.push(() => again.stop());
    await again.start();
    again.open(uri, text);
    await again.request(LINT_WORKSPACE);
    assert.deepEqual((again.diagnostics(uri) ?? []).map((x) => x.code).filter((c) => c === 'unresolved-reference'), []);
  });
});
