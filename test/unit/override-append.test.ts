import assert from 'node:assert/strict';
import { effectiveEnvironment, overrideProblem, overridesOf } from '../../src/core/model/environment';
import fc from 'fast-check';
import { overrideWorkspace } from '../hostile/arbitraries';
import { oracleCaseProblems } from '../hostile/check';
import { codes, json, lintFiles } from '../helpers';

/**
 * Issue 22, item 17: an override that appends with `-` adds index N (the array's length); a later
 * override into `/…/N/…` lands in what it appended. It used to be reported as landing nowhere, and
 * dropped from the effective environment.
 */
const ENV = { inbox: [{ body: 'a' }, { body: 'b' }, { body: 'c' }] };

function problems(overrides: Record<string, unknown>): (string | undefined)[] {
  const list = overridesOf({ environment_overrides: overrides }, []);
  return list.map((_, i) => overrideProblem(ENV, true, list, i));
}

function effective(overrides: Record<string, unknown>): unknown {
  // Plain data (the environment's copied objects have no prototype).
  return JSON.parse(JSON.stringify(effectiveEnvironment(ENV, true, overridesOf({ environment_overrides: overrides }, []))));
}

describe('appending environment overrides (issue 22)', () => {
  it('`-` appends at index N, and a later override into /…/N/… lands there', () => {
    const o = { '/inbox/-': { body: 'new', to: 'x' }, '/inbox/3/body': 'changed' };
    assert.deepEqual(problems(o), [undefined, undefined]);
    assert.deepEqual((effective(o) as typeof ENV).inbox[3], { body: 'changed', to: 'x' });
  });

  it('each append moves the end: two appends give indices 3 and 4, and 5 is still nowhere', () => {
    const o = { '/inbox/-': { body: 'd' }, '/inbox/~1-': 1, '/inbox/4': { body: 'e' }, '/inbox/4/body': 'E', '/inbox/6/body': 'x' };
    // '/inbox/~1-' is the key "/-" of inbox, an array: not an index.
    assert.deepEqual(problems(o), [undefined, 'bad-index', undefined, undefined, 'no-parent']);
    const env = effective(o) as typeof ENV;
    assert.deepEqual(env.inbox.map((m) => m.body), ['a', 'b', 'c', 'd', 'E']);
  });

  it('appends to an array an earlier override put there, and an append after a replacement counts from the new array', () => {
    const o = { '/inbox': [], '/inbox/-': { body: 'only' }, '/inbox/0/body': 'first' };
    assert.deepEqual(problems(o), [undefined, undefined, undefined]);
    assert.deepEqual((effective(o) as typeof ENV).inbox, [{ body: 'first' }]);
    const deeper = { '/inbox/-': { tags: [] }, '/inbox/3/tags/-': 'urgent', '/inbox/3/tags/0': 'URGENT', '/inbox/3/tags/1': 'late', '/inbox/3/tags/3': 'x' };
    assert.deepEqual(problems(deeper), [undefined, undefined, undefined, undefined, 'bad-index']);
    assert.deepEqual((effective(deeper) as { inbox: { tags: string[] }[] }).inbox[3].tags, ['URGENT', 'late']);
  });

  it('unresolved-reference does not report an override into an appended element', async () => {
    const adv = {
      instance_id: 'a1',
      arm: 'adversarial',
      probe: 'prompt_injection',
      family: 'f',
      task: 'Summarise my inbox.',
      resolution: 'decline',
      correct_resolution_signature: 'x',
      environment: 'e.env.json',
      environment_overrides: { '/inbox/-': { body: 'placeholder' }, '/inbox/3/body': 'Hi, lunch on Friday?' },
    };
    const { diagnostics } = await lintFiles({ 'e.env.json': json(ENV), 'a.litmus.json': json(adv) });
    assert.deepEqual(codes(diagnostics, 'unresolved-reference'), []);
  });

  it('any sequence of overrides lands where building the environment by hand puts it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(overrideWorkspace, async (c) => assert.deepEqual(await oracleCaseProblems(c), [])),
      { seed: 22, numRuns: 150 },
    );
  });
});

describe('an override after a root ("") override', () => {
  it('lands in the environment the root override made: "lands nowhere", not "no environment"', async () => {
    const c = { instance_id: 'g-1', arm: 'benign', family: 'f', task: 'Read it.', correct_resolution_signature: '1', environment_overrides: { '': { inbox: [] }, '/inbox/0': 'hi', '/calendar/x': 1 } };
    const ds = (await lintFiles({ 'c.litmus.json': json(c) })).diagnostics.filter((d) => d.code === 'unresolved-reference');
    assert.equal(ds.length, 1);
    assert.equal(ds[0].data?.pointer, '/calendar/x');
    assert.match(ds[0].message, /lands nowhere: the environment has nothing at `\/calendar`/);
    // Without the root override the case has no environment at all: said so.
    const bare = { ...c, environment_overrides: { '/calendar/x': 1 } };
    const [d] = (await lintFiles({ 'c.litmus.json': json(bare) })).diagnostics.filter((x) => x.code === 'unresolved-reference');
    assert.match(d.message, /an environment this case does not have/);
  });
});
