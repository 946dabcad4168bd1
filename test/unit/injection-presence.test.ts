import assert from 'node:assert/strict';
import { WordSets } from '../../src/core/injection/presence';

/** The bit mask must answer as a scan of the words would: does the set have a word in the text? */
describe('injection word sets', () => {
  const verbs = new Set(['ignore', 'forget']);
  const nouns = new Set(['instructions', 'rules']);
  const both = new Set(['ignore', 'rules']);
  const sets = new WordSets([verbs, nouns, both]);
  const unlisted = new Set(['user']);
  const texts = [[], ['ignore'], ['rules', 'apply'], ['the', 'user', 'forgets'], ['forget', 'the', 'instructions', 'user']];

  for (const ws of texts) {
    it(`answers like a scan for [${ws.join(' ')}]`, () => {
      const occurs = sets.of(ws);
      for (const set of [verbs, nouns, both, unlisted]) assert.equal(occurs(set), ws.some((w) => set.has(w)));
    });
  }

  it('refuses more sets than bits, and answers for sets in both masks', () => {
    assert.throws(() => new WordSets(Array.from({ length: 63 }, (_, i) => new Set([String(i)]))));
    const sets = Array.from({ length: 62 }, (_, i) => new Set([`w${i}`, 'shared']));
    const of = new WordSets(sets).of(['w3', 'w40']);
    assert.deepEqual(sets.map((s, i) => [i, of(s)]).filter(([, x]) => x).map(([i]) => i), [3, 40]);
    const shared = new WordSets(sets).of(['shared']);
    assert.ok(sets.every((s) => shared(s)));
  });
});
