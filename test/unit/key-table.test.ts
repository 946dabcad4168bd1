import assert from 'node:assert/strict';
import { emptyKeyTable, enter, reenter, type DocKeys, type KeyTable } from '../../src/core/model/doc-keys';
import { rng, type Rng } from '../helpers';

/**
 * The key table's shared keys (doc-keys.ts) against what its holders say: a document shares a key
 * exactly when another document holds it too, through any sequence of documents entered, moved to
 * new keys and dropped.
 */

const KEYS = ['i:a', 'i:b', 'f:x', 'f:y', 's:1', 's:2', 'd:p', 'd:q'];

function docKeys(r: Rng, uri: string): DocKeys {
  return { keys: new Set(KEYS.filter(() => r.chance(0.35))), self: uri, targets: new Set(), environmentsOnly: new Set(), seeds: [], injection: [] };
}

function holdersOf(table: KeyTable, key: string): string[] {
  const held = table.holders.get(key);
  return held === undefined ? [] : typeof held === 'string' ? [held] : [...held];
}

function expectedShared(table: KeyTable): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const key of table.holders.keys()) {
    const holders = holdersOf(table, key);
    if (holders.length < 2) continue;
    for (const uri of holders) (out.get(uri) ?? out.set(uri, new Set()).get(uri)!).add(key);
  }
  return out;
}

describe('key table', () => {
  it('knows, per document, the keys another document holds too, through entries, moves and drops', () => {
    let sharedSeen = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const r = rng(seed);
      const table = emptyKeyTable();
      const now = new Map<string, DocKeys>();
      const uris = ['a', 'b', 'c', 'd'].map((n) => `file:///ws/${n}.litmus.json`);
      for (let step = 0; step < 40; step++) {
        const uri = r.pick(uris);
        const was = now.get(uri);
        const roll = r.int(10);
        if (was && roll < 2) {
          enter(table, uri, was, true);
          now.delete(uri);
        } else {
          const next = docKeys(r, uri);
          if (was) reenter(table, uri, was, next);
          else enter(table, uri, next);
          now.set(uri, next);
        }
        const want = expectedShared(table);
        assert.deepEqual(
          [...table.shared].map(([u, ks]) => [u, [...ks].sort()]).sort(),
          [...want].map(([u, ks]) => [u, [...ks].sort()]).sort(),
          `seed ${seed} step ${step}`,
        );
        sharedSeen += want.size;
      }
    }
    assert.ok(sharedSeen > 2000, `only ${sharedSeen} documents sharing keys`);
  });
});
