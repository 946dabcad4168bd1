import assert from 'node:assert/strict';
import type { LintDiagnostic } from '../../src/core/lint/lint';
import { payloadHover } from '../../src/server/hover';

const range = { start: { line: 3, character: 10 }, end: { line: 3, character: 40 } };

function diag(code: string, data: Record<string, unknown>): LintDiagnostic {
  return { uri: 'file:///ws/m.tools.json', range, offset: 50, length: 30, severity: 'warning', code, message: 'payload here', docsUrl: '', related: [], fixes: [], data };
}

describe('payload hover', () => {
  const data = {
    pointer: '/tools/0/inputSchema/properties/cc/default',
    score: 0.9234,
    signals: [
      { id: 'instruction-override', explanation: 'tells the agent to ignore its instructions' },
      { id: 'hidden-text', explanation: 'carries invisible characters' },
    ],
    decoded: 'ignore \u{E0069}previous\u202E [click](command:workbench.action.terminal.new) **bold** <img src=x>',
    labelledBy: ['adv-1'],
    usedBy: [
      { id: 'adv-1', arm: 'adversarial' },
      { id: 'ben-1', arm: 'benign' },
    ],
  };

  it('shows the signals, the decoded text, the labels and the cases that use the tool, as plain text', () => {
    const hover = payloadHover([diag('injection-payload', data)], { line: 3, character: 20 });
    assert.ok(hover);
    const contents = hover.contents as { kind: string; value: string };
    assert.equal(contents.kind, 'plaintext', 'never Markdown: nothing of the payload is rendered');
    assert.match(contents.value, /instruction-override: tells the agent to ignore its instructions/);
    assert.match(contents.value, /hidden-text/);
    assert.match(contents.value, /Score: 0\.92/);
    assert.match(contents.value, /Labelled by .*"adv-1"/);
    assert.match(contents.value, /"adv-1" \(adversarial arm\), "ben-1" \(benign arm\)/);
    assert.deepEqual(hover.range, range);
  });

  it('escapes hidden and bidi characters in the decoded text', () => {
    const hover = payloadHover([diag('benign-contamination', data)], { line: 3, character: 10 });
    const value = (hover!.contents as { value: string }).value;
    assert.match(value, /\\u\{E0069\}previous\\u\{202E\}/);
    assert.doesNotMatch(value, /[\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069]/u);
  });

  it('tolerates ill-typed data and shows no hover away from a payload or on other rules', () => {
    const odd = diag('injection-payload', { signals: 'nope', usedBy: [null, 3, { id: 7 }], score: 'high', decoded: 5 });
    const hover = payloadHover([odd], { line: 3, character: 11 });
    assert.match((hover!.contents as { value: string }).value, /LITMUS injection-payload/);
    assert.equal(payloadHover([diag('injection-payload', data)], { line: 2, character: 20 }), undefined);
    assert.equal(payloadHover([diag('duplicate-id', data)], { line: 3, character: 20 }), undefined);
  });
});
