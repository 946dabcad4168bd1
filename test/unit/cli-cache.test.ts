import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/run';
import { MAX_CACHE_CHARS, openCache } from '../../src/cli/cache';
import { lintIndex, loadWorkspace } from '../../src/core';
import { liveIo as sharedLiveIo } from '../cli/capture';
import { rng } from '../helpers';
import { benchSuites } from './bench-suites';

// `--cache` answering a plain run from a stored one before anything is parsed (docs/cli.md, `--cache`):
// the answer must be the lint's, byte for byte, and must never outlive any file-system answer it rests on.
const CWD = '/ws';
const ARMLESS = ['--rule', 'missing-arm:off'];
const CACHE = 'file:///ws/c.json';
const caseText = (id: string, extra = '') =>
  `{ "instance_id": "${id}", "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "${id}-sig"${extra} }\n`;
const tools = (name: string) => `{ "tools": [ { "name": "${name}", "description": "Send mail.", "inputSchema": { "type": "object" } } ] }`;

/** A suite with a finding, one suppressed in source, a file read outside the paths and one skipped. */
function suite(): Map<string, string> {
  return new Map([
    ['file:///ws/suite/a.litmus.json', caseText('a', ', "paired_with": "gone", "tools": ["../shared/mail.tools.json#send_email"]')],
    ['file:///ws/suite/b.litmus.json', caseText('b', ', "seed_id": "nobody", "x-litmus-disable": { "unresolved-reference": "a seed kept elsewhere" }')],
    ['file:///ws/suite/notes.json', '{ "about": "not a LITMUS file" }'],
    ['file:///ws/shared/mail.tools.json', tools('send_email')],
  ]);
}

/** The shared live CliIo (links answered by `realUri`), with a `run` that returns what one command printed. */
function liveIo(files: Map<string, string>, links = new Map<string, string>(), stdin?: string) {
  const live = sharedLiveIo(files, { cwd: CWD, links, stdin });
  const run = async (args: string[]) => {
    live.reset();
    const status = await runCli([...ARMLESS, ...args], live.io);
    return { status, out: live.out(), err: live.err() };
  };
  return { io: live.io, run };
}

/** Adds a note to every stored run: a run that prints it was answered from the store. */
function plant(files: Map<string, string>): void {
  const stored = JSON.parse(files.get(CACHE)!);
  for (const e of stored.entries) e.run?.notices.push({ level: 'note', text: 'PLANTED' });
  files.set(CACHE, JSON.stringify(stored));
}

const cached = ['--cache', '--cache-location', 'c.json'];

describe('--cache: a plain run answered before anything is parsed', () => {
  for (const format of ['stylish', 'json', 'sarif', 'gitlab', 'junit', 'github']) {
    it(`reports in ${format} exactly what the lint reports: findings, suppressed ones, notices, exit status`, async () => {
      const files = suite();
      const { run } = liveIo(files);
      const args = ['--format', format, 'suite'];
      const fresh = await run(args);
      assert.equal(fresh.status, 1);
      assert.match(fresh.err, /also read shared\/mail\.tools\.json/);
      const miss = await run([...cached, ...args]);
      const hit = await run([...cached, ...args]);
      assert.deepEqual(miss, fresh);
      assert.deepEqual(hit, fresh);
      plant(files);
      assert.match((await run([...cached, ...args])).err, /PLANTED/, 'the stored run answered');
    });
  }

  it('gives SARIF and GitLab their fingerprints only from a run that kept them', async () => {
    const files = suite();
    const { run } = liveIo(files);
    const sarif = ['--format', 'sarif', 'suite'];
    const fresh = await run(sarif);
    await run([...cached, 'suite']);
    plant(files);
    // A stylish run kept no anchors: the SARIF run lints (the same key answers its findings) and keeps them.
    const first = await run([...cached, ...sarif]);
    assert.doesNotMatch(first.err, /PLANTED/);
    assert.deepEqual(first, fresh);
    assert.deepEqual(await run([...cached, ...sarif]), fresh, 'the same partialFingerprints from the stored run');
    plant(files);
    assert.match((await run([...cached, ...sarif])).err, /PLANTED/);
    // A stylish run after it keeps the anchors it did not need.
    await run([...cached, 'suite']);
    assert.ok(JSON.parse(files.get(CACHE)!).entries[0].run.anchors, 'anchors kept');
  });

  const changes: [string, (files: Map<string, string>, links: Map<string, string>) => void][] = [
    ['a referenced tool file outside the paths is edited', (f) => f.set('file:///ws/shared/mail.tools.json', tools('post_letter'))],
    ['a suite file appears', (f) => f.set('file:///ws/suite/c.litmus.json', caseText('c'))],
    ['a config appears up the tree', (f) => f.set('file:///ws/litmus.config.json', '{ "rules": { "unresolved-reference": "off" } }')],
    ['a link is pointed at another file of the same text', (f, l) => {
      f.set('file:///ws/elsewhere/mail.tools.json', tools('send_email'));
      l.set('file:///ws/shared/mail.tools.json', 'file:///ws/elsewhere/mail.tools.json');
    }],
  ];
  for (const [what, change] of changes) {
    it(`is not taken when ${what}`, async () => {
      const files = suite();
      const links = new Map<string, string>();
      const { run } = liveIo(files, links);
      await run([...cached, 'suite']);
      plant(files);
      change(files, links);
      const after = await run([...cached, 'suite']);
      assert.doesNotMatch(after.err, /PLANTED/);
      assert.deepEqual(after, await run(['suite']), 'the lint\'s own answer');
    });
  }

  it('is not taken for another command line', async () => {
    const files = suite();
    const { run } = liveIo(files);
    for (const args of [
      ['--ignore-pattern', 'nothing-matches', 'suite'],
      ['--rule', 'unresolved-reference:warning', 'suite'],
      ['--no-inline-config', 'suite'],
      ['suite/a.litmus.json'],
    ]) {
      await run([...cached, 'suite']);
      plant(files);
      assert.doesNotMatch((await run([...cached, ...args])).err, /PLANTED/, args.join(' '));
    }
    // An entry keeps the run of the last command line it answered (the same files give the same entry).
    await run([...cached, 'suite']);
    plant(files);
    assert.match((await run([...cached, 'suite'])).err, /PLANTED/);
  });

  it('never answers a run that fixes, uses a baseline or reads a buffer', async () => {
    const files = suite();
    const { run } = liveIo(files, new Map(), caseText('a'));
    await run(['--write-baseline', 'b.json', 'suite']);
    for (const args of [
      ['--fix-dry-run', 'suite'],
      ['--fix', 'suite'],
      ['--baseline', 'b.json', 'suite'],
      ['--write-baseline', 'b.json', 'suite'],
      ['--stdin', '--stdin-filename', 'suite/a.litmus.json'],
    ]) {
      await run([...cached, ...args]);
      plant(files);
      assert.doesNotMatch((await run([...cached, ...args])).err, /PLANTED/, args.join(' '));
    }
  });

  it('never answers a run whose config names plugins: their notes are printed as they load', async () => {
    const files = suite();
    files.set('file:///ws/suite/litmus.config.json', '{ "plugins": ["./house-rules.mjs"] }');
    const { run } = liveIo(files);
    const args = [...cached, '--no-plugins', 'suite'];
    await run(args);
    plant(files);
    const again = await run(args);
    assert.doesNotMatch(again.err, /PLANTED/);
    assert.match(again.err, /plugins named in suite\/litmus\.config\.json not loaded \(--no-plugins\): \.\/house-rules\.mjs/);
  });

  it('lints the fixed text of a --fix pass afresh: a fix run with the cache says and writes what one without it does', async () => {
    const broken = caseText('a').replace('"arm": "benign"', '"arm": "Benign"');
    const runFix = async (args: string[]) => {
      const files = new Map([['file:///ws/suite/a.litmus.json', broken]]);
      const { run } = liveIo(files);
      const first = await run([...args, '--fix', 'suite']);
      return { first, text: files.get('file:///ws/suite/a.litmus.json') };
    };
    const plain = await runFix([]);
    assert.notEqual(plain.text, broken, 'the fix was applied');
    assert.deepEqual(await runFix(cached), plain);
  });

  it('drops a stored run that is not what this version writes, and answers with the lint', async () => {
    const files = suite();
    const { run } = liveIo(files);
    const fresh = await run(['suite']);
    await run([...cached, 'suite']);
    plant(files);
    const stored = JSON.parse(files.get(CACHE)!);
    // Read as it stands, this run would answer (no question to ask) and then fail on its notices.
    stored.entries[0].run.reads = [];
    stored.entries[0].run.notices = 'torn';
    files.set(CACHE, JSON.stringify(stored));
    const after = await run([...cached, 'suite']);
    assert.deepEqual(after, fresh);
    assert.ok(Array.isArray(JSON.parse(files.get(CACHE)!).entries[0].run.notices), 'written anew');
    // A stored run whose findings are not findings: the entry is dropped, not reported (or crashed on).
    for (const broken of [null, 'x', { uri: 'file:///ws/suite/a.litmus.json' }, { ...JSON.parse(files.get(CACHE)!).entries[0].diagnostics[0], range: null }, { ...JSON.parse(files.get(CACHE)!).entries[0].diagnostics[0], range: { start: 0, end: { line: 0, character: 0 } } }]) {
      const edited = JSON.parse(files.get(CACHE)!);
      edited.entries[0].diagnostics[0] = broken;
      files.set(CACHE, JSON.stringify(edited));
      assert.deepEqual(await run([...cached, 'suite']), fresh, JSON.stringify(broken));
    }
  });
});

describe('--cache on disk: a stored run and symbolic links (dist/cli.js)', function () {
  this.timeout(60000);
  const root = join(__dirname, '../../..');
  it('answers as the lint does, and anew once a link is pointed at another file of the same text', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'litmus-cache-run-'));
    try {
      for (const dir of ['suite', 'shared', 'store1', 'store2']) mkdirSync(join(tmp, dir));
      writeFileSync(join(tmp, 'suite/a.litmus.json'), caseText('a', ', "paired_with": "gone", "tools": ["../shared/mail.tools.json#send_email"]'));
      for (const store of ['store1', 'store2']) writeFileSync(join(tmp, store, 'mail.tools.json'), tools('send_email'));
      symlinkSync('../store1/mail.tools.json', join(tmp, 'shared/mail.tools.json'));
      const run = (...extra: string[]) => {
        const r = spawnSync(process.execPath, [join(root, 'dist/cli.js'), ...ARMLESS, ...extra, '--format', 'sarif', 'suite'], { cwd: tmp, encoding: 'utf8' });
        return { status: r.status, out: r.stdout, err: r.stderr };
      };
      const fresh = run();
      assert.equal(fresh.status, 1);
      assert.deepEqual(run('--cache'), fresh);
      assert.deepEqual(run('--cache'), fresh, 'the stored run, as the lint said it');
      const file = join(tmp, 'node_modules/.cache/litmus-lint/lint-cache.json');
      const plantOnDisk = () => {
        const stored = JSON.parse(readFileSync(file, 'utf8'));
        for (const e of stored.entries) e.run?.notices.push({ level: 'note', text: 'PLANTED' });
        writeFileSync(file, JSON.stringify(stored));
      };
      plantOnDisk();
      assert.match(run('--cache').err, /PLANTED/);
      rmSync(join(tmp, 'shared/mail.tools.json'));
      symlinkSync('../store2/mail.tools.json', join(tmp, 'shared/mail.tools.json'));
      plantOnDisk();
      assert.deepEqual(run('--cache'), fresh, 'linted again: the link answers otherwise');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('--cache: the file stays small enough to read on every run', () => {
  it('keeps older results only while the file stays within its bound, and the newest whatever its size', async () => {
    const files = suite();
    const { io } = liveIo(files);
    const path = '/ws/c.json';
    const entries = () => JSON.parse(files.get(CACHE)!).entries as { key: string }[];
    const lintOnce = async (maxChars: number) => {
      const cache = await openCache(io, path, {}, () => undefined, true, maxChars);
      const { index } = await loadWorkspace(io.fs, ['file:///ws/suite']);
      cache.lint(index, () => lintIndex(index).diagnostics);
      await cache.save();
    };
    await lintOnce(MAX_CACHE_CHARS);
    files.set('file:///ws/suite/c.litmus.json', caseText('c'));
    await lintOnce(MAX_CACHE_CHARS);
    assert.equal(entries().length, 2, 'two workspaces, both kept');
    const newest = entries()[0].key;
    files.set('file:///ws/suite/d.litmus.json', caseText('d'));
    await lintOnce(10);
    assert.equal(entries().length, 1, 'past the bound: the newest alone');
    assert.notEqual(entries()[0].key, newest, 'the one just linted');
  });
});

describe('--cache under random edits', () => {
  it('answers as the lint does after each of a run of edits to the bench\'s rich suites, and from the store when nothing changed', async function () {
    this.timeout(180_000);
    // Beside the store, not around it: a store inside the folder linted is a file the walk reads.
    const base = new Map([...benchSuites('generate-rich.mjs', 150, '30-60')].map(([p, t]) => [`file:///ws/rich/${p}`, t]));
    const files = new Map(base);
    const { run } = liveIo(files);
    const r = rng(7);
    const linted = () => [...files.keys()].filter((u) => u !== CACHE);
    const args = ['--format', 'json', 'rich'];
    let answered = 0;
    for (let step = 0; step < 60; step++) {
      const uri = r.pick(linted());
      const text = files.get(uri)!;
      const roll = r.int(7);
      if (roll === 0) {
        const fields = [...text.matchAll(/"(arm|paired_with|name|instance_id)": ?"([^"]*)"/g)];
        if (fields.length) {
          const f = r.pick(fields);
          files.set(uri, text.slice(0, f.index) + f[0].replace(f[2], f[1] === 'arm' ? (f[2] === 'benign' ? 'adversarial' : 'benign') : `${f[2]}z`) + text.slice(f.index! + f[0].length));
        }
      } else if (roll === 1) {
        files.set(uri, text); // written again as it was: the store still answers
      } else if (roll === 2 && uri.includes('.litmus.')) {
        files.set(uri.replace('.litmus.', '-copy.litmus.'), text);
      } else if (roll === 3) {
        for (const u of linted()) if (u.includes('-copy.')) files.delete(u);
      } else if (roll === 4) {
        files.set('file:///ws/rich/litmus.config.json', JSON.stringify({ rules: { [r.pick(['injection-payload', 'duplicate-id', 'unresolved-reference'])]: r.pick(['off', 'warning', 'error']) } }));
      } else if (roll === 5) {
        const at = r.int(text.length);
        files.set(uri, text.slice(0, at) + text.slice(at + 1));
      } else {
        files.set(uri, base.get(uri) ?? text);
      }
      const store = files.get(CACHE);
      const fromCache = await run([...cached, ...args]);
      // A run the store answered (by its read log, or by the key of what it loaded) leaves the store
      // as it was; one that linted anew writes it.
      if (store !== undefined && files.get(CACHE) === store) answered++;
      assert.deepEqual(fromCache, await run(args), `step ${step}`);
    }
    assert.ok(answered >= 10, `the store answered ${answered} of 60 runs`);
  });
});
