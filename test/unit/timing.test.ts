import assert from 'node:assert/strict';
import { lintIndex, loadWorkspace, memoryFileSystem, RULE_IDS, type Rule, type RuleTimes } from '../../src/core';
import { runCli } from '../../src/cli/run';
import { liveIo } from '../cli/capture';
import { timingRows, timingTable } from '../../src/cli/timing';

// `TIMING` (as ESLint's): where a lint's rule time goes, shared analyses apart from the rules that use them.
const WS = 'file:///ws';
const CASE = '{ "instance_id": "a1", "arm": "benign", "family": "f", "task": "t", "correct_resolution_signature": "s", "seed_id": "nobody" }\n';

describe('rule timing', () => {
  /** A clock the rules move by hand: every figure is exact. */
  function clocked(): { times: RuleTimes; tick: (ms: number) => void } {
    let t = 1000;
    return { times: { now: () => t, spent: new Map() }, tick: (ms) => void (t += ms) };
  }
  const rule = (id: string, check: Rule['check']): Rule => ({ meta: { id, defaultSeverity: 'warning', from: 'card', description: id }, check });

  it('charges each rule its own time, and a shared analysis to itself however deep it nests and whoever asks first', async () => {
    const { index } = await loadWorkspace(memoryFileSystem({ [`${WS}/a.litmus.json`]: CASE }), [WS]);
    const { times, tick } = clocked();
    const inner = (ctx: Parameters<Rule['check']>[0]) => ctx.memo('inner', () => (tick(7), 1));
    const outer = (ctx: Parameters<Rule['check']>[0]) => ctx.memo('outer', () => (tick(5), inner(ctx) + 1));
    const rules = [
      rule('acme/first', (ctx) => {
        tick(2);
        outer(ctx);
        tick(1);
      }),
      rule('acme/second', (ctx) => {
        outer(ctx);
        inner(ctx);
        tick(4);
      }),
      rule('acme/crashes', () => {
        tick(6);
        throw new Error('boom');
      }),
    ];
    lintIndex(index, { rules, times });
    assert.deepEqual(Object.fromEntries(times.spent), { 'acme/first': 3, '(shared) outer': 5, '(shared) inner': 7, 'acme/second': 4, 'acme/crashes': 6 });
  });

  it('adds every lint of a run (a --fix loop lints more than once)', async () => {
    const { index } = await loadWorkspace(memoryFileSystem({ [`${WS}/a.litmus.json`]: CASE }), [WS]);
    const { times, tick } = clocked();
    const rules = [rule('acme/slow', () => tick(10))];
    lintIndex(index, { rules, times });
    lintIndex(index, { rules, times });
    assert.equal(times.spent.get('acme/slow'), 20);
  });

  it('reads TIMING as ESLint does, and prints its table', () => {
    assert.equal(timingRows(undefined), undefined);
    assert.equal(timingRows(''), undefined);
    assert.equal(timingRows('1'), 10);
    assert.equal(timingRows('yes'), 10);
    assert.equal(timingRows('25'), 25);
    assert.equal(timingRows('ALL'), Infinity);
    const table = timingTable({ now: () => 0, spent: new Map([['b', 1], ['no-unused-vars', 52.472], ['c', 0.5]]) }, 2);
    assert.equal(timingTable({ now: () => 0, spent: new Map() }, 10), 'no rule ran\n', 'every rule off');
    assert.equal(table, ['Rule           | Time (ms) | Relative', ':--------------|----------:|--------:', 'no-unused-vars |    52.472 |    97.2%', 'b              |     1.000 |     1.9%', ''].join('\n'));
  });

  describe('in the CLI', () => {
    const run = async (env: Record<string, string>, args: string[] = [], files = new Map([[`${WS}/suite/a.litmus.json`, CASE]])) => {
      const live = liveIo(files, { env });
      const status = await runCli([...args, '--format', 'json', 'suite'], live.io);
      return { status, out: live.out(), err: live.err() };
    };

    it('prints nothing without TIMING, the 10 slowest with TIMING=1, every rule that ran with TIMING=all; the report is unchanged', async () => {
      const plain = await run({});
      assert.equal(plain.err, '');
      const ten = await run({ TIMING: '1' });
      assert.equal(ten.out, plain.out, 'standard output is the report alone');
      const rows = (err: string) => err.trim().split('\n').slice(2).map((l) => l.split(' | ')[0].trim());
      assert.match(ten.err, /^Rule +\| Time \(ms\) \| Relative\n:-+\|-+:\|-+:\n/);
      assert.equal(rows(ten.err).length, 10);
      const all = rows((await run({ TIMING: 'all' })).err);
      assert.deepEqual(all.filter((r) => !r.startsWith('(shared)')).sort(), [...RULE_IDS].sort(), 'every built-in rule ran and is listed');
      const off = rows((await run({ TIMING: 'all' }, ['--rule', 'schema:off'])).err);
      assert.ok(!off.includes('schema'), 'a rule that is off everywhere does not run, so is not listed');
    });

    it('says so when the cache answered and no rule ran', async () => {
      const env = { TIMING: 'all' };
      const files = new Map([[`${WS}/suite/a.litmus.json`, CASE]]);
      assert.match((await run(env, ['--cache'], files)).err, /^Rule /);
      assert.equal((await run(env, ['--cache'], files)).err, 'no rule ran (the cache answered)\n');
    });
  });
});
