import assert from 'node:assert/strict';
import { memoryFileSystem, type LintDiagnostic } from '../../src/core';
import { createWorkspaceState, type GroupResult } from '../../src/server/workspace-state';

/**
 * After an edit, a group's result is its last one with the re-judged files' lists replaced
 * (GroupResult.delta), so the server publishes and counts those files alone. Whatever the path,
 * the result must be what a fresh server computes for the same files.
 */
const WS = 'file:///ws';
const suite = (fam: string, ids: string[]) =>
  JSON.stringify({ suite: fam, cases: ids.map((id) => ({ instance_id: id, arm: 'benign', family: fam, task: 't', correct_resolution_signature: id, paired_with: `${id}-twin` })) });

function files(): Record<string, string> {
  const out: Record<string, string> = { [`${WS}/litmus.config.json`]: '{}' };
  for (let i = 0; i < 8; i++) out[`${WS}/s${i}.litmus.json`] = suite(`f${i}`, [`a${i}`, `b${i}`]);
  return out;
}

const shape = (byUri: ReadonlyMap<string, readonly LintDiagnostic[]>) =>
  [...byUri].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([uri, ds]) => [uri, ds.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`)]);

async function fresh(texts: Record<string, string>): Promise<GroupResult> {
  const state = createWorkspaceState(memoryFileSystem(texts), { caching: () => true });
  state.setFolders([WS]);
  return (await state.lint(WS, () => false))!;
}

describe('edit deltas in the language server', () => {
  it('replaces only the re-judged files, and equals a fresh lint of the same files', async () => {
    const texts = files();
    const state = createWorkspaceState(memoryFileSystem(texts), { caching: () => true });
    state.setFolders([WS]);
    const first = (await state.lint(WS, () => false))!;
    assert.equal(first.delta, undefined, 'a first lint has nothing to be relative to');

    // s1 takes s4's id: both are re-judged, the other files keep their very lists.
    const edited = suite('f1', ['a1', 'a4']);
    state.open(`${WS}/s1.litmus.json`, edited, 2);
    const second = (await state.lint(WS, () => false))!;
    assert.ok(second.delta, 'an edit of one file is a delta');
    assert.equal(second.delta.since, first.byUri);
    assert.ok(second.delta.changed.has(`${WS}/s1.litmus.json`) && second.delta.changed.has(`${WS}/s4.litmus.json`));
    for (const [uri, list] of second.byUri) if (!second.delta.changed.has(uri)) assert.equal(list, first.byUri.get(uri), uri);
    assert.ok([...second.byUri.keys()].some((uri) => !second.delta!.changed.has(uri)), 'every file counted as changed');
    assert.deepEqual(shape(second.byUri), shape((await fresh({ ...texts, [`${WS}/s1.litmus.json`]: edited })).byUri));
    // The earlier result is untouched: s4 had no duplicate-id then.
    assert.equal(first.byUri.get(`${WS}/s4.litmus.json`)!.filter((d) => d.code === 'duplicate-id').length, 0);
    assert.equal(second.byUri.get(`${WS}/s4.litmus.json`)!.filter((d) => d.code === 'duplicate-id').length, 1);

    // How often an edit's lint asks whether it was cancelled: the last time is after the linter ran.
    let asks = 0;
    state.change(`${WS}/s3.litmus.json`, suite('f3', ['a3', 'b3', 'c3']), 2);
    assert.ok(await state.lint(WS, () => (asks++, false)));
    const after = (await state.lint(WS, () => false))!;

    // A lint cancelled at that last question: the linter moved on, but no result was kept. The next
    // result cannot be made from a map the group never showed, so it is made whole.
    state.change(`${WS}/s1.litmus.json`, suite('f1', ['a1', 'b1']), 3);
    let asked = 0;
    const cancelled = await state.lint(WS, () => ++asked >= asks);
    assert.equal(cancelled, undefined);
    assert.equal(asked, asks, 'cancelled at the last question, after the linter ran');
    state.change(`${WS}/s2.litmus.json`, suite('f2', ['a2', 'a3']), 4);
    const third = (await state.lint(WS, () => false))!;
    assert.equal(third.delta, undefined);
    const now = {
      ...texts,
      [`${WS}/s1.litmus.json`]: suite('f1', ['a1', 'b1']),
      [`${WS}/s2.litmus.json`]: suite('f2', ['a2', 'a3']),
      [`${WS}/s3.litmus.json`]: suite('f3', ['a3', 'b3', 'c3']),
    };
    assert.deepEqual(shape(third.byUri), shape((await fresh(now)).byUri));
    assert.notDeepEqual(shape(third.byUri), shape(after.byUri));
    // And the one after it is a delta again.
    state.change(`${WS}/s2.litmus.json`, suite('f2', ['a2', 'b2']), 5);
    const fourth = (await state.lint(WS, () => false))!;
    assert.equal(fourth.delta?.since, third.byUri);
    assert.deepEqual(shape(fourth.byUri), shape((await fresh({ ...now, [`${WS}/s2.litmus.json`]: suite('f2', ['a2', 'b2']) })).byUri));
  });
});
