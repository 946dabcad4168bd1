import assert from 'node:assert/strict';
import { createDocument } from '../../src/core/model/document';
import { setValue, setValueFix } from '../../src/core/text/edit';
import { defineLazy, lazyDocumentFix, lazyFix } from '../../src/core/text/fix';

describe('lazy keys (defineLazy, lazyFix)', () => {
  it('computes a value the first time it is read, once, and each object its own', () => {
    let runs = 0;
    const a = lazyFix('A', true, () => {
      runs++;
      return [{ uri: 'file:///a', changes: [{ offset: 1, length: 0, content: 'a' }] }];
    });
    const b = lazyFix('B', false, () => [{ uri: 'file:///b', changes: [] }]);
    assert.equal(runs, 0, 'nothing is computed before it is read');
    assert.equal(a.changes[0].uri, 'file:///a');
    assert.equal(b.changes[0].uri, 'file:///b');
    assert.equal(a.changes, a.changes, 'the same value every time');
    assert.equal(runs, 1);
  });

  it('reads as an object literal with a getter: an own enumerable key, in its place, copied by spread and written by JSON', () => {
    const literal = { title: 'T', unambiguous: true, get changes() { return [{ uri: 'u', changes: [] }]; } };
    const fix = lazyFix('T', true, () => [{ uri: 'u', changes: [] }]);
    assert.deepEqual(Object.keys(fix), Object.keys(literal));
    assert.deepEqual(Object.getOwnPropertyDescriptor(fix, 'changes')?.enumerable, true);
    assert.equal(JSON.stringify(fix), JSON.stringify(literal));
    const copy = { ...fix, unambiguous: false };
    assert.deepEqual(copy, { title: 'T', unambiguous: false, changes: [{ uri: 'u', changes: [] }] });
    // A key set later (a rule marking what a fix claims) comes after it, as on the literal.
    fix.changesClaim = true;
    assert.deepEqual(Object.keys(fix), ['title', 'unambiguous', 'changes', 'changesClaim']);
  });

  it('calls a shared computation with the values it was given, each object with its own, and lets them go once computed', () => {
    const sum = (a: number, b: { add: number }) => a + b.add;
    const x = defineLazy({} as { v: number }, 'v', sum, 1, { add: 10 });
    const y = defineLazy({} as { v: number }, 'v', sum, 2, { add: 20 });
    assert.equal(y.v, 22);
    assert.equal(x.v, 11);
    // What the computation was given is not kept past it: a fix's rule data is freed once placed.
    const big = { add: 5 };
    const z = defineLazy({} as { v: number }, 'v', sum, 3, big);
    const held = () => Object.getOwnPropertySymbols(z).map((k) => (z as unknown as Record<symbol, { a: unknown; b: unknown }>)[k]);
    assert.deepEqual(held().map((s) => s.b), [big], 'kept until read');
    assert.equal(z.v, 8);
    assert.deepEqual(held().map((s) => [s.a, s.b]), [[undefined, undefined]], 'let go once computed');
  });

  it('a document fix computes its changes on the document it was made with, tied to its version', () => {
    const doc = { uri: 'file:///s.litmus.json', version: 3 };
    let seen: unknown;
    const fix = lazyDocumentFix('Set it', true, doc, (d) => {
      seen = d;
      return [{ offset: 4, length: 1, content: 'x' }];
    });
    assert.equal(seen, undefined, 'nothing is computed before it is read');
    assert.deepEqual(fix.changes, [{ uri: 'file:///s.litmus.json', version: 3, changes: [{ offset: 4, length: 1, content: 'x' }] }]);
    assert.equal(seen, doc);
  });

  it('a setValue fix is setValue on the document it was made with, tied to its version, computed when read', () => {
    const text = '{\n  "cases": [\n    { "instance_id": "a", "paired_with": "zz" }\n  ]\n}\n';
    const doc = createDocument('file:///ws/s.litmus.json', text, undefined, 4)!;
    const fix = setValueFix('Change to `b`', true, doc, 0, ['cases', 0, 'paired_with'], 'b');
    assert.deepEqual(Object.keys(fix), ['title', 'unambiguous', 'changes']);
    const pending = () => Object.getOwnPropertySymbols(fix).map((k) => (fix as unknown as Record<symbol, { compute: unknown }>)[k].compute !== undefined);
    assert.deepEqual(pending(), [true], 'nothing is computed before it is read');
    assert.deepEqual(fix.changes, [{ uri: doc.uri, version: 4, changes: setValue(doc, 0, ['cases', 0, 'paired_with'], 'b') }]);
    assert.match(text.slice(0, fix.changes[0].changes[0].offset) + fix.changes[0].changes[0].content, /"paired_with": "b"$/);
    assert.deepEqual(pending(), [false]);
  });

  it('computes again after a computation that threw', () => {
    let fail = true;
    const o = {} as { v: number };
    defineLazy(o, 'v', () => {
      if (fail) throw new Error('not yet');
      return 7;
    });
    assert.throws(() => o.v, /not yet/);
    fail = false;
    assert.equal(o.v, 7);
  });
});
