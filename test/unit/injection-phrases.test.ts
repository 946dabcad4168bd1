import assert from 'node:assert/strict';
import { PhraseGroups } from '../../src/core/injection/phrases';

/** The phrase index must answer as a search of ' ' + words.join(' ') + ' ' for ' ' + phrase + ' ' does. */
describe('injection phrase groups', () => {
  const groups = { agent: ['the agent must', 'note to the agent', 'agent'], prior: ['previous instructions'], odd: [' padded', 'two  spaces', 'pre-authorized'] };
  const index = new PhraseGroups(groups);
  const bySearch = (ws: string[]) => {
    const joined = ' ' + ws.join(' ') + ' ';
    return new Set(Object.entries(groups).filter(([, ps]) => ps.some((p) => joined.includes(' ' + p + ' '))).map(([g]) => g));
  };
  const cases = [
    [],
    ['the', 'agent', 'must', 'stop'],
    ['the', 'agent'],
    ['ignore', 'all', 'previous', 'instructions'],
    ['previous', 'instruction'],
    ['previous'],
    ['pre', 'authorized'],
    ['padded'],
    ['note', 'to', 'the', 'agents'],
    ['agents', 'must'],
  ];

  for (const ws of cases) {
    it(`finds the same groups as a substring search in [${ws.join(' ')}]`, () => {
      assert.deepEqual(index.find(ws), bySearch(ws));
    });
  }
});
