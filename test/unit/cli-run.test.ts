import assert from 'node:assert/strict';
import { memoryFileSystem, type FileSystem } from '../../src/core';
import { parseCliArgs, UsageError } from '../../src/cli/args';
import { planFixes } from '../../src/cli/fix';
import { loadWorkspace, type LintDiagnostic } from '../../src/core';
import { runCli } from '../../src/cli/run';
import { captureIo } from '../cli/capture';

// The CLI in-process, over an in-memory file system: what the golden scenarios cannot set up.
const CWD = '/ws';
const caseText = (id: string, extra = '') =>
  `{ "instance_id": "${id}", "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "${id}-sig"${extra} }\n`;

describe('cli run', () => {
  describe('arguments', () => {
    it('parses every option', () => {
      const o = parseCliArgs(['--format', 'sarif', '-o', 'out.sarif', '--fail-severity', 'warning', '--config', 'c.json', '--quiet', '--fix', 'a', 'b']);
      assert.deepEqual(o, {
        paths: ['a', 'b'],
        formats: [{ format: 'sarif', output: 'out.sarif' }],
        failSeverity: 'warning',
        config: 'c.json',
        quiet: true,
        hints: false,
        inlineConfig: true,
        fix: true,
        fixDryRun: false,
        stdin: false,
        stdinFilename: undefined,
        ignorePatterns: [],
        ignore: true,
        plugins: true,
        maxWarnings: undefined,
        printConfig: undefined,
        rules: [],
        color: undefined,
        cache: false,
        cacheLocation: undefined,
        baseline: undefined,
        writeBaseline: undefined,
        help: false,
        version: false,
        basePath: undefined,
        category: undefined,
      });
    });

    it('rejects unknown options, bad values and missing values with one line', () => {
      for (const argv of [['--nope'], ['--format', 'xml'], ['--fail-severity', 'hint'], ['-o'], ['--quiet=yes'], ['--output=']]) {
        assert.throws(() => parseCliArgs(argv), (e: unknown) => e instanceof UsageError && !e.message.includes('\n'), argv.join(' '));
      }
    });
  });

  it('treats a path it cannot stat as missing: one line, exit 2', async () => {
    const broken: FileSystem = {
      readFile: async () => '',
      readDirectory: async () => [],
      stat: async () => {
        throw new Error('disk on fire\nsecond line');
      },
    };
    const cap = captureIo(broken, CWD);
    // A stat that throws reads as "not there": a usage error, not a crash.
    assert.equal(await runCli(['suite'], cap.io), 2);
    assert.match(cap.stderr(), /^litmus-lint: no such file or folder: suite/);
  });

  it('exits 2 on an internal failure and prints one line', async () => {
    const fs = memoryFileSystem({ 'file:///ws/a.litmus.json': caseText('a') });
    const cap = captureIo({ ...fs, readDirectory: async () => { throw new Error('boom\nstack'); }, readFile: async () => { throw new TypeError('bad read\nmore'); } }, CWD);
    cap.io.stdout = () => {
      throw new Error('stdout closed');
    };
    assert.equal(await runCli(['a.litmus.json'], cap.io), 2);
    // Notes about what was read come first; the failure itself is one line, the last.
    const lines = cap.stderr().split('\n').filter(Boolean);
    assert.equal(lines[lines.length - 1], 'litmus-lint: internal error: stdout closed');
    assert.equal(lines.filter((l) => /internal error/.test(l)).length, 1);
  });

  it('notes an unreadable folder on stderr and still lints the rest', async () => {
    const fs = memoryFileSystem({ 'file:///ws/ok/a.litmus.json': caseText('a', ', "paired_with": "zz"'), 'file:///ws/locked/b.litmus.json': caseText('b') });
    const cap = captureIo(
      {
        ...fs,
        async readDirectory(uri) {
          if (uri.endsWith('/locked')) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
          return fs.readDirectory(uri);
        },
      },
      CWD,
    );
    assert.equal(await runCli(['.'], cap.io), 1);
    assert.match(cap.stderr(), /cannot read locked: permission denied/);
    assert.match(cap.stdout(), /paired_with `zz` names no case/);
  });

  it('reports a reference to a folder the same with the folder linted or the file alone, and no unreadable file', async () => {
    const fs = memoryFileSystem({
      'file:///ws/litmus.config.json': '{}\n',
      'file:///ws/c.litmus.json': caseText('c', ', "tools": ["tools#send_email"], "environment": "tools"'),
      'file:///ws/tools/t.tools.json': '{ "tools": [] }\n',
    });
    const views: string[][] = [];
    for (const path of ['.', 'c.litmus.json']) {
      const cap = captureIo(fs, CWD);
      await runCli(['--format', 'json', '--rule', 'missing-arm:off', path], cap.io);
      const report = JSON.parse(cap.stdout()) as { files: { path: string; diagnostics: { ruleId: string; line: number; column: number }[] }[] };
      views.push(report.files.flatMap((f) => f.diagnostics.map((d) => `${f.path} ${d.line}:${d.column} ${d.ruleId}`)));
      assert.doesNotMatch(cap.stderr(), /cannot read/, path);
    }
    assert.deepEqual(views[0], views[1]);
    assert.deepEqual(views[0].map((v) => v.split(' ').pop()), ['unresolved-reference', 'unresolved-reference']);
  });

  it('writes -o through the io seam and prints nothing on stdout', async () => {
    // A one-arm suite is a missing-arm error: off here, so the exit status is the output's alone.
    const cap = captureIo(memoryFileSystem({ 'file:///ws/litmus.config.json': '{ "rules": { "missing-arm": "off" } }', 'file:///ws/a.litmus.json': caseText('a') }), CWD);
    assert.equal(await runCli(['--format', 'github', '-o', 'report.txt', 'a.litmus.json'], cap.io), 0);
    assert.equal(cap.stdout(), '');
    assert.deepEqual([...cap.written.keys()], ['/ws/report.txt']);
  });

  it('--fix writes the files it fixed through the io seam and says what it changed', async () => {
    const files = {
      'file:///ws/suite/a.litmus.json': '{ "instance_id": "a", "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "s", "tools": ["../shared/m.tools.json#send_mial"] }\n',
      'file:///ws/suite/b.litmus.json': '{ "instance_id": "b", "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "s2", "tools": ["m.tools.json#send_mial"] }\n',
      'file:///ws/suite/m.tools.json': '{ "tools": [ { "name": "send_mail", "description": "d", "inputSchema": { "type": "object" } } ] }\n',
      'file:///ws/shared/m.tools.json': '{ "tools": [ { "name": "send_mail", "description": "d", "inputSchema": { "type": "object" } } ] }\n',
    };
    const cap = captureIo(memoryFileSystem(files), CWD);
    await runCli(['--fix', 'suite'], cap.io);
    // The in-memory file system does not change, so the fix is written once and stays pending.
    assert.deepEqual([...cap.written.keys()].sort(), ['/ws/suite/a.litmus.json', '/ws/suite/b.litmus.json']);
    assert.match(cap.written.get('/ws/suite/b.litmus.json')!, /"m\.tools\.json#send_mail"/);
    assert.match(cap.stdout(), /fixed suite\/b\.litmus\.json:1:\d+ {2}Change to `m\.tools\.json#send_mail`/);
  });

  describe('fix planning', () => {
    const files = {
      // The case references the shared tool file, so it is read (outside the given path).
      'file:///ws/suite/a.litmus.json': caseText('a', ', "tools": ["../shared/m.tools.json#send"]'),
      'file:///ws/shared/m.tools.json': '{ "tools": [] }\n',
    };
    const fixDiag = (uri: string, offset: number, length: number, content: string, title: string, version?: number): LintDiagnostic => ({
      uri: 'file:///ws/suite/a.litmus.json',
      range: { start: { line: 0, character: offset }, end: { line: 0, character: offset + length } },
      offset,
      length,
      severity: 'error',
      code: 'unresolved-reference',
      message: title,
      docsUrl: '',
      related: [],
      fixes: [{ title, unambiguous: true, edits: [{ uri, version, edits: [{ offset, length, newText: content, range: { start: { line: 0, character: offset }, end: { line: 0, character: offset + length } } }] }] }],
    });
    const writable = (uri: string) => uri.startsWith('file:///ws/suite/');

    it('applies non-overlapping fixes, defers overlapping ones, and refuses files outside the given paths', async () => {
      const { index } = await loadWorkspace(memoryFileSystem(files), ['file:///ws/suite']);
      const a = 'file:///ws/suite/a.litmus.json';
      const plan = planFixes(
        index,
        [
          fixDiag(a, 2, 1, 'X', 'first'),
          fixDiag(a, 2, 3, 'Y', 'overlaps first'),
          fixDiag(a, 10, 1, 'Z', 'second'),
          fixDiag('file:///ws/shared/m.tools.json', 2, 1, 'W', 'outside'),
          fixDiag(a, 20, 1, 'V', 'stale version', 7),
        ],
        writable,
        new Set(),
      );
      assert.deepEqual(plan.applied.map((f) => f.title), ['first', 'second']);
      assert.deepEqual(plan.outside.map((f) => f.title), ['outside']);
      const text = plan.texts.get(a)!;
      assert.equal(text[2], 'X');
      assert.equal(text[10], 'Z');
      assert.ok(!plan.texts.has('file:///ws/shared/m.tools.json'));
    });

    it('never applies the same fix twice across passes, nor a fix among several', async () => {
      const { index } = await loadWorkspace(memoryFileSystem(files), ['file:///ws/suite']);
      const a = 'file:///ws/suite/a.litmus.json';
      const done = new Set<string>();
      const d = fixDiag(a, 2, 1, 'X', 'once');
      assert.equal(planFixes(index, [d], writable, done).applied.length, 1);
      assert.equal(planFixes(index, [d], writable, done).applied.length, 0);
      const two = { ...fixDiag(a, 4, 1, 'Q', 'one of two'), fixes: [...d.fixes, ...d.fixes] };
      const ambiguous = { ...fixDiag(a, 6, 1, 'Q', 'ambiguous'), fixes: d.fixes.map((f) => ({ ...f, unambiguous: false })) };
      assert.equal(planFixes(index, [two, ambiguous], writable, new Set()).applied.length, 0);
    });
  });

  it('--quiet hides warnings from the report but not from --fail-severity', async () => {
    const fs = memoryFileSystem({
      'file:///ws/litmus.config.json': '{ "rules": { "duplicate-id": "warning", "missing-arm": "off" } }',
      'file:///ws/a.litmus.jsonl': caseText('x') + caseText('x').replace('x-sig', 'y-sig'),
    });
    const quiet = captureIo(fs, CWD);
    assert.equal(await runCli(['--quiet', '--fail-severity', 'warning', 'a.litmus.jsonl'], quiet.io), 1);
    assert.doesNotMatch(quiet.stdout(), /duplicate-id/);
    assert.match(quiet.stdout(), /2 below error severity hidden by --quiet/);
    const plain = captureIo(fs, CWD);
    assert.equal(await runCli(['a.litmus.jsonl'], plain.io), 0);
    assert.match(plain.stdout(), /duplicate-id/);
  });

  it('colours stylish output on a terminal unless NO_COLOR is set', async () => {
    const fs = memoryFileSystem({ 'file:///ws/a.litmus.json': caseText('a', ', "seed_id": "nobody"') });
    const tty = captureIo(fs, CWD, { isTTY: true });
    await runCli(['a.litmus.json'], tty.io);
    assert.match(tty.stdout(), /\u001b\[31merror/);
    const noColor = captureIo(fs, CWD, { isTTY: true, env: { NO_COLOR: '1' } });
    await runCli(['a.litmus.json'], noColor.io);
    assert.doesNotMatch(noColor.stdout(), /\u001b\[/);
    const toFile = captureIo(fs, CWD, { isTTY: true });
    await runCli(['-o', 'r.txt', 'a.litmus.json'], toFile.io);
    assert.doesNotMatch(toFile.written.get('/ws/r.txt')!, /\u001b\[/, 'a report file never gets colour');
  });

  it('dispatches `report` to the report command', async () => {
    const cap = captureIo(memoryFileSystem({}), CWD);
    assert.equal(await runCli(['report', '--help'], cap.io), 0);
    assert.match(cap.stdout(), /litmus-lint report/);
    assert.doesNotMatch(cap.stdout(), /Rules \(id, default severity/, 'the report prints its own help, not the linter\'s');
    assert.doesNotMatch(cap.stderr(), /no such file or folder: report/, 'report is a subcommand, not a path');
  });
});

describe('cli usage errors are safe to print', () => {
  it('escapes control and bidi characters from the command line', async () => {
    const cap = captureIo(memoryFileSystem({}), CWD);
    assert.equal(await runCli(['--\u202eevil\u001b[2J'], cap.io), 2);
    assert.doesNotMatch(cap.stderr(), /[\u202e\u001b]/);
    assert.match(cap.stderr(), /\\u\{202E\}evil\\u\{1B\}\[2J/);
    const missing = captureIo(memoryFileSystem({}), CWD);
    assert.equal(await runCli(['no\u200bpe'], missing.io), 2);
    assert.equal(missing.stderr(), 'litmus-lint: no such file or folder: no\\u{200B}pe (see litmus-lint --help)\n');
  });
});
