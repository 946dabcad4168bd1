import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { uriOf } from './lsp-client';

// The npm package as a new user gets it: `npm pack` (which runs `prepack`, the build), then
// `npm install <tarball>` into an empty folder, then both commands from that folder's
// node_modules/.bin. Nothing of this checkout is on the path there: what the bins need at run time
// must be in the tarball.
const ROOT = resolve(__dirname, '../../..');
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
// What the tarball holds, gzipped: the CLI and server bundles (~0.47 MB each), the CLI's V8 code
// cache (~0.81 MB: it saves every run ~30 ms of compiling), the client and MCP bundles (~0.25 MB),
// schemas and docs. 2.5 MB leaves room for the rules to grow and still fails on a stray source
// tree, source maps or a second copy of a bundle.
const MAX_TARBALL_BYTES = 2.5 * 1024 * 1024;

interface PackResult {
  filename: string;
  size: number;
  files: { path: string }[];
}

function npm(args: string[], cwd: string) {
  // The runner's own npm (npm_execpath under `npm test`), else the one on PATH.
  const cli = process.env.npm_execpath;
  const r = cli && cli.endsWith('.js') ? spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' }) : spawnSync('npm', args, { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `npm ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

describe('the npm package (npm pack, npm install, both bins)', function () {
  this.timeout(180000);
  let dir: string;
  let app: string;
  let pack: PackResult;
  const bin = (name: string) => join(app, 'node_modules', '.bin', name);

  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'litmus-npm-')));
    // `prepack` (the build) prints to the same standard output before npm's JSON.
    const out = npm(['pack', '--json', '--pack-destination', dir], ROOT);
    pack = (JSON.parse(out.slice(out.search(/^\[/m))) as PackResult[])[0];
    app = join(dir, 'app');
    mkdirSync(app);
    // No network beyond the registry: the package has no runtime dependencies (the bundles carry them).
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', join(dir, pack.filename)], app);
    // A small suite with known findings, outside this checkout.
    cpSync(join(ROOT, 'examples'), join(app, 'suite'), { recursive: true });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is under 2.5 MB and carries the bundles, schemas, grammars and rule docs, and no sources or tests', () => {
    assert.ok(pack.size < MAX_TARBALL_BYTES, `tarball is ${pack.size} bytes`);
    const paths = pack.files.map((f) => f.path);
    for (const must of ['dist/cli.js', 'dist/cli-main.js', 'dist/server.js', 'dist/language-server.js', 'schemas/case.schema.json', 'docs/rules/schema.md', 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json']) {
      assert.ok(paths.includes(must), `${must} is in the tarball`);
    }
    const stray = paths.filter((p) => /^(src|test|scripts|bench|examples|node_modules|out)\//.test(p) || p.endsWith('.map') || p.endsWith('.ts'));
    assert.deepEqual(stray, []);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/litmus-lint/package.json'), 'utf8'));
    assert.equal(manifest.private, undefined, 'the package is publishable');
    assert.deepEqual(manifest.dependencies ?? {}, {}, 'the bundles need no node_modules');
  });

  it('installs litmus-lint, which lints a suite there', () => {
    assert.ok(existsSync(bin('litmus-lint')), 'node_modules/.bin/litmus-lint');
    const version = spawnSync(bin('litmus-lint'), ['--version'], { cwd: app, encoding: 'utf8' });
    assert.equal(version.stdout, `${VERSION}\n`);
    const r = spawnSync(bin('litmus-lint'), ['--format', 'json', 'suite'], { cwd: app, encoding: 'utf8' });
    assert.equal(r.status, 1, `the example suite has deliberate defects; stderr: ${r.stderr}`);
    const report = JSON.parse(r.stdout) as { files: { path: string; diagnostics: { ruleId: string }[] }[] };
    const rules = new Set(report.files.flatMap((f) => f.diagnostics.map((d) => d.ruleId)));
    for (const rule of ['injection-payload', 'benign-contamination', 'signature-overlap']) assert.ok(rules.has(rule), `${rule} is reported`);
    // The same answers as this checkout's build.
    const here = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), '--format', 'json', 'suite'], { cwd: app, encoding: 'utf8' });
    assert.equal(r.stdout, here.stdout);
    const sarif = spawnSync(bin('litmus-lint'), ['--format', 'sarif', 'suite'], { cwd: app, encoding: 'utf8' });
    assert.equal(JSON.parse(sarif.stdout).version, '2.1.0');
  });

  it('installs litmus-language-server, which answers --version and --help', () => {
    assert.ok(statSync(bin('litmus-language-server')).isFile());
    const version = spawnSync(bin('litmus-language-server'), ['--version'], { cwd: app, encoding: 'utf8' });
    assert.equal(version.status, 0);
    assert.equal(version.stdout, `${VERSION}\n`);
    const help = spawnSync(bin('litmus-language-server'), ['--help'], { cwd: app, encoding: 'utf8' });
    assert.match(help.stdout, /^Usage: litmus-language-server/);
    assert.match(help.stdout, /--stdio/);
  });

  for (const args of [[], ['--stdio']]) {
    it(`runs the language server on stdio (${args.length ? args.join(' ') : 'no flags'}): initialize, diagnostics, shutdown, exit`, async () => {
      const proc = spawn(bin('litmus-language-server'), args, { cwd: app, stdio: ['pipe', 'pipe', 'pipe'] });
      let stderr = '';
      proc.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
      const conn = createMessageConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
      const folder = uriOf(join(app, 'suite'));
      const target = uriOf(join(app, 'suite/tools/mail.tools.json'));
      const published = new Promise<PublishDiagnosticsParams>((res) =>
        conn.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
          if (p.uri === target && p.diagnostics.length > 0) res(p);
        }),
      );
      conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
      conn.onRequest('client/registerCapability', () => null);
      conn.onNotification('window/logMessage', () => undefined);
      conn.listen();
      try {
        const init = await conn.sendRequest<InitializeResult>('initialize', {
          processId: process.pid,
          rootUri: folder,
          workspaceFolders: [{ uri: folder, name: 'suite' }],
          capabilities: { workspace: { configuration: true, workspaceFolders: true } },
        });
        assert.ok(init.capabilities.textDocumentSync !== undefined, 'the server syncs documents');
        await conn.sendNotification('initialized', {});
        const text = readFileSync(join(app, 'suite/tools/mail.tools.json'), 'utf8');
        await conn.sendNotification('textDocument/didOpen', { textDocument: { uri: target, languageId: 'jsonc', version: 1, text } });
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error(`no diagnostics; stderr: ${stderr}`)), 20000)));
        const p = await Promise.race([published, timeout]).finally(() => clearTimeout(timer));
        assert.ok(p.diagnostics.some((d) => d.code === 'injection-payload'), JSON.stringify(p.diagnostics.map((d) => d.code)));
        assert.equal(await conn.sendRequest('shutdown'), null);
        await conn.sendNotification('exit');
        assert.equal(await exited, 0, `exit after shutdown is a clean exit; stderr: ${stderr}`);
      } finally {
        conn.dispose();
        proc.kill();
      }
    });
  }
});
