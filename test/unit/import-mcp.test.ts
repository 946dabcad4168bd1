import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../../src/core';
import { mcpToolsFile, mcpToolsFileName, repeatedToolNames } from '../../src/importers/mcp';
import { cli, FIXTURES } from './import-helpers';

// Issue 20 item 6: `litmus-lint import mcp -- <command>` lists a live stdio MCP server's tools with
// the official SDK as the client. The server is test/fixtures/import/mcp/server.js: the official
// SDK's own Server for the good behaviours, plain scripts for the broken ones.
const SERVER = join(FIXTURES, 'mcp/server.js');
const server = (mode: string) => ['--', process.execPath, SERVER, mode];

describe('import mcp: a live server\'s tools/list result becomes a tools file', function () {
  this.timeout(60000);
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'litmus-import-mcp-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('lists every page with the SDK and writes <server name>.tools.json with its provenance', async () => {
    const r = await cli(['import', 'mcp', '--out', tmp, ...server('sdk')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /wrote 3 tools of fixture-mail \(2 pages\) to .*fixture-mail\.tools\.json/);
    const text = readFileSync(join(tmp, 'fixture-mail.tools.json'), 'utf8');
    assert.match(text, /^\/\/ MCP tools of fixture-mail 1\.2\.3: its tools\/list result, 2 pages joined,/);
    assert.match(text, /Listed by `litmus-lint import mcp -- \S+ \S+server\.js sdk`/);
    const body = JSON.parse(text.replace(/^\/\/.*$/gm, '')) as { tools: { name: string; annotations?: unknown }[] };
    assert.deepEqual(body.tools.map((t) => t.name), ['send_email', 'read_inbox', 'delete_email']);
    assert.deepEqual(body.tools[2].annotations, { destructiveHint: true });
    // It is a tools file the linter reads as one, with nothing to say about its shape.
    const base = 'file:///mcp';
    const { index } = await loadWorkspace(memoryFileSystem({ [`${base}/fixture-mail.tools.json`]: text }), [base]);
    const structural = lintIndex(index).diagnostics.filter((d) => ['parse-error', 'schema'].includes(d.code));
    assert.deepEqual(structural.map((d) => d.message), []);
  });

  it('--name names the file; an existing file needs --force; --dry-run writes nothing', async () => {
    assert.equal((await cli(['import', 'mcp', '-o', tmp, '--name', 'mail', ...server('sdk')])).code, 0);
    assert.ok(existsSync(join(tmp, 'mail.tools.json')));
    writeFileSync(join(tmp, 'mail.tools.json'), 'mine\n');
    const again = await cli(['import', 'mcp', '-o', tmp, '--name', 'mail', ...server('sdk')]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /mail\.tools\.json already exists; pass --force to overwrite it/);
    const dryAgain = await cli(['import', 'mcp', '-o', tmp, '--name', 'mail', '--dry-run', ...server('sdk')]);
    assert.equal(dryAgain.code, 2, 'a dry run says what the import would refuse');
    assert.match(dryAgain.stderr, /already exists; pass --force/);
    assert.equal(readFileSync(join(tmp, 'mail.tools.json'), 'utf8'), 'mine\n');
    assert.equal((await cli(['import', 'mcp', '-o', tmp, '--name', 'mail', '--force', ...server('sdk')])).code, 0);
    assert.match(readFileSync(join(tmp, 'mail.tools.json'), 'utf8'), /"send_email"/);
    const dry = await cli(['import', 'mcp', '-o', join(tmp, 'dry'), '--dry-run', ...server('sdk')]);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /fixture-mail\.tools\.json {2}\d+ bytes/);
    assert.ok(!existsSync(join(tmp, 'dry')));
  });

  it('never writes through a link in --out', async () => {
    const elsewhere = join(tmp, 'elsewhere.json');
    writeFileSync(elsewhere, 'keep\n');
    mkdirSync(join(tmp, 'out'));
    symlinkSync(elsewhere, join(tmp, 'out', 'fixture-mail.tools.json'));
    const r = await cli(['import', 'mcp', '-o', join(tmp, 'out'), '--force', ...server('sdk')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /refusing to write .*fixture-mail\.tools\.json: it is a symbolic link/);
    assert.equal(readFileSync(elsewhere, 'utf8'), 'keep\n');
  });

  // Each broken server: one line naming what happened, exit 2, nothing written, within the timeout.
  const broken: [string, string[], RegExp][] = [
    ['never answers', ['--timeout', '2', ...server('silent')], /no answer to initialize within 2 s \(--timeout\); the server was stopped/],
    ['answers garbage', server('garbage'), /the server wrote something that is not a JSON-RPC message on its standard output during initialize \(.*not valid JSON/],
    ['exits at once', server('exit'), /the server closed the connection during initialize \(it exited, or closed its standard output\); its standard error ends: "fixture server: missing configuration, giving up"/],
    ['lists 10,000 tools', server('many'), /the server lists more than 2000 tools \(--max-tools\); nothing written/],
    ['pages in a loop', server('loop'), /the server sent the tools\/list cursor "page-1" twice: its pages go round in a loop; nothing written/],
    ['has no tools capability', server('notools'), /fixture-mail declares no tools capability in its initialize answer/],
    ['cannot be started', ['--', join(FIXTURES, 'mcp', 'no-such-server')], /cannot start "\S+no-such-server": no such command/],
  ];
  for (const [what, args, pattern] of broken) {
    it(`a server that ${what}: a clear error, nothing written`, async () => {
      const started = Date.now();
      const r = await cli(['import', 'mcp', '-o', join(tmp, 'out'), ...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, pattern);
      assert.ok(!existsSync(join(tmp, 'out')), 'nothing written');
      assert.deepEqual(readdirSync(tmp), []);
      // The deadline holds (the SDK then gives the server 2 s to exit before it is killed).
      assert.ok(Date.now() - started < 30000, `took ${Date.now() - started} ms`);
    });
  }

  it('--max-tools raises the bound: 10,000 tools over four pages', async () => {
    const r = await cli(['import', 'mcp', '-o', tmp, '--max-tools', '10000', ...server('many')]);
    assert.equal(r.code, 0, r.stderr);
    const body = JSON.parse(readFileSync(join(tmp, 'fixture-mail.tools.json'), 'utf8').replace(/^\/\/.*$/gm, '')) as { tools: unknown[] };
    assert.equal(body.tools.length, 10000);
  });

  it('usage errors are one line, exit 2', async () => {
    for (const args of [['import', 'mcp'], ['import', 'mcp', 'node', 'x.js'], ['import', 'mcp', '--timeout', '0', '--', 'x'], ['import', 'mcp', '--max-tools', '-3', '--', 'x'], ['import', 'mcp', '--bogus', '--', 'x']]) {
      const r = await cli(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    }
    assert.match((await cli(['import', 'mcp', '--help'])).stdout, /--timeout <s> +seconds for the whole exchange \(default 30\)/);
    assert.match((await cli(['import', '--help'])).stdout, /litmus-lint import mcp/);
  });
});

describe('import mcp: the file it writes', () => {
  it('names the file after --name, the server, or the command, safely', () => {
    assert.equal(mcpToolsFileName('mail', 'x', ['node']), 'mail.tools.json');
    assert.equal(mcpToolsFileName(undefined, 'My Server/1', ['node']), 'My_Server_1.tools.json');
    assert.equal(mcpToolsFileName(undefined, undefined, ['/usr/bin/mcp-git', '--repo', '.']), 'mcp-git.tools.json');
    assert.equal(mcpToolsFileName('mail.tools.json', undefined, ['x']), 'mail.tools.json');
  });

  it('escapes what the server says about itself in the provenance comment', () => {
    const text = mcpToolsFile([], { command: ['srv', 'a b', '\u001b[31m'], serverName: 'evil\n{"tools": 1}\u202e', serverVersion: '1', pages: 1 });
    const comments = text.split('\n').filter((l) => l.startsWith('//'));
    assert.equal(comments.length, 3);
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u202e]/);
    assert.deepEqual(JSON.parse(text.replace(/^\/\/.*$/gm, '')), { tools: [] });
  });

  it('finds the tool names a server lists twice', () => {
    assert.deepEqual(repeatedToolNames([{ name: 'a' }, { name: 'b' }, { name: 'a' }, null, { name: 7 }]), ['a']);
  });
});
