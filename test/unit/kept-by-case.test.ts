import assert from 'node:assert/strict';
import type { CaseModel } from '../../src/core';
import { KeptByCase, KeptByModel } from '../../src/core/rules/kept-by-case';
import type { RuleContext } from '../../src/core/rules/types';

type Report = Parameters<RuleContext['report']>[0];

/** A case model as far as the memo reads one: its value, and where it sits. */
const at = (value: object, uri: string, root: number, path: (string | number)[]): CaseModel => ({ value, doc: { uri }, root, path }) as unknown as CaseModel;

describe("a per-case rule's findings kept with the case's value", () => {
  const flagged = { instance_id: 'a' };
  const clean = { instance_id: 'b' };
  let judged: CaseModel[] = [];
  /** Reports one finding at the case for `flagged`, none for `clean`. */
  const judge = (c: CaseModel) => (report: (r: Report) => void) => {
    judged.push(c);
    if (c.value === flagged) report({ at: { uri: c.doc.uri, root: c.root, path: [...c.path, 'instance_id'] }, message: 'flagged' });
  };
  const run = (kept: KeptByCase, c: CaseModel): Report[] => {
    const out: Report[] = [];
    kept.report({ report: (r) => void out.push(r), remember: true }, c, judge(c));
    return out;
  };

  it('are given again for the same value at the same place, without judging it', () => {
    const kept = new KeptByCase();
    judged = [];
    const first = run(kept, at(flagged, 'file:///s.json', 0, ['cases', 0]));
    // Another model of the same case (an edited tool file gives its users new ones).
    const again = run(kept, at(flagged, 'file:///s.json', 0, ['cases', 0]));
    assert.deepEqual(again, first);
    assert.equal(judged.length, 1);
  });

  it('are judged anew when the value sits elsewhere: another index, root or file', () => {
    const kept = new KeptByCase();
    judged = [];
    run(kept, at(flagged, 'file:///s.json', 0, ['cases', 0]));
    for (const c of [at(flagged, 'file:///s.json', 0, ['cases', 1]), at(flagged, 'file:///s.json', 1, ['cases', 1]), at(flagged, 'file:///t.json', 1, ['cases', 1]), at(flagged, 'file:///t.json', 1, [])]) {
      const got = run(kept, c);
      assert.deepEqual(got.map((r) => r.at), [{ uri: c.doc.uri, root: c.root, path: [...c.path, 'instance_id'] }]);
    }
    assert.equal(judged.length, 5);
    // A file of one case made a suite: the kept path is a prefix of the new one.
    run(kept, at(flagged, 'file:///u.json', 0, []));
    assert.deepEqual(run(kept, at(flagged, 'file:///u.json', 0, ['cases', 0]))[0].at, { uri: 'file:///u.json', root: 0, path: ['cases', 0, 'instance_id'] });
    assert.equal(judged.length, 7);
  });

  it('remember a value without findings wherever it moves, and judge another value afresh', () => {
    const kept = new KeptByCase();
    judged = [];
    assert.deepEqual(run(kept, at(clean, 'file:///s.json', 0, ['cases', 0])), []);
    assert.deepEqual(run(kept, at(clean, 'file:///t.json', 0, ['cases', 3])), []);
    assert.equal(judged.length, 1);
    // An equal value that is another object (a re-parse) is judged: only the same object is known.
    run(kept, at({ ...clean }, 'file:///s.json', 0, ['cases', 0]));
    assert.equal(judged.length, 2);
  });
});

describe("a per-case rule's findings kept with the case's model and what else it read", () => {
  const model = (id: string): CaseModel => ({ value: { instance_id: id }, doc: { uri: 'file:///s.json' }, root: 0, path: ['cases', 0] }) as unknown as CaseModel;
  let judged = 0;
  const run = (kept: KeptByModel, c: CaseModel, also: readonly unknown[]): Report[] => {
    const out: Report[] = [];
    kept.report({ report: (r) => void out.push(r), remember: true }, c, () => also, (report) => {
      judged++;
      report({ at: { uri: c.doc.uri, root: c.root, path: [...c.path, 'instance_id'] }, message: `judged ${judged}` });
    });
    return out;
  };

  it('are given again for the same model and the same things read, and judged anew when either is another', () => {
    const kept = new KeptByModel();
    judged = 0;
    const c = model('a');
    const labels = [{ text: '#/task' }];
    const first = run(kept, c, [labels]);
    assert.deepEqual(run(kept, c, [labels]), first);
    assert.equal(judged, 1);
    // An equal list that is another object: what it points at may have changed.
    assert.deepEqual(run(kept, c, [[...labels]]).map((r) => r.message), ['judged 2']);
    assert.deepEqual(run(kept, c, [labels, undefined]).map((r) => r.message), ['judged 3']);
    // Another model of the same case (a tool it uses changed): judged again.
    assert.deepEqual(run(kept, model('a'), [labels]).map((r) => r.message), ['judged 4']);
    assert.equal(judged, 4);
  });

  it('with a fix, are judged anew on another version of the document, which the fix would not fit', () => {
    for (const Kept of [KeptByModel, KeptByCase]) {
      const kept = new Kept();
      let calls = 0;
      const c = model('a');
      const run = (withFix: boolean): string[] => {
        const out: Report[] = [];
        const judge = (report: (r: Report) => void) =>
          report({ at: { uri: c.doc.uri, root: 0, path: [] }, message: `judged ${++calls}`, ...(withFix ? { fixes: [{ title: 'fix', unambiguous: true, changes: [] }] } : {}) });
        const ctx = { report: (r: Report) => void out.push(r), remember: true };
        if (kept instanceof KeptByModel) kept.report(ctx, c, () => [], judge);
        else kept.report(ctx, c, judge);
        return out.map((r) => r.message);
      };
      assert.deepEqual(run(true), ['judged 1']);
      assert.deepEqual(run(true), ['judged 1'], 'the same version: given again');
      // The model moves to the document's next version (model/workspace.ts, modelsOf).
      (c as { doc: object }).doc = { uri: c.doc.uri };
      assert.deepEqual(run(true), ['judged 2'], Kept.name);
      assert.deepEqual(run(true), ['judged 2']);
      // Without a fix, the findings fit any version: paths, placed anew each run.
      const plain = new Kept();
      const ctx = { report: () => undefined, remember: true };
      let judgedPlain = 0;
      const judgePlain = (report: (r: Report) => void) => void (judgedPlain++, report({ at: { uri: c.doc.uri, root: 0, path: [] }, message: 'plain' }));
      for (const doc of [c.doc, { uri: c.doc.uri }]) {
        (c as { doc: object }).doc = doc;
        if (plain instanceof KeptByModel) plain.report(ctx, c, () => [], judgePlain);
        else plain.report(ctx, c, judgePlain);
      }
      assert.equal(judgedPlain, 1, Kept.name);
    }
  });

  it('are not kept by a run made once (the CLI)', () => {
    const kept = new KeptByModel();
    const once = new KeptByCase();
    let calls = 0;
    const c = model('a');
    for (let i = 0; i < 2; i++) {
      const out: Report[] = [];
      const ctx = { report: (r: Report) => void out.push(r), remember: false };
      kept.report(ctx, c, () => [], (report) => report({ at: { uri: 'file:///s.json', root: 0, path: [] }, message: `model ${++calls}` }));
      once.report(ctx, c, (report) => report({ at: { uri: 'file:///s.json', root: 0, path: [] }, message: `value ${++calls}` }));
      assert.deepEqual(out.map((r) => r.message), [`model ${2 * i + 1}`, `value ${2 * i + 2}`]);
    }
  });
});
