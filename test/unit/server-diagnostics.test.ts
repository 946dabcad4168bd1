import assert from 'node:assert/strict';
import type { LintDiagnostic } from '../../src/core';
import { sameDiagnostics, toLspDiagnostic } from '../../src/server/diagnostics';
import { rng, testDiagnostic } from '../helpers';

/** The server skips converting a list that `sameDiagnostics` calls equal: it must say so exactly when the LSP text is the same. */
describe('sameDiagnostics', () => {
  const uri = 'file:///w/a.litmus.json';
  const lsp = (list: readonly LintDiagnostic[]) => JSON.stringify(list.map(toLspDiagnostic));

  it('agrees with the LSP text the lists convert to, over random changes of every field', () => {
    const { int, pick, chance } = rng(11);
    const range = () => ({ start: { line: int(3), character: int(3) }, end: { line: int(3), character: int(3) } });
    const data = (): Record<string, unknown> | undefined =>
      pick([undefined, { pointer: '/a' }, { pointer: '/b' }, { usedBy: [{ id: 'x', arm: 'benign' }] }, { usedBy: [{ arm: 'benign', id: 'x' }] }, { usedBy: [{ id: 'x', arm: 'adversarial' }] }, { n: 1 }, { n: '1' }]);
    const diag = (): LintDiagnostic =>
      testDiagnostic(uri, {
        code: pick(['duplicate-id', 'injection-payload']),
        offset: int(3),
        length: int(2),
        range: range(),
        severity: pick(['error', 'warning', 'hint'] as const),
        message: pick(['a', 'b']),
        docsUrl: pick(['', 'https://example.org/a']),
        data: data(),
        related: chance(0.5) ? [] : [{ uri: pick([uri, 'file:///w/b.tools.json']), range: range(), message: pick(['r', 's']) }],
        fixes: chance(0.5) ? [] : [{ title: pick(['t', 'u']), unambiguous: chance(0.5), edits: [] }],
      });
    let same = 0;
    for (let i = 0; i < 4000; i++) {
      const a = Array.from({ length: int(3) }, diag);
      // Half the time the second list is a copy of the first with at most one field changed.
      const b = chance(0.5) ? a.map((d) => ({ ...d, range: { ...d.range }, related: d.related.map((r) => ({ ...r })), fixes: d.fixes.map((f) => ({ ...f })), data: d.data && JSON.parse(JSON.stringify(d.data)) })) : Array.from({ length: int(3) }, diag);
      if (b.length && chance(0.7)) {
        // One field of one diagnostic changed, perhaps to the value it had: every field the conversion reads.
        const d = b[int(b.length)];
        const r = d.related[0];
        const f = d.fixes[0];
        pick<() => void>([
          () => (d.code = pick(['duplicate-id', 'injection-payload'])),
          () => (d.offset = int(3)),
          () => (d.length = int(2)),
          () => (d.range = range()),
          () => (d.severity = pick(['error', 'warning', 'hint', 'info'] as const)),
          () => (d.message = pick(['a', 'b'])),
          () => (d.docsUrl = pick(['', 'https://example.org/a'])),
          () => (d.data = data()),
          () => r && (r.uri = pick([uri, 'file:///w/b.tools.json'])),
          () => r && (r.range = range()),
          () => r && (r.message = pick(['r', 's'])),
          () => f && (f.title = pick(['t', 'u'])),
          () => f && (f.unambiguous = chance(0.5)),
          () => d.related.push({ uri, range: range(), message: 'r' }),
          () => d.fixes.push({ title: 't', unambiguous: true, edits: [] }),
        ])();
      }
      const equal = lsp(a) === lsp(b);
      if (equal) same++;
      assert.equal(sameDiagnostics(a, b), equal, `${lsp(a)}\n${lsp(b)}`);
    }
    assert.ok(same > 500 && same < 3500, `both answers are exercised (${same} equal)`);
  });
});
