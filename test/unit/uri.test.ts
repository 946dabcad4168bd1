import assert from 'node:assert/strict';
import { normalizeUri, resolveRelative, resolveTarget } from '../../src/core';

describe('resolveTarget (kept per folder)', () => {
  // Files whose relative paths resolve alike share a cache entry; those whose names could change
  // the folder (an escaped slash) or whose URI carries a query or fragment must not.
  const files = [
    'file:///ws/suites/a.litmus.json',
    'file:///ws/suites/b.litmus.json',
    'file:///ws/suites/sub%2Fname.litmus.json',
    'file:///ws/suites/odd.litmus.json?x=1',
    'file:///ws/suites/frag.litmus.json#top',
    'file:///ws/other/c.litmus.json',
    'untitled:Untitled-1',
  ];
  const paths = ['../tools/t.tools.json', 't.tools.json', './x/../t.tools.json', '/abs/t.tools.json', '../../up.json', 'a%20b.json'];

  it('gives what resolving afresh gives, in any order of files and paths', () => {
    for (const order of [files, [...files].reverse()]) {
      for (const from of order) {
        for (const path of paths) {
          let fresh: string | Error;
          try {
            fresh = normalizeUri(resolveRelative(from, path));
          } catch (e) {
            fresh = e as Error;
          }
          if (fresh instanceof Error) assert.throws(() => resolveTarget(from, path));
          else assert.equal(resolveTarget(from, path), fresh, `${from} + ${path}`);
        }
      }
    }
  });
});
