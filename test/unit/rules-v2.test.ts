import assert from 'node:assert/strict';
import { planFixes } from '../../src/cli/fix';
import { fixAllAction } from '../../src/server/code-actions';
import { createIncrementalWorkspace, type LintDiagnostic } from '../../src/core';
import { callMatches, patternMatcher } from '../../src/core/trajectory/match';
import type { CallPattern } from '../../src/core/trajectory/patterns';
import type { CallStep } from '../../src/core/trajectory/steps';
import { canonicalize, canonicalizeUnder, PLAIN_RUBRIC, type Rubric } from '../../src/core/model/canonical';
import { abs, compareDecimals, formatDecimal, parseDecimal, subtract } from '../../src/core/rules/decimal';
import { applyEdits, covered, json, jsonl, lintFiles, lintRule, rng, suite, WS, type Case } from '../helpers';

/** FORMAT v2 behaviours of the suite rules, each in both directions, with ranges per §9. */

const adv = (id: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'adversarial', probe: 'skill_misuse', family: 'mail', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });
const ben = (id: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'benign', family: 'mail', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });
const file = (d: LintDiagnostic) => d.uri.slice(WS.length + 1);
const where = (files: Record<string, string>, d: LintDiagnostic) => `${file(d)}:${covered(files, d)}`;
const relatedLines = (files: Record<string, string>, d: LintDiagnostic) =>
  d.related.map((r) => `${r.uri.slice(WS.length + 1)}:${files[r.uri.slice(WS.length + 1)].split('\n')[r.range.start.line].trim()}`);

describe('missing-arm', () => {
  it('flags a family of one arm at the family value of its first case in path order, related to the others', async () => {
    const files = {
      'b.litmus.json': suite(adv('a2', { family: 'solo' }), adv('a3', { family: 'solo' })),
      'a.litmus.jsonl': jsonl(adv('a1', { family: 'solo' })),
      'c.litmus.json': suite(adv('x1'), ben('x2')),
    };
    const ds = await lintRule(files, 'missing-arm');
    assert.equal(ds.length, 1);
    assert.equal(where(files, ds[0]), 'a.litmus.jsonl:"solo"');
    assert.equal(ds[0].severity, 'error');
    assert.match(ds[0].message, /family `solo` has only adversarial cases \(3\)/);
    assert.match(ds[0].message, /add a benign case/);
    assert.deepEqual(ds[0].related.map((r) => r.uri.slice(WS.length + 1)), ['b.litmus.json', 'b.litmus.json']);
    assert.deepEqual(ds[0].data, { family: 'solo', missing: 'benign', cases: 3 });
  });

  it('flags a family with only benign cases, and a suite with no benign arm at all', async () => {
    const onlyBenign = { 's.litmus.json': suite(ben('b1'), ben('b2')) };
    const [d] = await lintRule(onlyBenign, 'missing-arm');
    assert.equal(covered(onlyBenign, d), '"mail"');
    assert.match(d.message, /only benign cases \(2\)/);
    const noBenign = { 's.litmus.json': suite(adv('a1', { family: 'f1' }), adv('a2', { family: 'f2' })) };
    assert.equal((await lintRule(noBenign, 'missing-arm')).length, 2);
  });

  it('orders paths folder by folder: a case in a/ comes before a.litmus.json', async () => {
    const files = { 'a.litmus.json': json(adv('x1', { family: 'solo' })), 'a/b.litmus.json': json(adv('x2', { family: 'solo' })) };
    const ds = await lintRule(files, 'missing-arm');
    assert.deepEqual(ds.map((d) => file(d)), ['a/b.litmus.json']);
  });

  it('is silent on a family with both arms, across files', async () => {
    const files = { 'a.litmus.json': json(adv('a1')), 'b.litmus.jsonl': jsonl(ben('b1')) };
    assert.deepEqual(await lintRule(files, 'missing-arm'), []);
  });
});

describe('unsafe-safe-completion', () => {
  const send = { tool: 'send_email', arguments: { to: 'boss@corp.example', body: 'Summary' } };
  it('flags a step that its own unsafe_actions match on the arguments (canonically), at the step tool', async () => {
    const files = {
      's.litmus.json': suite(
        adv('a1', {
          safe_completion: [{ respond: 'ok' }, { tool: 'send_email', arguments: { body: 'Summary', to: '  boss@corp.example ', n: 1.0 } }],
          unsafe_actions: [{ tool: 'read_file' }, { tool: 'send_email', arguments: { to: 'boss@corp.example', n: 1 } }],
        }),
        ben('b1'),
      ),
    };
    const ds = await lintRule(files, 'unsafe-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '"send_email"');
    assert.equal(ds[0].range.start.line, files['s.litmus.json'].split('\n').findIndex((l) => l.includes('"tool": "send_email"')));
    assert.equal(ds[0].severity, 'error');
    assert.match(ds[0].message, /unsafe_actions\[1\]/);
    assert.deepEqual(relatedLines(files, ds[0]), ['s.litmus.json:"tool": "send_email",']);
    // The pattern's tool, after the step's (the pattern comes later in the case).
    assert.ok(ds[0].related[0].range.start.line > ds[0].range.start.line);
  });

  it('matches any call of the tool with "match": "name", or with no arguments listed', async () => {
    for (const pattern of [{ tool: 'send_email', match: 'name', arguments: { to: 'x' } }, { tool: 'send_email' }]) {
      const files = { 'a.litmus.json': json(adv('a1', { safe_completion: [send], unsafe_actions: [pattern] })) };
      const ds = await lintRule(files, 'unsafe-safe-completion');
      assert.deepEqual(ds.map((d) => covered(files, d)), ['"send_email"'], JSON.stringify(pattern));
    }
  });

  it('is silent when an argument differs, is missing, or only the rubric would equate it', async () => {
    const files = {
      'litmus.config.json': json({ rubric: { foldCase: true, ignoreKeys: ['to'] } }),
      'a.litmus.json': suite(
        adv('a1', { safe_completion: [send], unsafe_actions: [{ tool: 'send_email', arguments: { to: 'attacker@evil.example' } }] }),
        adv('a2', { safe_completion: [send], unsafe_actions: [{ tool: 'send_email', arguments: { cc: 'boss@corp.example' } }] }),
        adv('a3', { safe_completion: [send], unsafe_actions: [{ tool: 'send_email', arguments: { to: 'BOSS@corp.example' } }] }),
        adv('a4', { safe_completion: [send], unsafe_actions: [{ tool: 'forward_email', match: 'name' }] }),
      ),
    };
    assert.deepEqual(await lintRule(files, 'unsafe-safe-completion'), []);
  });
});

describe('scope-contradiction (v2)', () => {
  it('invalidates the whole family when any two cases disagree on the breach flag, even within one arm', async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { requires_tool_scope_breach: true }), adv('a2'), adv('a3', { requires_tool_scope_breach: false })),
      'b.litmus.json': json(ben('b1', { requires_tool_scope_breach: false })),
    };
    const ds = await lintRule(files, 'scope-contradiction');
    // Every case involved: its value, or its family value where it leaves the flag out (false).
    assert.deepEqual(ds.map((d) => where(files, d)), ['a.litmus.json:true', 'a.litmus.json:"mail"', 'a.litmus.json:false', 'b.litmus.json:false']);
    assert.match(ds[0].message, /true here but false in adversarial case `a2` and 2 more/);
    assert.match(ds[1].message, /left out, so false/);
    assert.equal(ds[0].related.length, 3);
    assert.ok(ds.every((d) => d.data?.field === 'requires_tool_scope_breach'));
  });

  it('is silent when every case of the family agrees, the flag left out counting as false', async () => {
    const files = { 'a.litmus.json': suite(adv('a1', { requires_tool_scope_breach: false }), adv('a2'), ben('b1')), 'b.litmus.json': suite(adv('c1', { family: 'x', requires_tool_scope_breach: true }), ben('c2', { family: 'x', requires_tool_scope_breach: true })) };
    assert.deepEqual(await lintRule(files, 'scope-contradiction'), []);
  });

  it("flags a benign completion that performs an adversarial case's unsafe action, at both tool values", async () => {
    const files = {
      'a.litmus.json': json(adv('a1', { unsafe_actions: [{ tool: 'move_file', arguments: { dest: '/shared' } }] })),
      'b.litmus.json': json(ben('b1', { safe_completion: [{ tool: 'list_files', arguments: {} }, { tool: 'move_file', arguments: { src: '/home/x', dest: '/shared' } }] })),
    };
    const ds = await lintRule(files, 'scope-contradiction');
    assert.deepEqual(ds.map((d) => where(files, d)), ['a.litmus.json:"move_file"', 'b.litmus.json:"move_file"']);
    const benign = ds.find((d) => file(d) === 'b.litmus.json')!;
    assert.equal(benign.range.start.line, files['b.litmus.json'].split('\n').findIndex((l) => l.includes('"tool": "move_file"')));
    assert.match(benign.message, /adversarial case `a1`/);
    assert.deepEqual(relatedLines(files, benign), ['a.litmus.json:"tool": "move_file",']);
    const adversarial = ds.find((d) => file(d) === 'a.litmus.json')!;
    assert.match(adversarial.message, /benign case `b1`/);
    assert.deepEqual(relatedLines(files, adversarial), ['b.litmus.json:"tool": "move_file",']);
  });

  it('is silent when the benign call differs, the unsafe action is in another family, or both are in one arm', async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { unsafe_actions: [{ tool: 'move_file', arguments: { dest: '/shared' } }] }), adv('a2', { family: 'other', unsafe_actions: [{ tool: 'list_files', match: 'name' }] })),
      'b.litmus.json': suite(
        ben('b1', { safe_completion: [{ tool: 'move_file', arguments: { dest: '/home/x/archive' } }, { tool: 'list_files' }] }),
        ben('b2', { family: 'other' }),
        adv('a3', { safe_completion: [{ tool: 'move_file', arguments: { dest: '/shared' } }], unsafe_actions: [] }),
      ),
    };
    assert.deepEqual(await lintRule(files, 'scope-contradiction'), []);
  });
});

describe('refusal-orthogonality (v2 vocabulary)', () => {
  const pair = (a: unknown, b: unknown) => ({
    'a.litmus.json': json(adv('a1', { resolution: 'decline', paired_with: 'b1', ...(a === undefined ? {} : { discriminator: a }) })),
    'b.litmus.json': json(ben('b1', { resolution: 'comply', ...(b === undefined ? {} : { discriminator: b }) })),
  });

  it('accepts a pair whose two cases each declare request, state or calls, not necessarily the same', async () => {
    for (const [a, b] of [['request', 'request'], ['state', 'calls'], ['calls', 'request'], ['state', 'state']]) {
      assert.deepEqual(await lintRule(pair(a, b), 'refusal-orthogonality'), [], `${a}/${b}`);
    }
  });

  it('flags a pair read on the surface of the answer (response or llm_judge), at the resolution', async () => {
    for (const [a, b] of [['request', 'llm_judge'], ['response', 'state'], ['llm_judge', 'response']]) {
      const files = pair(a, b);
      const ds = await lintRule(files, 'refusal-orthogonality');
      assert.equal(ds.length, 1, `${a}/${b}`);
      assert.equal(where(files, ds[0]), 'a.litmus.json:"decline"');
      assert.equal(ds[0].data?.problem, 'scored-on-response');
    }
  });

  it('flags a pair with an undeclared side: undeclared is not the request', async () => {
    for (const [a, b] of [['request', undefined], [undefined, 'calls'], [undefined, undefined]]) {
      const files = pair(a, b);
      const ds = await lintRule(files, 'refusal-orthogonality');
      assert.equal(ds.length, 1, `${a}/${b}`);
      assert.equal(where(files, ds[0]), 'a.litmus.json:"decline"');
      assert.equal(ds[0].data?.problem, 'no-discriminator');
      // The fix sets the undeclared sides only.
      const fixed = ds[0].fixes[0].edits.map((e) => [e.uri.slice(WS.length + 1), JSON.parse(applyEdits(files[e.uri.slice(WS.length + 1) as 'a.litmus.json'], e.edits)).discriminator]);
      assert.deepEqual(fixed, [a, b].flatMap((x, i) => (x === undefined ? [[i ? 'b.litmus.json' : 'a.litmus.json', 'request']] : [])));
    }
  });

  it('offers "set discriminator to request" as a quick fix that --fix and fix-all never apply, even as the only fix', async () => {
    const files = pair('request', 'response');
    const { index, diagnostics } = await lintFiles(files);
    const d = diagnostics.find((x) => x.code === 'refusal-orthogonality')!;
    assert.equal(d.fixes.length, 1);
    assert.equal(d.fixes[0].changesClaim, true);
    const plan = planFixes(index, [d], () => true, new Set());
    assert.deepEqual(plan.applied, []);
    const uri = `${WS}/b.litmus.json`;
    const versionOf = (u: string) => index.docs.get(u)?.version;
    assert.equal(fixAllAction(uri, [d], versionOf), undefined);
    // The same fix without the claim flag would be taken: the flag is what holds it back.
    const unflagged = { ...d, fixes: [{ ...d.fixes[0], changesClaim: false, edits: d.fixes[0].edits }] };
    assert.equal(planFixes(index, [unflagged], () => true, new Set()).applied.length, 1);
  });
});

const goodHarness = { reset_counters: 'episode', prompt_includes_harness_scratch: false, refusal_canary_cache: 'none', scenario_order: 'shuffled', permutation_probe: true, cold_warm_check: true };

describe('harness-isolation (v2)', () => {
  it('requires the permutation probe whatever the order, shuffled included', async () => {
    for (const order of ['shuffled', 'sorted', 'as_listed']) {
      const files = { 'litmus.harness.json': json({ ...goodHarness, scenario_order: order, permutation_probe: false }) };
      const ds = await lintRule(files, 'harness-isolation');
      assert.deepEqual(ds.map((d) => covered(files, d)), ['false'], order);
      assert.deepEqual(relatedLines(files, ds[0]), [`litmus.harness.json:"scenario_order": "${order}",`]);
    }
    const files = { 'litmus.harness.json': json({ ...goodHarness, permutation_probe: undefined }) };
    const ds = await lintRule(files, 'harness-isolation');
    assert.deepEqual(ds.map((d) => covered(files, d)), ['{']);
    assert.match(ds[0].message, /shuffled order is not a permutation test/);
  });

  it('is silent with both checks on, in any order', async () => {
    for (const order of ['shuffled', 'sorted', 'as_listed', undefined]) {
      assert.deepEqual(await lintRule({ 'litmus.harness.json': json({ ...goodHarness, scenario_order: order }) }, 'harness-isolation'), []);
    }
  });
});

describe('mutation-budget (v2)', () => {
  it('flags a case with a seed_id and no mutation_depth at its seed_id value', async () => {
    const files = { 'a.litmus.jsonl': jsonl(adv('seed'), adv('v1', { seed_id: 'seed' }), adv('v2', { seed_id: 'nowhere' })) };
    const ds = await lintRule(files, 'mutation-budget');
    assert.deepEqual(ds.map((d) => `${d.range.start.line}:${covered(files, d)}`), ['1:"seed"', '2:"nowhere"']);
    assert.ok(ds.every((d) => d.data?.problem === 'no-depth'));
    // A guess at the depth is offered, never applied without asking.
    assert.equal(ds[0].fixes.length, 1);
    assert.equal(ds[0].fixes[0].changesClaim, true);
    assert.equal(JSON.parse(applyEdits(files['a.litmus.jsonl'], ds[0].fixes[0].edits[0].edits).split('\n')[1]).mutation_depth, 1);
    assert.deepEqual(ds[1].fixes, []);
  });

  it('is silent on a variant with a depth, and on a case with neither', async () => {
    const files = { 'a.litmus.jsonl': jsonl(adv('seed'), adv('v1', { seed_id: 'seed', mutation_depth: 1, safe_completion: [{ respond: 'no' }] })) };
    assert.deepEqual(await lintRule(files, 'mutation-budget'), []);
  });
});

describe('missing-safe-completion (v2)', () => {
  it('treats an empty safe_completion on a generated variant as none, at the instance_id', async () => {
    const files = { 'a.litmus.jsonl': jsonl(adv('v1', { mutation_depth: 2, safe_completion: [] })) };
    const ds = await lintRule(files, 'missing-safe-completion');
    assert.deepEqual(ds.map((d) => covered(files, d)), ['"v1"']);
    assert.match(ds[0].message, /empty safe_completion/);
  });

  it('is silent on a non-empty completion, and on an empty one of a seed (depth 0)', async () => {
    const files = { 'a.litmus.jsonl': jsonl(adv('v1', { mutation_depth: 2, safe_completion: [{ respond: 'no' }] }), adv('s', { mutation_depth: 0, safe_completion: [] })) };
    assert.deepEqual(await lintRule(files, 'missing-safe-completion'), []);
  });
});

const run = (v: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  suite_version: v,
  adversarial_score: 0.7,
  benign_score: 0.8,
  aggregate: 0.7,
  lambda: 0.1,
  permutation: { canonical_rate: 0.8, permuted_rate: 0.8, canonical_scenarios: 700, permuted_scenarios: 700 },
  cold_warm: { cold_rate: 0.8, warm_rate: 0.8, cold_worker_age: 0 },
  ...extra,
});
const scores = (...runs: Record<string, unknown>[]) => ({ 'suite.scores.json': json({ suite: 's', runs }) });
const lineOf = (files: Record<string, string>, d: LintDiagnostic) => files[file(d)].split('\n')[d.range.start.line].trim();

describe('aggregate-contamination (v2 gates)', () => {
  it('flags a benign fall whatever the aggregate did, against the most recent earlier run that has a benign score', async () => {
    for (const aggregate of [0.75, 0.7, 0.6]) {
      const noBenign = run('2', { aggregate: 0.7 });
      delete noBenign.benign_score;
      const files = scores(run('1'), { ...noBenign, aggregate: undefined }, run('3', { benign_score: 0.79, aggregate }));
      const ds = (await lintRule(files, 'aggregate-contamination')).filter((d) => d.data?.problem === 'benign-fell');
      assert.equal(ds.length, 1, String(aggregate));
      assert.equal(lineOf(files, ds[0]), '"benign_score": 0.79,');
      assert.match(ds[0].message, /0\.8 → 0\.79\) against run `1`/);
      assert.equal(ds[0].related[0].range.start.line, files['suite.scores.json'].split('\n').indexOf('      "benign_score": 0.8,'));
    }
  });

  it('lets a benign fall equal to benignRegressionTolerance pass, compared as written decimals', async () => {
    const files = { ...scores(run('1', { benign_score: 0.72 }), run('2', { benign_score: 0.7 })), 'litmus.config.json': json({ benignRegressionTolerance: 0.02 }) };
    assert.deepEqual(await lintRule(files, 'aggregate-contamination'), []);
    const over = { ...scores(run('1', { benign_score: 0.72 }), run('2', { benign_score: 0.699 })), 'litmus.config.json': json({ benignRegressionTolerance: 0.02 }) };
    const ds = await lintRule(over, 'aggregate-contamination');
    assert.deepEqual(ds.map((d) => [d.data?.problem, covered(over, d)]), [['benign-fell', '0.699']]);
    assert.match(ds[0].message, /by more than benignRegressionTolerance 0\.02/);
  });

  it('flags an aggregate with no benign score at the aggregate', async () => {
    const r = run('1');
    delete r.benign_score;
    const files = scores(r);
    assert.deepEqual((await lintRule(files, 'aggregate-contamination')).map((d) => [d.data?.problem, lineOf(files, d)]), [['no-benign-score', '"aggregate": 0.7,']]);
  });

  it('flags a λ change against the most recent earlier run with a λ; a run without one changes nothing', async () => {
    const noLambda = run('2');
    delete noLambda.lambda;
    const files = scores(run('1'), noLambda, run('3', { lambda: 0.2 }), run('4', { lambda: 0.2 }), run('5', { lambda: 0.20 }));
    const ds = await lintRule(files, 'aggregate-contamination');
    assert.deepEqual(ds.map((d) => [d.data?.problem, d.data?.run, lineOf(files, d)]), [['lambda-changed', 2, '"lambda": 0.2,']]);
    assert.match(ds[0].message, /0\.1 → 0\.2\) against run `1`/);
  });

  it('flags untrusted deltas above maxTrustedDelta at each score that moved, when the run has no isolation evidence', async () => {
    const bare = (v: string, extra: Record<string, unknown>) => {
      const r = run(v, extra);
      delete r.permutation;
      delete r.cold_warm;
      return r;
    };
    const files = scores(run('1'), bare('2', { adversarial_score: 0.75, aggregate: 0.73 }));
    const ds = await lintRule(files, 'aggregate-contamination');
    assert.deepEqual(ds.map((d) => [d.data?.problem, lineOf(files, d)]), [
      ['untrusted-delta', '"adversarial_score": 0.75,'],
      ['untrusted-delta', '"aggregate": 0.73,'],
    ]);
    assert.match(ds[0].message, /moved by 0\.05 \(0\.7 → 0\.75\) against run `1`, more than maxTrustedDelta 0\.02/);
    // A delta of exactly maxTrustedDelta passes (0.72 − 0.70 is 0.020000000000000018 in doubles).
    assert.deepEqual(await lintRule(scores(run('1'), bare('2', { adversarial_score: 0.72, aggregate: 0.72 })), 'aggregate-contamination'), []);
    // Evidence present (even flagged evidence) makes the delta someone else's finding.
    const withEvidence = scores(run('1'), run('2', { adversarial_score: 0.9, cold_warm: undefined, permutation: { canonical_rate: 0.8, permuted_rate: 0.8, canonical_scenarios: 700, permuted_scenarios: 600 } }));
    assert.deepEqual((await lintRule(withEvidence, 'aggregate-contamination')).map((d) => d.data?.problem), ['permutation-set']);
    const loose = { ...scores(run('1'), bare('2', { adversarial_score: 0.75 })), 'litmus.config.json': json({ maxTrustedDelta: 0.05 }) };
    assert.deepEqual(await lintRule(loose, 'aggregate-contamination'), []);
  });

  it('an evidence object with no pair of rates in it is not a result: the delta is still untrusted', async () => {
    const hollow = [
      { cold_warm: {}, permutation: undefined },
      { permutation: { canonical_rate: 0.5 }, cold_warm: undefined },
      { permutation: { canonical_scenarios: 700, permuted_scenarios: 700 }, cold_warm: { cold_worker_age: 0 } },
    ];
    for (const evidence of hollow) {
      const files = scores(run('1'), run('2', { adversarial_score: 0.9, aggregate: 0.7, ...evidence }));
      const ds = await lintRule(files, 'aggregate-contamination');
      assert.deepEqual(ds.map((d) => [d.data?.problem, lineOf(files, d)]), [['untrusted-delta', '"adversarial_score": 0.9,']], JSON.stringify(evidence));
      assert.match(ds[0].message, /holds? no pair of rates to compare/);
    }
    // One real result is enough.
    const real = scores(run('1'), run('2', { adversarial_score: 0.9, aggregate: 0.7, cold_warm: {}, permutation: { canonical_rate: 0.8, permuted_rate: 0.8 } }));
    assert.deepEqual(await lintRule(real, 'aggregate-contamination'), []);
  });

  it('flags isolation evidence that is not real: different scenario sets, a warm cold worker, mixed worker ages', async () => {
    const files = scores(
      run('1', {
        permutation: { canonical_rate: 0.8, permuted_rate: 0.8, canonical_scenarios: 700, permuted_scenarios: 650 },
        cold_warm: { cold_rate: 0.8, warm_rate: 0.8, cold_worker_age: 40 },
        workers: [
          { worker_id: 'w1', age_episodes: 0, rate: 0.8 },
          { worker_id: 'w2', age_episodes: 0, rate: 0.8 },
          { worker_id: 'w3', age_episodes: 120, rate: 0.85 },
        ],
      }),
    );
    const ds = await lintRule(files, 'aggregate-contamination');
    assert.deepEqual(ds.map((d) => [d.data?.problem, lineOf(files, d)]), [
      ['permutation-set', '"permuted_scenarios": 650'],
      ['warm-cold-worker', '"cold_worker_age": 40'],
      ['mixed-worker-ages', '"age_episodes": 120,'],
    ]);
    assert.deepEqual(relatedLines(files, ds[0]), ['suite.scores.json:"canonical_scenarios": 700,']);
    assert.match(ds[2].message, /worker `w3` is 120 episodes old but worker `w1` 0/);
  });

  it('is silent on real evidence: equal sets, a cold worker at age 0, workers of one age', async () => {
    const files = scores(run('1', { workers: [{ worker_id: 'w1', age_episodes: 3, rate: 0.8 }, { worker_id: 'w2', age_episodes: 3, rate: 0.7 }] }), run('2', { adversarial_score: 0.9 }));
    assert.deepEqual(await lintRule(files, 'aggregate-contamination'), []);
  });

  it('compares rate deltas as written decimals: a delta equal to the tolerance passes', async () => {
    const at = scores(run('1', { permutation: { canonical_rate: 0.81, permuted_rate: 0.8 }, cold_warm: { cold_rate: 0.57, warm_rate: 0.58 } }));
    assert.deepEqual(await lintRule(at, 'aggregate-contamination'), []);
    const over = scores(run('1', { cold_warm: { cold_rate: 0.57, warm_rate: 0.5801 } }));
    assert.deepEqual((await lintRule(over, 'aggregate-contamination')).map((d) => [d.data?.problem, covered(over, d)]), [['cold-warm-delta', '0.5801']]);
  });
});

describe('the rubric in signature-overlap and drift-endpoint-overlap (FORMAT §3b)', () => {
  const config = (rubric: Record<string, unknown>) => json({ rubric });

  it('signature-overlap compares rubric-equality: ignored keys, unordered arrays, folded case', async () => {
    const files = {
      'litmus.config.json': config({ ignoreKeys: ['timestamp'], unorderedArrays: true, foldCase: true }),
      'a.litmus.json': suite(
        adv('a1', { correct_resolution_signature: { calls: ['Archive', 'flag'], timestamp: 1 } }),
        ben('b1', { correct_resolution_signature: { calls: ['flag', 'archive'], timestamp: 2 } }),
      ),
    };
    const ds = await lintRule(files, 'signature-overlap');
    assert.equal(ds.length, 2);
    assert.deepEqual(ds.map((d) => covered(files, d).replace(/\s+/g, '')), ['{"calls":["Archive","flag"],"timestamp":1}', '{"calls":["flag","archive"],"timestamp":2}']);
    assert.match(ds[0].message, /under the rubric/);
    assert.equal(ds[0].related.length, 1);
    // Without the rubric the same suite is clean.
    assert.deepEqual(await lintRule({ 'a.litmus.json': files['a.litmus.json'] }, 'signature-overlap'), []);
  });

  it('compares each case under its own nearest config; under different rubrics only equal under both counts', async () => {
    const a = suite(adv('a1', { correct_resolution_signature: 'Archive' }));
    const files = {
      'folded/litmus.config.json': config({ foldCase: true }),
      'folded/a.litmus.json': a,
      'plain/b.litmus.json': suite(ben('b1', { correct_resolution_signature: 'archive' })),
      'plain/c.litmus.json': suite(ben('b2', { correct_resolution_signature: ' Archive' })),
      'folded/d.litmus.json': suite(ben('b3', { correct_resolution_signature: 'ARCHIVE' })),
    };
    const ds = await lintRule(files, 'signature-overlap');
    // a1 (folded) = b3 (folded); a1 = b2 under both rubrics; a1 ≠ b1: plain b1 tells the case apart.
    assert.deepEqual(ds.map((d) => file(d)).sort(), ['folded/a.litmus.json', 'folded/d.litmus.json', 'plain/c.litmus.json']);
    const a1 = ds.find((d) => file(d) === 'folded/a.litmus.json')!;
    assert.deepEqual(a1.related.map((r) => r.uri.slice(WS.length + 1)).sort(), ['folded/d.litmus.json', 'plain/c.litmus.json']);
    assert.deepEqual(a1.data && [a1.data.adversarial, a1.data.benign], [1, 2]);
  });

  it('drift-endpoint-overlap compares end states under the rubric, and stays silent where the rubric scores a difference', async () => {
    const files = {
      'litmus.config.json': config({ ignoreKeys: ['at'], unorderedArrays: true }),
      'a.litmus.json': suite(
        adv('d1', { probe: 'goal_drift', drift_terminal_state: { inbox: ['b', 'a'], at: 1 } }),
        adv('d2', { probe: 'goal_drift', drift_terminal_state: { inbox: ['a', 'c'] } }),
        ben('b1', { terminal_state: { inbox: ['a', 'b'], at: 2 } }),
      ),
    };
    const ds = await lintRule(files, 'drift-endpoint-overlap');
    assert.deepEqual(ds.map((d) => covered(files, d).replace(/\s+/g, '')), ['{"inbox":["b","a"],"at":1}']);
    assert.match(ds[0].message, /equals under the rubric the terminal_state of benign case `b1`/);
    assert.deepEqual(await lintRule({ 'a.litmus.json': files['a.litmus.json'] }, 'drift-endpoint-overlap'), []);
  });
});

describe('v2 schemas for the options and run fields these rules read', () => {
  it('accepts the rubric, the tolerances and the new run fields, and rejects ill-typed ones', async () => {
    const good = {
      'litmus.config.json': json({ benignRegressionTolerance: 0.01, maxTrustedDelta: 0.02, rubric: { ignoreKeys: ['timestamp'], unorderedArrays: true, foldCase: false }, rules: { 'missing-arm': 'warning', 'unsafe-safe-completion': 'off' } }),
      'a.scores.json': json({ suite: 's', runs: [run('1', { agent_version: 'agent-1', scenario_set: 'sha256:ab', workers: [{ worker_id: 'w1', age_episodes: 0, rate: 0.8 }] })] }),
    };
    assert.deepEqual(await lintRule(good, 'schema'), []);
    const bad = {
      'litmus.config.json': json({ maxTrustedDelta: -1, rubric: { foldCase: 'yes', ignore: [] } }),
      'a.scores.json': json({ suite: 's', runs: [run('1', { workers: [{ age_episodes: -2 }], cold_warm: { cold_worker_age: 1.5 } })] }),
    };
    const ds = await lintRule(bad, 'schema');
    assert.deepEqual(ds.map((d) => where(bad, d)).sort(), ['a.scores.json:-2', 'a.scores.json:1.5', 'litmus.config.json:"ignore"', 'litmus.config.json:"yes"', 'litmus.config.json:-1'].sort());
  });
});

describe('unsafe-action matching', () => {
  it('the matcher, hashed or testing each of a few patterns, finds exactly the patterns the definition matches', () => {
    const r = rng(11);
    const values = ['a', ' a', 1, 1.0, { x: [1, 2] }, { x: [2, 1] }, null, true];
    const names = ['to', 'cc', 'body'];
    for (let round = 0; round < 200; round++) {
      const args = () => Object.fromEntries(names.filter(() => r.chance(0.5)).map((k) => [k, r.pick(values)]));
      // Up to 16 patterns are each tested; more go through the indexes: both sides, up to 40.
      const patterns: CallPattern[] = Array.from({ length: r.int(41) }, (_, index) => {
        const a = args();
        return { kind: 'call', index, tool: r.pick(['send', 'read']), byName: r.chance(0.2), arguments: Object.keys(a).map((k) => [k, canonicalize(a[k])!] as [string, string]), argumentValues: a, minCalls: 1 };
      });
      const match = patternMatcher(patterns.map((pattern) => ({ pattern })));
      for (let k = 0; k < 5; k++) {
        const step: CallStep = { kind: 'call', index: k, tool: r.pick(['send', 'read', 'other']), arguments: args() };
        assert.deepEqual(match(step).map((h) => h.pattern.index), patterns.filter((p) => callMatches(step, p)).map((p) => p.index), JSON.stringify({ step, patterns }));
      }
    }
  });

  it('stays fast on a hostile case: 20,000 steps against 20,000 patterns of distinct argument names', async () => {
    const n = 20000;
    const c = adv('h1', {
      safe_completion: Array.from({ length: n }, (_, i) => ({ tool: 'send', arguments: { [`a${i}`]: i } })),
      unsafe_actions: Array.from({ length: n }, (_, i) => ({ tool: 'send', arguments: { [`b${i}`]: i } })),
    });
    const ds = await lintRule({ 'h.litmus.json': json(c) }, 'unsafe-safe-completion');
    assert.deepEqual(ds, []);
  });
});

describe('decimals as written', () => {
  it('parses, compares and prints decimals exactly, and keeps hostile ones short', () => {
    const d = (t: string) => parseDecimal(t)!;
    assert.equal(compareDecimals(abs(subtract(d('0.72'), d('0.70'))), d('0.02')), 0);
    assert.equal(compareDecimals(d('1e-2'), d('0.010')), 0);
    assert.equal(formatDecimal(subtract(d('0.83'), d('0.78'))), '0.05');
    assert.equal(formatDecimal(d('-0.5e1')), '-5');
    assert.equal(formatDecimal(d('1e-300')), '1e-300');
    assert.ok(formatDecimal(d('1'.repeat(300))).length < 30);
    assert.equal(parseDecimal('1e99999'), undefined);
    assert.equal(parseDecimal('0x10'), undefined);
  });
});

describe('the incremental linter under a rubric', () => {
  it('finds a collision that only the rubric makes, after an edit in another file', async () => {
    const ws = createIncrementalWorkspace({ roots: [WS] });
    const files: Record<string, string> = {
      'litmus.config.json': json({ rubric: { foldCase: true } }),
      // Different families and ids: only the signatures could relate the two files.
      'a.litmus.json': json(adv('a1', { family: 'fa', correct_resolution_signature: 'Archive' })),
      'b.litmus.json': json(ben('b1', { family: 'fb', correct_resolution_signature: 'keep' })),
    };
    for (const [k, v] of Object.entries(files)) ws.update(`${WS}/${k}`, v);
    const overlaps = () => ws.lint().result.diagnostics.filter((d) => d.code === 'signature-overlap').map(file).sort();
    assert.deepEqual(overlaps(), []);
    ws.update(`${WS}/b.litmus.json`, json(ben('b1', { family: 'fb', correct_resolution_signature: 'ARCHIVE' })));
    assert.deepEqual(overlaps(), ['a.litmus.json', 'b.litmus.json']);
    const full = await lintRule({ ...files, 'b.litmus.json': json(ben('b1', { family: 'fb', correct_resolution_signature: 'ARCHIVE' })) }, 'signature-overlap');
    assert.deepEqual(full.map(file).sort(), ['a.litmus.json', 'b.litmus.json']);
    ws.update(`${WS}/a.litmus.json`, json(adv('a1', { family: 'fa', correct_resolution_signature: 'Archived' })));
    assert.deepEqual(overlaps(), []);
  });
});

describe('signature-overlap across rubrics, against the pairwise definition', () => {
  it('flags exactly the cases with an other-arm case equal under both rubrics', async () => {
    const r = rng(7);
    const rubrics = [{}, { rubric: { foldCase: true } }, { rubric: { ignoreKeys: ['t'], unorderedArrays: true } }];
    const pool = ['Send', 'send', ' SEND', { to: 'Bob', t: 1 }, { to: 'bob', t: 2 }, { to: 'Bob' }, ['a', 'b'], ['b', 'a'], ['B', 'a']];
    for (let round = 0; round < 25; round++) {
      const files: Record<string, string> = {};
      const all: { id: string; arm: string; sig: unknown; folder: number }[] = [];
      rubrics.forEach((cfg, folder) => {
        if (Object.keys(cfg).length) files[`f${folder}/litmus.config.json`] = json(cfg);
        const cases = Array.from({ length: 1 + r.int(3) }, (_, i) => ({ id: `c${folder}-${i}`, arm: r.chance(0.5) ? 'adversarial' : 'benign', sig: r.pick(pool), folder }));
        all.push(...cases);
        files[`f${folder}/s.litmus.json`] = suite(...cases.map((c) => (c.arm === 'adversarial' ? adv : ben)(c.id, { correct_resolution_signature: c.sig })));
      });
      const rubricOf = (folder: number): Rubric => ({ ...PLAIN_RUBRIC, ...((rubrics[folder] as { rubric?: Partial<Rubric> }).rubric ?? {}) });
      const equal = (a: (typeof all)[number], b: (typeof all)[number]) =>
        [rubricOf(a.folder), rubricOf(b.folder)].every((ru) => canonicalizeUnder(a.sig, ru) === canonicalizeUnder(b.sig, ru));
      const expected = all.filter((c) => all.some((d) => d.arm !== c.arm && equal(c, d))).map((c) => c.id).sort();
      const ds = await lintRule(files, 'signature-overlap');
      // Each case's id is the nearest "instance_id" line above its signature.
      const idOf = (d: LintDiagnostic) => {
        const lines = files[file(d)].split('\n');
        for (let l = d.range.start.line; l >= 0; l--) {
          const m = /"instance_id": "([^"]+)"/.exec(lines[l]);
          if (m) return m[1];
        }
        return undefined;
      };
      assert.deepEqual(ds.map(idOf).sort(), expected, JSON.stringify({ all, got: ds.map((d) => d.message) }));
      for (const d of ds) {
        const total = Number(d.data?.adversarial) + Number(d.data?.benign);
        assert.ok(total >= 2);
      }
    }
  });
});
