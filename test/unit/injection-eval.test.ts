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
