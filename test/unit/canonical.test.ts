import assert from 'node:assert/strict';
import { canonicalHash, canonicalize, canonicalizeUnder, groupByCanonical, isPlainRubric, PLAIN_RUBRIC, rubricEqual, rubricId, rubricIndex, type Rubric } from '../../src/core/model/canonical';
import { hintPart } from '../../src/core/model/duplicate';
import { parseJson } from '../../src/core/text/parse';
import { getNodeValue } from 'jsonc-parser';

const fromText = (text: string): unknown => getNodeValue(parseJson(text).roots[0].node!);

describe('canonical forms', () => {
  it('ignores key order at every depth', () => {
    assert.equal(canonicalize({ b: 1, a: { d: [1, 2], c: 'x' } }), canonicalize({ a: { c: 'x', d: [1, 2] }, b: 1 }));
  });

  it('writes keys in code-unit order, as sort() orders them, for objects of few keys and of many', () => {
    const names = ['b', 'a', 'B', 'é', 'aa', 'a b', '10', '9', '', 'Z', 'z', '\u{1F600}', 'ß', '_', '$', 'ab', 'ba', 'x-y', 'x_y', 'A'];
    for (let n = 2; n <= names.length; n++) {
      for (let shift = 0; shift < names.length; shift++) {
        const keys = Array.from({ length: n }, (_, i) => names[(i * 7 + shift) % names.length]).filter((k, i, a) => a.indexOf(k) === i);
        const value = Object.fromEntries(keys.map((k, i) => [k, i]));
        const want = '{' + [...keys].sort().map((k) => `${JSON.stringify(k)}:${value[k]}`).join(',') + '}';
        assert.equal(canonicalize(value), want);
        assert.equal(canonicalizeUnder(value, { ignoreKeys: [], unorderedArrays: true, foldCase: false }), want);
      }
    }
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

describe('canonical forms under a rubric (FORMAT §3b)', () => {
  const rubric = (r: Partial<Rubric>): Rubric => ({ ...PLAIN_RUBRIC, ...r });

  it('is plain canonical form under the plain rubric', () => {
    assert.equal(canonicalizeUnder({ b: [1, 2], a: ' x ' }, PLAIN_RUBRIC), canonicalize({ a: 'x', b: [1.0, 2] }));
    assert.ok(isPlainRubric(rubric({})));
    assert.equal(rubricId(rubric({ ignoreKeys: ['b', 'a', 'a'] })), rubricId(rubric({ ignoreKeys: ['a', 'b'] })));
  });

  it('drops ignored keys at any depth, also inside arrays', () => {
    const r = rubric({ ignoreKeys: ['timestamp'] });
    assert.equal(canonicalizeUnder({ to: 'bob', timestamp: 1, calls: [{ t: 'x', timestamp: 2 }] }, r), canonicalizeUnder({ to: 'bob', calls: [{ t: 'x', timestamp: 9 }] }, r));
    assert.notEqual(canonicalizeUnder({ to: 'bob' }, r), canonicalizeUnder({ to: 'eve' }, r));
  });

  it('compares every array as a multiset with unorderedArrays, repeats counted', () => {
    const r = rubric({ unorderedArrays: true });
    assert.equal(canonicalizeUnder([{ calls: ['a', 'b'] }, 2], r), canonicalizeUnder([2, { calls: ['b', 'a'] }], r));
    assert.notEqual(canonicalizeUnder(['a', 'a', 'b'], r), canonicalizeUnder(['a', 'b', 'b'], r));
  });

  it('folds the case of string values, never of object keys', () => {
    const r = rubric({ foldCase: true });
    assert.equal(canonicalizeUnder({ to: 'Bob', tag: ['STRASSE'] }, r), canonicalizeUnder({ to: 'bob', tag: ['straße'] }, r));
    assert.notEqual(canonicalizeUnder({ To: 'bob' }, r), canonicalizeUnder({ to: 'bob' }, r));
  });

  it('finds matches by hash, an item of another rubric only when equal under both', () => {
    const fold = rubric({ foldCase: true });
    const items = [
      { v: 'Send', r: PLAIN_RUBRIC },
      { v: 'send', r: fold },
      { v: 'SEND', r: fold },
      { v: 'send', r: PLAIN_RUBRIC },
    ];
    const index = rubricIndex(items, (i) => i.v, (i) => i.r);
    const names = (buckets: { v: string }[][]) => buckets.flat().map((i) => i.v).sort();
    // Two folding cases agree; a plain case agrees with a folding one only when equal as written.
    assert.deepEqual(names(index.matchesOf(items[1])), ['SEND', 'send', 'send']);
    assert.deepEqual(names(index.matchesOf(items[0])), ['Send']);
    assert.deepEqual(names(index.matchesOf(items[3])), ['send', 'send']);
    assert.deepEqual(names(index.lookup(' send ', PLAIN_RUBRIC)), ['send', 'send']);
    assert.deepEqual(index.lookup(undefined, fold), []);
    // alone: what matchesOf says (one bucket of the item itself), across rubrics too.
    assert.deepEqual(items.map((i) => index.alone(i)), [true, false, false, false]);
    assert.equal(index.alone({ v: 'send', r: PLAIN_RUBRIC }), true, 'an item not indexed');
    // rubricEqual, pair by pair, finds what a lookup finds.
    for (const q of [...items, { v: ' SEND', r: fold }, { v: 'x', r: PLAIN_RUBRIC }]) {
      const looked = new Set(index.lookup(q.v, q.r).flat());
      assert.deepEqual(
        items.map((i) => rubricEqual(q.v, q.r, i.v, i.r)),
        items.map((i) => looked.has(i)),
        `${q.v} under ${rubricId(q.r) || 'plain'}`,
      );
    }
    assert.equal(rubricEqual(undefined, fold, undefined, fold), false, 'an absent value equals nothing');
  });

  it('says an item is alone from its own bucket under one rubric, as matchesOf would', () => {
    const items = [{ v: { a: 1, b: [2] } }, { v: { b: [2], a: 1.0 } }, { v: ' x ' }, { v: undefined }, { v: 'y' }];
    const index = rubricIndex(items, (i) => i.v, () => PLAIN_RUBRIC);
    const fromMatches = items.map((i) => {
      const found = index.matchesOf(i);
      return found.length === 0 || (found.length === 1 && found[0].length === 1);
    });
    assert.deepEqual(fromMatches, [false, false, true, true, true]);
    assert.deepEqual(items.map((i) => index.alone(i)), fromMatches);
  });

  it('answers alike when the caller says where an item is, and ignores a wrong position', () => {
    const fold: Rubric = { ignoreKeys: [], unorderedArrays: false, foldCase: true };
    const items = [{ v: 'Send', r: PLAIN_RUBRIC }, { v: 'send', r: fold }, { v: 'x', r: PLAIN_RUBRIC }, { v: 'SEND', r: fold }];
    const answers = (at: (k: number) => number | undefined) => {
      const index = rubricIndex(items, (i) => i.v, (i) => i.r);
      return items.map((i, k) => [index.alone(i, at(k)), index.matchesOf(i, at(k)).flat().map((m) => m.v), index.keyOf(i, at(k))]);
    };
    const unsaid = answers(() => undefined);
    assert.deepEqual(unsaid.map((a) => a[0]), [true, false, true, false]);
    assert.deepEqual(answers((k) => k), unsaid);
    // Every item said to stand where another one does: the answers are still each item's own.
    assert.deepEqual(answers((k) => (k + 1) % items.length), unsaid);
    assert.deepEqual(answers(() => 99), unsaid);
  });
});

describe('duplicate hint parts', () => {
  it('are equal whenever the canonical texts are (the pre-filter never hides a copy)', () => {
    const values: unknown[] = ['send', ' send ', 'Send', '"send"', '1', 1, 1.0, { a: 1, b: 2 }, { b: 2, a: 1 }, [1], null, undefined, '', ' '];
    for (const a of values) {
      for (const b of values) {
        if (canonicalize(a) === canonicalize(b)) assert.equal(hintPart(a), hintPart(b), `${JSON.stringify(a)} / ${JSON.stringify(b)}`);
      }
    }
    assert.notEqual(hintPart('send'), hintPart('Send'));
  });
});
