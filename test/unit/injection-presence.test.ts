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

  it('refuses more sets than bits', () => {
    assert.throws(() => new WordSets(Array.from({ length: 32 }, (_, i) => new Set([String(i)]))));
  });
});
