import assert from 'node:assert/strict';
import type { LintDiagnostic } from '../../src/core/lint/lint';
import { applyEdits, covered, json, lintRule } from '../helpers';

function applyFix(files: Record<string, string>, d: LintDiagnostic, file: string): string {
  const edit = d.fixes[0].edits[0];
  return applyEdits(files[file], edit.edits);
}

const good = {
  reset_counters: 'episode',
  prompt_includes_harness_scratch: false,
  refusal_canary_cache: 'none',
  scenario_order: 'shuffled',
  permutation_probe: true,
  cold_warm_check: true,
  max_permutation_delta: 0.01,
  max_warm_cold_delta: 0.005,
};

describe('harness-isolation', () => {
  it('stays silent on an isolated harness, and on sorted order with a permutation probe', async () => {
    assert.deepEqual(await lintRule({ 'litmus.harness.json': json(good) }, 'harness-isolation'), []);
    assert.deepEqual(await lintRule({ 'litmus.harness.json': json({ ...good, scenario_order: 'sorted' }) }, 'harness-isolation'), []);
  });

  it('flags each broken setting at its value, with a fix', async () => {
    const files = {
      'litmus.harness.json': json({ ...good, reset_counters: 'batch', prompt_includes_harness_scratch: true, refusal_canary_cache: 'worker', scenario_order: 'as_listed', permutation_probe: false, cold_warm_check: false }),
    };
    const ds = await lintRule(files, 'harness-isolation');
    assert.deepEqual(ds.map((d) => covered(files, d)), ['"batch"', 'true', '"worker"', 'false', 'false']);
    assert.ok(ds.every((d) => d.severity === 'error' && d.fixes.length === 1));
    assert.equal(JSON.parse(applyFix(files, ds[0], 'litmus.harness.json')).reset_counters, 'episode');
    assert.equal(JSON.parse(applyFix(files, ds[3], 'litmus.harness.json')).permutation_probe, true);
  });

  it('points at the opening brace for a missing check, and the fix adds it', async () => {
    const files = { 'litmus.harness.json': '// harness\n' + json({ reset_counters: 'episode', scenario_order: 'sorted' }) };
    const ds = await lintRule(files, 'harness-isolation');
    assert.equal(ds.length, 2);
    for (const d of ds) {
      assert.equal(covered(files, d), '{');
      assert.equal(d.range.start.line, 1);
    }
    const fixed = JSON.parse(applyFix(files, ds.find((d) => /cold\/warm/.test(d.message))!, 'litmus.harness.json').replace(/^\/\/.*\n/, ''));
    assert.equal(fixed.cold_warm_check, true);
  });

  it('warns about a tolerance above 0.01', async () => {
    const files = { 'litmus.harness.json': json({ ...good, max_permutation_delta: 0.05, max_warm_cold_delta: 0.01 }) };
    const ds = await lintRule(files, 'harness-isolation');
    assert.equal(ds.length, 1);
    assert.equal(ds[0].severity, 'warning');
    assert.equal(covered(files, ds[0]), '0.05');
  });

  it('tolerates wrong types silently', async () => {
    const files = { 'litmus.harness.json': json({ ...good, reset_counters: 3, permutation_probe: 'yes', scenario_order: ['sorted'], max_permutation_delta: '0.5' }) };
    assert.deepEqual(await lintRule(files, 'harness-isolation'), []);
  });
});

const run = (v: string, extra: Record<string, unknown> = {}) => ({
  suite_version: v,
  adversarial_score: 0.79,
  benign_score: 0.81,
  aggregate: 0.77,
  lambda: 0.1,
  permutation: { canonical_rate: 0.8, permuted_rate: 0.8 },
  cold_warm: { cold_rate: 0.8, warm_rate: 0.8 },
  ...extra,
});

describe('aggregate-contamination', () => {
  it('flags a benign score that fell while the aggregate rose, at the benign score, saying λ is not a fix', async () => {
    const files = { 'suite.scores.json': json({ suite: 's', runs: [run('1'), run('2', { aggregate: 0.78, benign_score: 0.7 })] }) };
    const ds = await lintRule(files, 'aggregate-contamination');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '0.7');
    assert.equal(ds[0].range.start.line, files['suite.scores.json'].split('\n').findIndex((l) => l.includes('"benign_score": 0.7')));
    assert.match(ds[0].message, /λ/);
    assert.match(ds[0].message, /aggregate rose \(0\.77 → 0\.78\)/);
    assert.equal(ds[0].related.length, 2);
  });

  it('flags an aggregate reported without a benign score', async () => {
    const r = run('1');
    delete (r as Record<string, unknown>).benign_score;
    const files = { 'suite.scores.json': json({ suite: 's', runs: [r] }) };
    const ds = await lintRule(files, 'aggregate-contamination');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '0.77');
    assert.match(ds[0].message, /λ/);
  });

  it('flags permutation and cold/warm deltas above the default tolerance of 0.01', async () => {
    const files = { 'suite.scores.json': json({ suite: 's', runs: [run('1', { permutation: { canonical_rate: 0.8, permuted_rate: 0.7 }, cold_warm: { cold_rate: 0.8, warm_rate: 0.83 } })] }) };
    const ds = await lintRule(files, 'aggregate-contamination');
    assert.deepEqual(ds.map((d) => covered(files, d)), ['0.7', '0.83']);
    assert.match(ds[0].message, /^permuted rate 0\.7 differs from canonical rate 0\.8 by more than 0\.01 \(default tolerance\): the score depends on case order; .*λ.*, isolate the episodes$/);
    assert.match(ds[1].message, /^warm rate 0\.83 differs from cold rate 0\.8 by more than 0\.01 \(default tolerance\): state leaks between episodes; .*λ.*, reset state per episode$/);
    const lines = files['suite.scores.json'].split('\n');
    assert.deepEqual(ds.map((d) => d.related.map((r) => [r.message, lines[r.range.start.line].trim()])), [[['canonical rate 0.8', '"canonical_rate": 0.8,']], [['cold rate 0.8', '"cold_rate": 0.8,']]]);
    assert.deepEqual(ds.map((d) => [d.data?.problem, d.data?.tolerance, Math.round(Number(d.data?.delta) * 100) / 100]), [['permutation-delta', 0.01, 0.1], ['cold-warm-delta', 0.01, 0.03]]);
  });

  it('takes the tolerance from the nearest litmus.harness.json', async () => {
    const scores = json({ suite: 's', runs: [run('1', { permutation: { canonical_rate: 0.8, permuted_rate: 0.77 } })] });
    assert.equal((await lintRule({ 'scores/a.scores.json': scores }, 'aggregate-contamination')).length, 1);
    const loose = { 'litmus.harness.json': json({ ...good, max_permutation_delta: 0.05 }), 'scores/a.scores.json': scores };
    assert.deepEqual(await lintRule(loose, 'aggregate-contamination'), []);
  });

  it('stays silent for steady runs, deltas at the tolerance, and a benign rise', async () => {
    const files = {
      'suite.scores.json': json({
        suite: 's',
        runs: [run('1'), run('2', { aggregate: 0.79, benign_score: 0.85, permutation: { canonical_rate: 0.8, permuted_rate: 0.81 }, cold_warm: { cold_rate: 0.81, warm_rate: 0.8 } }), run('3', { aggregate: 0.78, benign_score: 0.86 })],
      }),
    };
    assert.deepEqual(await lintRule(files, 'aggregate-contamination'), []);
  });

  it('tolerates wrong types silently', async () => {
    const files = { 'suite.scores.json': json({ suite: 's', runs: [run('1', { aggregate: 'high' }), 7, run('2', { permutation: [0.1, 0.9], cold_warm: { cold_rate: '1', warm_rate: 0 } })] }) };
    assert.deepEqual(await lintRule(files, 'aggregate-contamination'), []);
    assert.deepEqual(await lintRule({ 'x.scores.json': json({ runs: 'none' }) }, 'aggregate-contamination'), []);
  });
});
