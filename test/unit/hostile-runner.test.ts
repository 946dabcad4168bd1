import assert from 'node:assert/strict';
import { ALL_RULES, type Rule } from '../../src/core';
import { json, lintFiles } from '../helpers';

describe('a rule that throws', () => {
  it('becomes one diagnostic of its own code, and every other rule still reports', async () => {
    const real = ALL_RULES.find((r) => r.meta.id === 'duplicate-id')!;
    const crashing: Rule = {
      meta: real.meta,
      check(ctx) {
        ctx.report({ at: { uri: [...ctx.index.docs.keys()][0], offset: 0, length: 0 }, message: 'found before the crash' });
        throw new RangeError('Maximum call stack size exceeded');
      },
    };
    const files = { 'a.litmus.json': json({ instance_id: 'a', arm: 'benign', family: 'f', task: 't', correct_resolution_signature: 's', paired_with: 'nobody' }) };
    const { diagnostics } = await lintFiles(files, { rules: [crashing, ...ALL_RULES.filter((r) => r !== real)] });
    const crashed = diagnostics.filter((d) => d.data?.problem === 'rule-crashed');
    assert.equal(crashed.length, 1);
    assert.equal(crashed[0].code, 'duplicate-id');
    assert.match(crashed[0].message, /internal error \(RangeError: Maximum call stack size exceeded\)/);
    assert.ok(diagnostics.some((d) => d.message === 'found before the crash'));
    assert.ok(diagnostics.some((d) => d.code === 'unresolved-reference'));
  });
});
