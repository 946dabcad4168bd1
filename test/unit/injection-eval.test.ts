import assert from 'node:assert/strict';
import { countCandidates, pct, score } from '../../src/eval/score';

describe('injection eval scoring', () => {
  const labels = [
    { file: 'poisoned/1.tools.json', line: 10, field: 'default', encoding: 'plain', source: 'dvmcp' },
    { file: 'poisoned/2.tools.json', line: 20, field: 'enum', encoding: 'base64', source: 'bipia-train' },
    { file: 'poisoned/3.tools.json', line: 30, field: 'enum', encoding: 'plain', source: 'bipia-train' },
  ];
  const benign = [{ file: 'benign/a.tools.json', tools: 10, candidateStrings: 2000 }];

  it('counts a result within ±1 line of the label, and the rest of a poisoned file as off-target', () => {
    const s = score(
      labels,
      [
        { file: 'poisoned/1.tools.json', line: 11 },
        { file: 'poisoned/2.tools.json', line: 22 },
        { file: 'poisoned/3.tools.json', line: 29 },
        { file: 'poisoned/3.tools.json', line: 5 },
      ],
      benign,
    );
    assert.deepEqual(s.recall, { hit: 2, total: 3 });
    assert.deepEqual(s.byField.get('enum'), { hit: 1, total: 2 });
    assert.deepEqual(s.byEncoding.get('base64'), { hit: 0, total: 1 });
    assert.deepEqual(s.bySource.get('dvmcp'), { hit: 1, total: 1 });
    assert.deepEqual(s.missed.map((m) => m.file), ['poisoned/2.tools.json']);
    assert.equal(s.offTarget.length, 2);
    assert.equal(s.falsePositives.length, 0);
  });

  it('counts every benign result as a false positive and each flagged tool once', () => {
    const s = score(labels, [
      { file: 'benign/a.tools.json', line: 3, tool: 0 },
      { file: 'benign/a.tools.json', line: 9, tool: 0 },
      { file: 'benign/a.tools.json', line: 50, tool: 4 },
    ], benign);
    assert.equal(s.falsePositives.length, 3);
    assert.equal(s.flaggedTools, 2);
    assert.equal((1000 * s.falsePositives.length) / s.candidateStrings, 1.5);
    assert.equal(pct({ hit: 0, total: 0 }), 100);
  });

  it('counts candidate strings as the corpus README defines them', () => {
    const tool = {
      name: 't',
      description: 'd',
      inputSchema: { description: 'root', properties: { a: { description: 'x', enum: ['p', 'q'], default: { k: ['v', 1] } }, b: { examples: ['e'], const: 'c' } } },
    };
    assert.equal(countCandidates(tool), 8);
  });
});

describe('npm run eval on a folder that is not there (issue 23)', function () {
  this.timeout(60000);
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const { existsSync, mkdtempSync, rmSync } = require('node:fs') as typeof import('node:fs');
  const { join, resolve } = require('node:path') as typeof import('node:path');
  const { tmpdir } = require('node:os') as typeof import('node:os');
  const root = resolve(__dirname, '../../..');
  const evalJs = join(root, 'dist/eval.js');

  it('says so in one line and exits 2, for a corpus, an empty folder and the benchmarks, with no stack trace', function () {
    if (!existsSync(evalJs)) this.skip();
    const empty = mkdtempSync(join(tmpdir(), 'litmus-eval-'));
    try {
      for (const args of [['../no-such-shared/corpus'], [empty], ['--benchmarks', '../no-such-shared/benchmarks']]) {
        const run = spawnSync(process.execPath, [evalJs, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, INIT_CWD: root } });
        assert.equal(run.status, 2, args.join(' '));
        assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
        assert.doesNotMatch(run.stderr, /\n\s+at |Error: ENOENT/);
      }
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the benchmarks imported as suites (issue 21: done-when figures)', function () {
  this.timeout(180000);
  const { existsSync } = require('node:fs') as typeof import('node:fs');
  const { join, resolve } = require('node:path') as typeof import('node:path');
  const shared = process.env.LITMUS_BENCHMARKS ?? join(resolve(__dirname, '../../..'), '..', 'shared', 'benchmarks');

  it('reports InjecAgent attacks copied into benign cases, and nothing on clean data', async function () {
    if (!existsSync(shared)) {
      console.log('      skipped: ../shared/benchmarks not found');
      this.skip();
    }
    const { importedBenchmarks } = await import('../../src/eval/cases');
    const figures = new Map((await importedBenchmarks(shared)).map((f) => [f.benchmark, f]));
    const injec = figures.get('injecagent');
    assert.ok(injec, 'InjecAgent imported');
    for (const [group, target] of [['dh base', 80], ['ds base', 80], ['dh enhanced', 95], ['ds enhanced', 95]] as const) {
      const r = injec.attacked.get(group);
      assert.ok(r && r.total > 0 && pct(r) >= target, `${group}: ${r?.hit}/${r?.total}`);
    }
    for (const f of figures.values()) {
      assert.equal(f.sharedFindings, 0, `${f.benchmark}: findings on its clean environment and tool files`);
      for (const [group, r] of f.clean) assert.equal(r.hit, 0, `${f.benchmark} ${group}: clean cases with a finding`);
    }
  });
});
