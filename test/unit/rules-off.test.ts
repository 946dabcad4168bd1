import assert from 'node:assert/strict';
import { ALL_RULES, createIncrementalLinter, createIncrementalWorkspace, buildIndex, type LintDiagnostic, type Rule } from '../../src/core';
import { rulesOffEverywhere } from '../../src/core/lint/lint';
import { json, lintFiles, WS } from '../helpers';

/** A rule that reports on every document and counts how often it was asked to check. */
function probe(): Rule & { calls: number } {
  const rule = {
    calls: 0,
    meta: { id: 'probe', defaultSeverity: 'warning' as const, from: '—', description: 'reports every document' },
    check(ctx: Parameters<Rule['check']>[0]) {
      rule.calls++;
      for (const doc of ctx.index.docs.values()) ctx.report({ at: { uri: doc.uri, offset: 0, length: 0 }, message: 'probe' });
    },
  };
  return rule;
}

const kase = (id: string) => json({ instance_id: id, arm: 'benign', family: 'f', task: 't', correct_resolution_signature: id });
const probed = (ds: readonly LintDiagnostic[]) => ds.filter((d) => d.code === 'probe').map((d) => d.uri.slice(WS.length + 1)).sort();

describe('rules that are off everywhere', () => {
  it('are not run, and the report is what placing the findings would have given', async () => {
    const rule = probe();
    const files = { 'litmus.config.json': json({ rules: { probe: 'off' } }), 'a/one.litmus.json': kase('x1'), 'b/two.litmus.json': kase('x2') };
    const { diagnostics } = await lintFiles(files, { rules: [...ALL_RULES, rule] });
    assert.equal(rule.calls, 0);
    assert.deepEqual(probed(diagnostics), []);
  });

  it('run when one folder turns them back on, and show only there', async () => {
    const rule = probe();
    const files = {
      'litmus.config.json': json({ rules: { probe: 'off' } }),
      'a/one.litmus.json': kase('x1'),
      'b/litmus.config.json': json({ rules: { probe: 'info' } }),
      'b/two.litmus.json': kase('x2'),
    };
    const { diagnostics, index } = await lintFiles(files, { rules: [...ALL_RULES, rule] });
    assert.equal(rule.calls, 1);
    assert.deepEqual(probed(diagnostics), ['b/litmus.config.json', 'b/two.litmus.json']);
    assert.deepEqual([...rulesOffEverywhere(index, [...ALL_RULES, rule])], []);
  });

  it('are named per rule, and none without a document to judge by', async () => {
    const rule = probe();
    const { index } = await lintFiles({ 'litmus.config.json': json({ rules: { probe: 'off', schema: 'off', 'duplicate-id': 'hint' } }), 'one.litmus.json': kase('x1') });
    assert.deepEqual([...rulesOffEverywhere(index, [...ALL_RULES, rule])].sort(), ['probe', 'schema']);
    assert.deepEqual([...rulesOffEverywhere(buildIndex([], { roots: [WS] }), [rule])], []);
  });

  it('keep a suppression of theirs reported as suppressing nothing, as before they were skipped', async () => {
    const rule = probe();
    const files = {
      'litmus.config.json': json({ rules: { probe: 'off' } }),
      'one.litmus.jsonc': `/* litmus-disable probe -- checked by hand */\n${kase('x1')}`,
    };
    const { diagnostics } = await lintFiles(files, { rules: [...ALL_RULES, rule] });
    assert.equal(rule.calls, 0);
    const unused = diagnostics.filter((d) => d.code === 'unused-suppression');
    assert.equal(unused.length, 1);
    assert.match(unused[0].message, /`probe`/);
  });

  it('are skipped by the incremental linter until a config turns them on', () => {
    const rule = probe();
    const ws = createIncrementalWorkspace({ roots: [WS] });
    ws.update(`${WS}/litmus.config.json`, json({ rules: { probe: 'off' } }));
    ws.update(`${WS}/a/one.litmus.json`, kase('x1'));
    ws.update(`${WS}/a/two.litmus.json`, kase('x2'));
    const linter = createIncrementalLinter();
    const lint = () => linter.lint(buildIndex(ws.documents(), { roots: [WS] }), { rules: [...ALL_RULES, rule] });
    assert.deepEqual(probed(lint().diagnostics), []);
    ws.update(`${WS}/a/two.litmus.json`, kase('x3'));
    assert.deepEqual(probed(lint().diagnostics), []);
    assert.equal(rule.calls, 0);
    ws.update(`${WS}/a/litmus.config.json`, json({ rules: { probe: 'warning' } }));
    assert.deepEqual(probed(lint().diagnostics), ['a/litmus.config.json', 'a/one.litmus.json', 'a/two.litmus.json']);
    assert.equal(rule.calls, 1);
    ws.update(`${WS}/a/litmus.config.json`, json({ rules: { probe: 'off' } }));
    assert.deepEqual(probed(lint().diagnostics), []);
    assert.equal(rule.calls, 1);
  });
});
