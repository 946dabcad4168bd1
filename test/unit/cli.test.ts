import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseScenario, serializeScenario, splitCommand, type Section } from '../cli/scenario';

// Golden scenarios run the built CLI (dist/cli.js) as users do, with the repository root as cwd.
// UPDATE_GOLDEN=1 rewrites the expected sections from what the CLI now prints (`npm run golden`).
const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
const DIR = join(ROOT, 'test/cli/scenarios');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
/** An `after` body that checks only that the file is there (its content varies by machine). */
const EXISTS = '{exists}';
const VERSION: string = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

/** Machine-specific parts of the output, replaced so the goldens hold on any clone. */
function normalize(text: string, tmp: string): string {
  const fileUrl = (p: string) => pathToFileURL(p).href.replace(/\/$/, '');
  return text
    .split(fileUrl(tmp)).join('{tmpUri}')
    .split(tmp).join('{tmp}')
    .split(fileUrl(ROOT)).join('{rootUri}')
    .split(ROOT).join('{root}')
    .split(VERSION).join('{version}')
    .replace(/\u001b/g, '<ESC>')
    .replace(/\ufeff/g, '{BOM}');
}

/** Bytes a text file cannot show plainly: `{NUL}`, `{BOM}`, `{CR}`, and `{DEEP:n}` (n nested arrays). */
function expandAsset(body: string): string {
  return body
    .replace(/\{NUL\}/g, '\u0000')
    .replace(/\{BOM\}/g, '\ufeff')
    .replace(/\{CR\}/g, '\r')
    .replace(/\{DEEP:(\d+)\}/g, (_, n: string) => '['.repeat(Number(n)) + ']'.repeat(Number(n)));
}

function section(sections: Section[], name: string): Section | undefined {
  return sections.find((s) => s.name === name);
}

function setExpected(sections: Section[], name: string, body: string, arg?: string): void {
  const found = sections.find((s) => s.name === name && s.arg === arg);
  if (found) found.body = body;
  else sections.push({ name, arg, body });
}

describe('CLI golden scenarios (dist/cli.js)', function () {
  this.timeout(60000);

  before(function () {
    if (!existsSync(CLI)) {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(r.status, 0, `build failed: ${r.stderr}`);
    }
  });

  const files = readdirSync(DIR).filter((f) => f.endsWith('.scenario')).sort();

  it('has scenarios to run', () => {
    assert.ok(files.length >= 15, `only ${files.length} scenarios found in ${DIR}`);
  });

  for (const file of files) {
    const path = join(DIR, file);
    const sections = parseScenario(readFileSync(path, 'utf8'));
    const title = section(sections, 'test')?.body.trim() ?? file;
    it(`${file.replace(/\.scenario$/, '')}: ${title}`, () => {
      const tmp = mkdtempSync(join(tmpdir(), 'litmus-scenario-'));
      try {
        for (const s of sections.filter((x) => x.name === 'asset')) {
          const target = join(tmp, s.arg!);
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, expandAsset(s.body.length ? s.body + '\n' : ''));
        }
        for (const rel of (section(sections, 'copy')?.body ?? '').split('\n').filter(Boolean)) {
          cpSync(join(ROOT, rel), join(tmp, rel), { recursive: true });
        }
        const command = section(sections, 'command')?.body.trim() ?? '';
        const [bin, ...args] = splitCommand(command.split('{tmp}').join(tmp));
        assert.equal(bin, 'litmus-lint', `${file}: commands start with litmus-lint`);
        const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
        for (const line of (section(sections, 'env')?.body ?? '').split('\n').filter(Boolean)) {
          const eq = line.indexOf('=');
          env[line.slice(0, eq)] = line.slice(eq + 1);
        }
        const cwdSection = section(sections, 'cwd')?.body.trim();
        const cwd = cwdSection === undefined ? ROOT : join(tmp, cwdSection);
        mkdirSync(cwd, { recursive: true });
        const stdin = section(sections, 'stdin');
        const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', input: stdin ? expandAsset(stdin.body + '\n') : '' });
        const actual = {
          status: String(r.status),
          stdout: normalize(r.stdout, tmp).replace(/\n$/, ''),
          stderr: normalize(r.stderr, tmp).replace(/\n$/, ''),
        };
        const after = sections
          .filter((s) => s.name === 'after')
          .map((s) => ({ s, text: existsSync(join(tmp, s.arg!)) ? normalize(readFileSync(join(tmp, s.arg!), 'utf8'), tmp).replace(/\n$/, '') : '<missing>' }));
        if (UPDATE) {
          setExpected(sections, 'status', actual.status);
          setExpected(sections, 'stdout', actual.stdout);
          setExpected(sections, 'stderr', actual.stderr);
          for (const a of after) if (a.s.body !== EXISTS) a.s.body = a.text;
          writeFileSync(path, serializeScenario(sections));
          return;
        }
        assert.equal(actual.stdout, section(sections, 'stdout')?.body ?? '', `${file}: stdout`);
        assert.equal(actual.stderr, section(sections, 'stderr')?.body ?? '', `${file}: stderr`);
        assert.equal(actual.status, section(sections, 'status')?.body.trim(), `${file}: exit status`);
        for (const a of after) {
          if (a.s.body === EXISTS) assert.notEqual(a.text, '<missing>', `${file}: ${a.s.arg} exists after the run`);
          else assert.equal(a.text, a.s.body, `${file}: content of ${a.s.arg} after the run`);
        }
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    });
  }
});

describe('the command launcher (dist/cli.js)', function () {
  this.timeout(60000);

  it('comes with a code cache from the build, and answers the same without one or with a bad one', () => {
    assert.ok(existsSync(join(ROOT, 'dist/cli-main.cache')), 'the build writes dist/cli-main.cache');
    const tmp = mkdtempSync(join(tmpdir(), 'litmus-launch-'));
    try {
      for (const f of ['cli.js', 'cli-main.js']) cpSync(join(ROOT, 'dist', f), join(tmp, f));
      const run = () => spawnSync(process.execPath, [join(tmp, 'cli.js'), '--format', 'json', 'examples'], { cwd: ROOT, encoding: 'utf8' });
      const expected = spawnSync(process.execPath, [CLI, '--format', 'json', 'examples'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(expected.status, 1, 'the examples carry deliberate defects');
      for (const cache of [undefined, Buffer.from('not a code cache'), readFileSync(join(ROOT, 'dist/cli-main.cache')).subarray(0, 100)]) {
        if (cache) writeFileSync(join(tmp, 'cli-main.cache'), cache);
        const r = run();
        assert.equal(r.stderr, '');
        assert.equal(r.status, expected.status);
        assert.equal(r.stdout, expected.stdout);
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("the build's code cache is the one the launcher takes: written and read under the same V8 flags", () => {
    // V8 rejects a cache made under other flags, silently; the launcher sets one (the optimiser's
    // inlining budget). A preload records what V8 said of the cache the launcher handed it.
    const tmp = mkdtempSync(join(tmpdir(), 'litmus-launch-'));
    try {
      const probe = join(tmp, 'probe.cjs');
      writeFileSync(
        probe,
        `const vm = require('node:vm');
         const Script = vm.Script;
         vm.Script = class extends Script {
           constructor(source, options) {
             super(source, options);
             if (options && options.cachedData) process.on('exit', () => process.stderr.write('cache rejected: ' + this.cachedDataRejected + '\\n'));
           }
         };`,
      );
      const r = spawnSync(process.execPath, ['--require', probe, CLI, '--version'], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stderr, 'cache rejected: false\n');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('runs the bundle decoded as UTF-8 (the build makes it ASCII), and the bundle alone as Node loads it', () => {
    const bundle = readFileSync(join(ROOT, 'dist/cli-main.js'), 'utf8');
    assert.doesNotMatch(bundle, /[^\x00-\x7f]/, 'the build writes the bundle ASCII-only');
    const expected = spawnSync(process.execPath, [CLI, '--format', 'json', 'examples'], { cwd: ROOT, encoding: 'utf8' });
    // What a profile runs: Node wraps the file itself and it runs as the main module.
    const alone = spawnSync(process.execPath, [join(ROOT, 'dist/cli-main.js'), '--format', 'json', 'examples'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(alone.status, expected.status);
    assert.equal(alone.stdout, expected.stdout);
    // Required as a module by another, it only gives its function: nothing runs, nothing is printed.
    const required = spawnSync(process.execPath, ['-e', `process.stdout.write(typeof require(${JSON.stringify(join(ROOT, 'dist/cli-main.js'))}))`], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(required.stdout, 'object');
    const tmp = mkdtempSync(join(tmpdir(), 'litmus-launch-'));
    try {
      cpSync(join(ROOT, 'dist/cli.js'), join(tmp, 'cli.js'));
      // A bundle that is not ASCII (one built with --watch, which skips that step): a curly quote read as Latin-1 would be three characters.
      const marker = 'process.stdout.write(String("\u201c" === "\\u201c"));process.exit(0);';
      writeFileSync(join(tmp, 'cli-main.js'), bundle.replace('"use strict";', `"use strict";${marker}`), 'utf8');
      assert.match(readFileSync(join(tmp, 'cli-main.js'), 'utf8'), /[^\x00-\x7f]/);
      const r = spawnSync(process.execPath, [join(tmp, 'cli.js')], { encoding: 'utf8' });
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, 'true');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
