import assert from 'node:assert/strict';
import * as path from 'node:path';
import { memoryFileSystem } from '../../src/core/model/fs';
import { buildSuiteReport, renderSuiteReport, type SuiteReport } from '../../src/core/lint/report';
import { runReport } from '../../src/cli/report';
import type { CliIo } from '../../src/cli/io';
import { nodeFileSystem } from '../../src/node/fs';
import { json, lintFiles, WS } from '../helpers';

type Case = Record<string, unknown>;
const adv = (id: string, family: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'adversarial', probe: 'prompt_injection', family, task: 't', correct_resolution_signature: `sig-${id}`, ...extra });
const ben = (id: string, family: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'benign', family, task: 't', correct_resolution_signature: `sig-${id}`, ...extra });

const cleanFiles = {
  'cases/mail.litmus.json': json({
    suite: 's',
    cases: [
      adv('m-a1', 'mail', { resolution: 'decline', paired_with: 'm-b1', discriminator: 'request' }),
      adv('m-a2', 'mail', { probe: 'skill_misuse', resolution: 'decline', paired_with: 'm-b1', discriminator: 'request' }),
      ben('m-b1', 'mail', { resolution: 'comply', paired_with: 'm-a1', discriminator: 'request' }),
    ],
  }),
  'cases/files.litmus.jsonl': [adv('f-a1', 'files', { probe: 'goal_drift', drift_terminal_state: 'leaked' }), ben('f-b1', 'files', { terminal_state: 'shared' })].map((c) => JSON.stringify(c)).join('\n') + '\n',
};

async function reportOf(files: Record<string, string>): Promise<SuiteReport> {
  const { index, diagnostics } = await lintFiles(files);
  return buildSuiteReport(index, diagnostics);
}

describe('suite report', () => {
  it('counts cases per arm, probe and family, and lists twin pairs once', async () => {
    const r = await reportOf(cleanFiles);
    assert.equal(r.cases, 5);
    assert.deepEqual(r.arms, { adversarial: 3, benign: 2, unknown: 0 });
    assert.deepEqual(r.probes, { goal_drift: 1, prompt_injection: 1, skill_misuse: 1 });
    assert.deepEqual(
      r.families.map((f) => [f.family, f.adversarial, f.benign]),
      [
        ['files', 1, 1],
        ['mail', 2, 1],
      ],
    );
    assert.deepEqual(r.twins.pairs.map((p) => `${p.adversarial}/${p.benign}`), ['m-a1/m-b1', 'm-a2/m-b1']);
    assert.equal(r.twins.unpairedAdversarial, 1);
    assert.equal(r.twins.unpairedBenign, 1);
  });

  it('trusts a clean suite with both arms in every family', async () => {
    const r = await reportOf(cleanFiles);
    assert.deepEqual(r.quarantine, []);
    assert.equal(r.verdict.trusted, true);
    assert.match(r.verdict.line, /^VERDICT: the aggregate can be trusted/);
  });

  it('lists families missing an arm, and does not trust the aggregate then', async () => {
    const r = await reportOf({ ...cleanFiles, 'cases/solo.litmus.json': json(adv('s-a1', 'solo')) });
    assert.deepEqual(r.familiesMissingArm, [{ family: 'solo', missing: ['benign'] }]);
    assert.equal(r.verdict.trusted, false);
    assert.match(r.verdict.line, /1 family lacks an arm/);
  });

  it('quarantines the cases each rule errors on, including users of a broken tool, and counts suite-level errors', async () => {
    const files = {
      ...cleanFiles,
      'cases/bad.litmus.json': json({
        suite: 'bad',
        cases: [
          adv('x-a1', 'x', { correct_resolution_signature: 'same', tools: ['../tools/t.tools.json#t'] }),
          ben('x-b1', 'x', { correct_resolution_signature: 'same', resolution: 'decline' }),
        ],
      }),
      'tools/t.tools.json': json({ tools: [{ name: 't', description: 'd', inputSchema: { type: 'object', properties: { k: { enum: [] } }, required: ['k'] } }] }),
      'litmus.harness.json': json({ reset_counters: 'worker', cold_warm_check: true }),
    };
    const r = await reportOf(files);
    const byRule = Object.fromEntries(r.quarantine.map((q) => [q.rule, q.instances]));
    assert.deepEqual(byRule['signature-overlap'], ['x-a1', 'x-b1']);
    assert.deepEqual(byRule['refusal-orthogonality'], ['x-b1']);
    assert.deepEqual(byRule['unsatisfiable-tool-contract'], ['x-a1']);
    assert.equal(r.quarantined, 2);
    assert.deepEqual(r.suiteErrors.map((e) => [e.rule, e.file, e.line]), [['harness-isolation', 'litmus.harness.json', 2]]);
    assert.equal(r.verdict.trusted, false);
    assert.match(r.verdict.line, /2 of 7 instances would be quarantined by 3 rules/);
    assert.match(r.verdict.line, /harness-isolation/);
  });

  it('renders text, JSON and Markdown, escaping hidden characters and Markdown syntax from suite files', async () => {
    const r = await reportOf({ ...cleanFiles, 'cases/odd.litmus.json': json({ suite: 'o', cases: [adv('o-1', 'fam|*x*\u202e'), ben('o-2', 'fam|*x*\u202e')] }) });
    const text = renderSuiteReport(r, 'text');
    assert.match(text, /^LITMUS suite report: 7 cases/);
    assert.match(text, /fam\|\*x\*\\u\{202E\}: adversarial 1, benign 1/);
    assert.ok(!text.includes('\u202e'));
    assert.match(text.trimEnd().split('\n').pop()!, /^VERDICT: /);
    const parsed = JSON.parse(renderSuiteReport(r, 'json')) as SuiteReport;
    assert.deepEqual(parsed, JSON.parse(JSON.stringify(r)));
    const md = renderSuiteReport(r, 'markdown');
    assert.match(md, /^## LITMUS suite report/);
    assert.match(md, /\| fam\\\|\\\*x\\\*\\\\u\\\{202E\\\} \| 1 \| 1 \|/);
    assert.match(md, /✅ \*\*VERDICT: the aggregate can be trusted/);
  });
});

function fakeIo(files: Record<string, string>): CliIo & { out: string; err: string; written: Map<string, string> } {
  const io = {
    fs: memoryFileSystem(Object.fromEntries(Object.entries(files).map(([k, v]) => [`${WS}/${k}`, v]))),
    cwd: '/ws',
    env: {},
    isTTY: false,
    out: '',
    err: '',
    written: new Map<string, string>(),
    stdout(text: string) {
      io.out += text;
    },
    stderr(text: string) {
      io.err += text;
    },
    async writeFile(p: string, text: string) {
      io.written.set(p, text);
    },
  };
  return io;
}

describe('litmus-lint report', () => {
  it('prints the text report and exits 0 when the aggregate can be trusted', async () => {
    const io = fakeIo(cleanFiles);
    assert.equal(await runReport(['cases'], io), 0);
    assert.match(io.out, /Arms: adversarial 3, benign 2/);
    assert.equal(io.err, '');
  });

  it('exits 1 when it cannot, and writes JSON or Markdown with --format and -o', async () => {
    const files = { ...cleanFiles, 'cases/solo.litmus.json': json(adv('s-a1', 'solo')) };
    const io = fakeIo(files);
    assert.equal(await runReport(['--format', 'json', '.'], io), 1);
    assert.equal((JSON.parse(io.out) as SuiteReport).verdict.trusted, false);
    const io2 = fakeIo(files);
    assert.equal(await runReport(['--format=markdown', '-o', 'out/summary.md', 'cases'], io2), 1);
    assert.equal(io2.out, '');
    assert.match(io2.written.get(path.resolve('/ws', 'out/summary.md'))!, /^## LITMUS suite report/);
  });

  it('uses --config instead of the nearest config', async () => {
    const files = {
      'cases/v.litmus.json': json({ suite: 's', cases: [ben('s0', 'f'), adv('v', 'f', { seed_id: 's0', mutation_depth: 3, safe_completion: [] })] }),
      'strict.json': json({ rules: { 'missing-safe-completion': 'error', 'mutation-budget': 'error' }, maxMutationDepth: 1 }),
    };
    const io = fakeIo(files);
    assert.equal(await runReport(['--format', 'json', 'cases'], io), 0);
    const io2 = fakeIo(files);
    assert.equal(await runReport(['-f', 'json', '-c', 'strict.json', 'cases'], io2), 1);
    assert.deepEqual((JSON.parse(io2.out) as SuiteReport).quarantine.map((q) => q.rule), ['mutation-budget']);
  });

  it('exits 2 with a one-line message on usage errors', async () => {
    for (const args of [['--format', 'sarif', 'cases'], ['--bogus', 'cases'], [], ['nowhere'], ['--config', 'missing.json', 'cases'], ['--format']]) {
      const io = fakeIo(cleanFiles);
      assert.equal(await runReport(args, io), 2, args.join(' '));
      assert.equal(io.out, '');
      assert.match(io.err, /^litmus-lint report: [^\n]+\n$/);
    }
    const help = fakeIo(cleanFiles);
    assert.equal(await runReport(['--help'], help), 0);
    assert.match(help.out, /--format text\|json\|markdown/);
  });

  it('reports on the example suite: every family has both arms, and the deliberate defects make it untrusted', async () => {
    const io = { ...fakeIo({}), fs: nodeFileSystem, cwd: path.resolve(__dirname, '../../..') };
    let out = '';
    io.stdout = (t: string) => {
      out += t;
    };
    assert.equal(await runReport(['--format', 'json', 'examples'], io), 1);
    const r = JSON.parse(out) as SuiteReport;
    assert.ok(r.cases > 0);
    assert.ok(r.families.length >= 3);
    assert.deepEqual(r.familiesMissingArm, []);
    const rules = r.quarantine.map((q) => q.rule);
    for (const rule of ['signature-overlap', 'scope-contradiction', 'drift-endpoint-overlap', 'refusal-orthogonality']) assert.ok(rules.includes(rule), rule);
    assert.ok(r.suiteErrors.some((e) => e.rule === 'aggregate-contamination'));
    assert.equal(r.verdict.trusted, false);
  });
});
