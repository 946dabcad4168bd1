import assert from 'node:assert/strict';
import { escapePointerToken, formatPointer, nodeAtPointer, parseJson, parsePointer, pathAtOffset, pointerAtOffset } from '../../src/core';

const text = '{"a/b": {"m~n": [10, {"c": "x"}]}, "": 1, "list": ["p", "q"]}';
const root = parseJson(text).roots[0].node!;
const at = (pointer: string) => {
  const n = nodeAtPointer(root, pointer);
  return n ? text.slice(n.offset, n.offset + n.length) : undefined;
};

describe('JSON Pointer', () => {
  it('resolves pointers to nodes, with ~0 and ~1 escapes', () => {
    assert.equal(at(''), text);
    assert.equal(at('/a~1b/m~0n/0'), '10');
    assert.equal(at('/a~1b/m~0n/1/c'), '"x"');
    assert.equal(at('/'), '1', 'the empty key is a key like any other');
    assert.equal(at('/list/1'), '"q"');
  });

  it('decodes ~01 as ~1, not as /', () => {
    assert.deepEqual(parsePointer('/~01'), ['~1']);
    assert.deepEqual(parsePointer('/a~1b/m~0n'), ['a/b', 'm~n']);
  });

  it('rejects invalid pointers and pointers to nothing', () => {
    assert.equal(parsePointer('a/b'), undefined, 'must start with /');
    assert.equal(parsePointer('/a~2'), undefined, '~ must be ~0 or ~1');
    assert.equal(parsePointer('/a~'), undefined);
    assert.equal(at('/list/01'), undefined, 'leading zeros are not indices');
    assert.equal(at('/list/-'), undefined);
    assert.equal(at('/list/2'), undefined);
    assert.equal(at('/missing'), undefined);
    assert.equal(at('/list/0/deeper'), undefined, 'a string has no children');
    assert.equal(at('a~1b'), undefined);
  });

  it('finds the pointer of the value under an offset', () => {
    assert.equal(pointerAtOffset(root, text.indexOf('10')), '/a~1b/m~0n/0');
    assert.equal(pointerAtOffset(root, text.indexOf('"x"') + 1), '/a~1b/m~0n/1/c');
    assert.equal(pointerAtOffset(root, text.indexOf('"q"')), '/list/1');
    assert.deepEqual(pathAtOffset(root, text.indexOf('"list"') + 2), ['list'], 'on a key: the property');
    assert.equal(pointerAtOffset(root, text.length + 5), undefined);
  });

  it('round-trips paths through format and parse', () => {
    const path = ['a/b', 'm~n', 1, 'c'];
    const pointer = formatPointer(path);
    assert.equal(pointer, '/a~1b/m~0n/1/c');
    assert.deepEqual(parsePointer(pointer), path.map(String));
    assert.equal(escapePointerToken('~/'), '~0~1');
  });
});
