import assert from 'node:assert/strict';
import { canonicalHash, canonicalize, groupByCanonical } from '../../src/core/model/canonical';
import { parseJson } from '../../src/core/text/parse';
import { getNodeValue } from 'jsonc-parser';

const fromText = (text: string): unknown => getNodeValue(parseJson(text).roots[0].node!);

describe('canonical forms', () => {
  it('ignores key order at every depth', () => {
    assert.equal(canonicalize({ b: 1, a: { d: [1, 2], c: 'x' } }), canonicalize({ a: { c: 'x', d: [1, 2] }, b: 1 }));
  });

  it('keeps array order', () => {
    assert.notEqual(canonicalize([1, 2]), canonicalize([2, 1]));
  });

  it('treats 1, 1.0, 1e0 and 10e-1 as one number, and -0 as 0', () => {
    const forms = ['1', '1.0', '1e0', '10e-1', '1.00E+0'].map((t) => canonicalize(fromText(`{"n": ${t}}`)));
    assert.equal(new Set(forms).size, 1);
    assert.equal(canonicalize(fromText('-0')), canonicalize(fromText('0')));
    assert.notEqual(canonicalize(fromText('1.5')), canonicalize(fromText('1')));
  });

  it('ignores whitespace and comments between tokens', () => {
    const a = fromText('{"tool":"send","args":{"to":"bob"}}');
    const b = fromText('{\n  // the call\n  "args" : { "to" : "bob" } ,\r\n "tool":\t"send"\n}');
    assert.equal(canonicalize(a), canonicalize(b));
  });

  it('trims strings, at the top and inside values, but keeps inner spaces', () => {
    assert.equal(canonicalize('  send_email(to=bob)\n'), canonicalize('send_email(to=bob)'));
    assert.equal(canonicalize({ a: ' x ' }), canonicalize({ a: 'x' }));
    assert.notEqual(canonicalize('send email'), canonicalize('sendemail'));
  });

  it('never equates a string with the value it spells, or null with a missing value', () => {
    assert.notEqual(canonicalize('1'), canonicalize(1));
    assert.notEqual(canonicalize('true'), canonicalize(true));
    assert.notEqual(canonicalize('{"a":1}'), canonicalize({ a: 1 }));
    assert.equal(canonicalize(undefined), undefined);
    assert.equal(canonicalize(null), 'null');
  });

  it('hashes equal values equally and different values differently', () => {
    assert.equal(canonicalHash({ a: 1, b: 2 }), canonicalHash({ b: 2.0, a: 1 }));
    assert.notEqual(canonicalHash({ a: 1 }), canonicalHash({ a: 2 }));
    assert.match(canonicalHash('x')!, /^[0-9a-f]{16}$/);
  });

  it('groups items by canonical value and leaves out items without one', () => {
    const groups = groupByCanonical([{ v: { a: 1 } }, { v: undefined }, { v: { a: 1.0 } }, { v: 'a' }], (x) => x.v);
    assert.deepEqual([...groups.values()].map((g) => g.length).sort(), [1, 2]);
  });
});
