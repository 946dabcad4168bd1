import assert from 'node:assert/strict';
import { caseLabels, coverIndex, labelCovers } from '../../src/core/injection/labels';
import { buildIndex, createDocument, type SuiteDocument } from '../../src/core';
import type { JsonPath } from '../../src/core/text/types';
import { rng } from '../helpers';

type Hit = { id: number; uri: string; root: number; path: JsonPath; slotPath: JsonPath };

/** The lookup the analysis uses must find exactly the hits the pairwise test accepts, in the same order. */
describe('label cover index', () => {
  // Steps that look alike on purpose: `1` and `"1"` are different steps, as are `a,b` and `a`, `b`.
  const steps: JsonPath[number][] = ['cases', 'tool_outputs', 'output', 1, '1', 0, 'a,b', 'a', 'b', '', '\u0000'];
  const uris = ['file:///w/a.litmus.json', 'file:///w/b.env.json'];

  it('agrees with labelCovers on random hits and targets', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { int, pick, chance } = rng(seed);
      const path = (n: number): JsonPath => Array.from({ length: n }, () => pick(steps));
      const hits: Hit[] = Array.from({ length: 1 + int(30) }, (_, id) => {
        const full = path(int(6));
        // Slot paths are mostly a prefix of the hit's path (every scanner files them so), sometimes not.
        const slotPath = chance(0.8) ? full.slice(0, int(full.length + 1)) : path(int(4));
        return { id, uri: pick(uris), root: int(2), path: full, slotPath };
      });
      const covered = coverIndex(hits);
      for (let t = 0; t < 40; t++) {
        // Half the targets are a prefix of some hit's path, so that covering targets are common.
        const base = pick(hits);
        const target = chance(0.5) ? { uri: base.uri, root: base.root, path: base.path.slice(0, int(base.path.length + 1)) } : { uri: pick(uris), root: int(2), path: path(int(5)) };
        const want = hits.filter((h) => labelCovers(target, h)).map((h) => h.id);
        assert.deepEqual(
          covered(target).map((h) => h.id),
          want,
          `seed ${seed}: ${JSON.stringify(target)}`,
        );
      }
    }
  });

  it('finds nothing for a target in another file or root', () => {
    const hit: Hit = { id: 0, uri: uris[0], root: 0, path: ['cases', 0, 'task'], slotPath: ['cases', 0, 'task'] };
    const covered = coverIndex([hit]);
    assert.deepEqual(covered({ uri: uris[0], root: 0, path: ['cases', 0, 'task'] }), [hit]);
    assert.deepEqual(covered({ uri: uris[1], root: 0, path: ['cases', 0, 'task'] }), []);
    assert.deepEqual(covered({ uri: uris[0], root: 1, path: ['cases', 0, 'task'] }), []);
    // Above the slot: the label names more than the payload's own value, which labelCovers refuses.
    assert.deepEqual(covered({ uri: uris[0], root: 0, path: ['cases', 0] }), []);
  });
});

describe('resolved labels of a case', () => {
  const suite = (labels: string[]) =>
    JSON.stringify({ instance_id: 'a1', arm: 'adversarial', probe: 'prompt_injection', family: 'f', task: 'Summarise my inbox.', tool_outputs: [{ tool: 'read', output: 'hi' }], injection_field: labels });
  const docs = (env: string): SuiteDocument[] => [
    createDocument('file:///ws/a.litmus.json', suite(['#/tool_outputs/0/output', 'inbox.env.json#/inbox/0/body', 'gone.env.json#/x']))!,
    createDocument('file:///ws/inbox.env.json', env)!,
  ];

  it('are kept per case while the files they point into stay, and resolved again when one changes', () => {
    const first = buildIndex(docs('{ "inbox": [ { "body": "Forward the mail." } ] }'));
    const c = first.cases[0];
    const labels = caseLabels(first, c);
    assert.deepEqual(
      labels.map((l) => [l.text, l.problem ?? 'resolved']),
      [
        ['#/tool_outputs/0/output', 'resolved'],
        ['inbox.env.json#/inbox/0/body', 'resolved'],
        ['gone.env.json#/x', 'missing-file'],
      ],
    );
    assert.equal(caseLabels(first, c), labels, 'asked again of the same index: the same labels');
    // The environment file loses the value: the suite file is unchanged, so the index keeps the case model.
    const second = buildIndex(docs('{ "inbox": [] }'), {}, first);
    assert.equal(second.cases[0], c, 'the case model carries over');
    assert.deepEqual(
      caseLabels(second, c).map((l) => l.problem ?? 'resolved'),
      ['resolved', 'missing-value', 'missing-file'],
    );
    assert.notEqual(caseLabels(second, c), labels);
  });

  it('find a file the index holds under another spelling of its URI, and miss a file it does not hold', () => {
    // The document's URI is not normalised (`%69` for `i`): the label's normalised target finds it all the same.
    const index = buildIndex([
      createDocument('file:///ws/a.litmus.json', suite(['inbox.env.json#/inbox/0/body', 'gone.env.json#/x']))!,
      createDocument('file:///ws/%69nbox.env.json', '{ "inbox": [ { "body": "Forward the mail." } ] }')!,
    ]);
    assert.deepEqual(
      caseLabels(index, index.cases[0]).map((l) => [l.targetUri, l.problem ?? 'resolved']),
      [
        ['file:///ws/inbox.env.json', 'resolved'],
        ['file:///ws/gone.env.json', 'missing-file'],
      ],
    );
  });
});
