import assert from 'node:assert/strict';
import { URI, Utils } from 'vscode-uri';
import { normalizeUri, resolveRelative, resolveTarget } from '../../src/core';
import { compareCodePoints, comparePathOrder, dirnameUri, fileUri, joinUri, uriToPath } from '../../src/core/model/uri';
import { rng } from '../helpers';

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

describe('plain URIs (read off the string)', () => {
  // Tokens that make a URI plain and tokens that must not: escapes, spaces, colons, dot segments,
  // doubled and trailing slashes, a missing third slash.
  const tokens = ['a', 'B', '0', '.', '_', '-', '~', '/', '..', 'x.json', '%20', ' ', ':', '//', 'é'];

  function* samples(): Generator<string> {
    const { int, pick, chance } = rng(7);
    for (let i = 0; i < 20000; i++) {
      const n = int(8);
      let tail = '';
      for (let k = 0; k < n; k++) tail += pick(tokens);
      yield (chance(0.9) ? 'file:///' : 'file://') + tail;
    }
  }

  it('normalise, take the folder and join as vscode-uri does', () => {
    for (const uri of samples()) {
      let parsed: URI;
      try {
        parsed = URI.parse(uri);
      } catch {
        continue;
      }
      assert.equal(normalizeUri(uri), parsed.toString(), `normalizeUri(${JSON.stringify(uri)})`);
      assert.equal(dirnameUri(uri), Utils.dirname(parsed).toString(), `dirnameUri(${JSON.stringify(uri)})`);
      assert.equal(uriToPath(uri), parsed.fsPath, `uriToPath(${JSON.stringify(uri)})`);
      for (const name of ['t.tools.json', 'a b.json', '..', '.', 'sub', '~x']) {
        assert.equal(joinUri(uri, name), Utils.joinPath(parsed, name).toString(), `joinUri(${JSON.stringify(uri)}, ${JSON.stringify(name)})`);
      }
      for (const names of [[], ['a', 'b.json'], ['a', '..']]) {
        assert.equal(joinUri(uri, ...names), Utils.joinPath(parsed, ...names).toString(), `joinUri(${JSON.stringify(uri)}, ${names.join(', ')})`);
      }
    }
  });
});

describe('path order (comparePathOrder)', () => {
  const sorted = (uris: string[]) => [...uris].sort(comparePathOrder);

  it('compares folder by folder: a folder comes before the longer names it begins', () => {
    assert.deepEqual(sorted(['file:///s/a.litmus.json', 'file:///s/a-x.litmus.json', 'file:///s/a/y.litmus.json']), ['file:///s/a/y.litmus.json', 'file:///s/a-x.litmus.json', 'file:///s/a.litmus.json']);
  });

  it('compares decoded names by code point, not their percent-encoded URIs or UTF-16 units', () => {
    const z = normalizeUri(fileUri('/s/Z.litmus.json'));
    const b = normalizeUri(fileUri('/s/b.litmus.json'));
    const ae = normalizeUri(fileUri('/s/ä.litmus.json'));
    assert.ok(ae.includes('%C3%A4'), ae);
    assert.deepEqual(sorted([ae, b, z]), [z, b, ae]);
    // U+FF5E (fullwidth tilde) is below U+1F600 (a surrogate pair in UTF-16, whose units sort lower).
    const wide = normalizeUri(fileUri('/s/\uff5e.json'));
    const astral = normalizeUri(fileUri('/s/\u{1f600}.json'));
    assert.deepEqual(sorted([astral, wide]), [wide, astral]);
    assert.ok(compareCodePoints('\uff5e', '\u{1f600}') < 0 && compareCodePoints('\u{1f600}', '\uff5e') > 0);
    assert.equal(compareCodePoints('ab', 'ab'), 0);
    assert.ok(compareCodePoints('a', 'ab') < 0);
  });
});
