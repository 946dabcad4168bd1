import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { closest, editDistance, nameIndex } from '../../src/core/text/similar';

/** Ids as generated suites write them: a family number and an arm, all of one length. */
const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `fam${String(i).padStart(5, '0')}-${i % 2 ? 'b' : 'a'}${i % 3}`);

/** The textbook table, no cut-off and nothing skipped. */
function plainDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

describe('edit distance', () => {
  it('is the textbook distance up to the limit, and above the limit past it, whatever the two share at their ends, in ASCII and beyond', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab-]{0,5}$/), fc.stringMatching(/^[abcé-]{0,9}$/), fc.stringMatching(/^[abcé-]{0,9}$/), fc.stringMatching(/^[ab-]{0,5}$/), fc.integer({ min: 0, max: 4 }), (pre, x, y, post, limit) => {
        const a = pre + x + post;
        const b = pre + y + post;
        const want = plainDistance(a, b);
        const got = editDistance(a, b, limit);
        if (want <= limit) assert.equal(got, want, JSON.stringify({ a, b, limit }));
        else assert.ok(got > limit, JSON.stringify({ a, b, limit, got }));
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});

describe('did-you-mean over the ids of a workspace', () => {
  it('is `closest` itself over a set of up to 2,000 names', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-c]{1,6}$/), { maxLength: 60 }), fc.stringMatching(/^[a-c]{1,6}$/), (names, name) => {
        assert.deepEqual(nameIndex(names).closest(name), closest(name, names));
      }),
      { numRuns: 500, seed: 8 },
    );
    const some = ids(2000);
    for (const q of ['fam00017-b1x', 'xam00017-b2', 'fam0001-b1', 'nothing-like-it']) assert.deepEqual(nameIndex(some).closest(q), closest(q, some));
  });

  it('past 2,000 names, finds a typo at either end among the nearest names', () => {
    // Random ids: the whole set has one closest name for a one-character typo.
    let seed = 7;
    const letter = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return String.fromCharCode(97 + ((seed >>> 0) % 26));
    };
    const many = [...new Set(Array.from({ length: 50_000 }, () => Array.from({ length: 10 }, letter).join('')))];
    const index = nameIndex(many);
    for (const id of [many[5], many[20_000], many[many.length - 1]]) {
      const end = id.slice(0, -1) + (id.endsWith('z') ? 'y' : 'z');
      const start = (id.startsWith('z') ? 'y' : 'z') + id.slice(1);
      for (const typo of [end, start, id.slice(0, -1), id + 'q']) {
        assert.deepEqual(index.closest(typo), closest(typo, many), typo);
        assert.ok(index.closest(typo).includes(id), typo);
      }
    }
    // Ties in the order the names were given, as the exact scan lists them.
    const id = many[100];
    const ordered = [id + 'b', ...many, id + 'a'];
    assert.deepEqual(nameIndex(ordered).closest(id + 'c'), [id + 'b', id, id + 'a']);
    assert.deepEqual(nameIndex(ids(10_000)).closest('zzzzzzzzzzzzzzzzzzz'), []);
  });

  it('past 2,000 names, suggests only plausible typos', () => {
    const many = ids(5_000);
    const index = nameIndex(many);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4999 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom('x', '', '77'), (i, at, insert) => {
        const id = many[i];
        const typo = id.slice(0, at) + insert + id.slice(at + 1);
        const limit = Math.max(1, Math.min(3, Math.floor(typo.length / 3)));
        const found = index.closest(typo);
        for (const f of found) assert.ok(editDistance(typo, f, limit) <= limit, `${typo} → ${f}`);
        // Every name suggested is as close as the closest of the whole set, or the whole set has a closer one.
        const best = closest(typo, many);
        if (found.length && best.length) assert.ok(editDistance(typo, found[0], 3) >= editDistance(typo, best[0], 3));
      }),
      { numRuns: 300, seed: 9 },
    );
  });
});
