import assert from 'node:assert/strict';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { disableNextLine, disableOnCaseLine, suppressionEdit } from '../../src/server/suppress';

const doc = (text: string, uri = 'file:///w/a.litmus.jsonc') => TextDocument.create(uri, 'jsonc', 1, text);
const applied = (d: TextDocument, e: { edit: { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string } }) => TextDocument.applyEdits(d, [e.edit]);
const selected = (text: string, r: { start: { line: number; character: number }; end: { line: number; character: number } }) => {
  const t = TextDocument.create('x:', 'jsonc', 0, text);
  return text.slice(t.offsetAt(r.start), t.offsetAt(r.end));
};

describe('suppression edits (FORMAT §11)', () => {
  it('keeps tab indentation and writes the comment on its own line', () => {
    const d = doc('{\n\t"instance_id": "x"\n}\n');
    const s = disableNextLine(d, 1, 'duplicate-id')!;
    const out = applied(d, s);
    assert.equal(out, '{\n\t// litmus-disable-next-line duplicate-id -- reason\n\t"instance_id": "x"\n}\n');
    assert.equal(selected(out, s.reason), 'reason');
  });

  it('on the first line of a file, above its opening brace', () => {
    const d = doc('{"reset_counters": "batch"}\n', 'file:///w/litmus.harness.json');
    const out = applied(d, suppressionEdit(d, 0, 'harness-isolation')!);
    assert.equal(out, '// litmus-disable-next-line harness-isolation -- reason\n{"reset_counters": "batch"}\n');
  });

  it('a comment above without a reason gets the rule and the placeholder', () => {
    const d = doc('{\n  // litmus-disable-next-line schema --\n  "arm": "x"\n}\n');
    const s = disableNextLine(d, 2, 'refusal-orthogonality')!;
    const out = applied(d, s);
    assert.equal(out.split('\n')[1], '  // litmus-disable-next-line schema, refusal-orthogonality -- reason');
    assert.equal(selected(out, s.reason), 'reason');
  });

  it('nothing when the rule is already listed above, or the line does not exist', () => {
    const d = doc('{\n  // litmus-disable-next-line schema, duplicate-id -- known\n  "instance_id": "x"\n}\n');
    assert.equal(disableNextLine(d, 2, 'duplicate-id'), undefined);
    assert.equal(disableNextLine(d, 99, 'schema'), undefined);
  });

  it('a rule id that also appears in the directive word is placed after the list', () => {
    const d = doc('{\n  // litmus-disable-next-line litmus -- r\n  "x": 1\n}\n');
    assert.equal(applied(d, disableNextLine(d, 2, 'schema')!).split('\n')[1], '  // litmus-disable-next-line litmus, schema -- r');
  });

  it('JSONL: an empty object, and lines that are not one object, are handled', () => {
    const d = doc('{}\n[1]\n{"a": \n', 'file:///w/c.litmus.jsonl');
    const s = disableOnCaseLine(d, 0, 'schema')!;
    const out = applied(d, s);
    assert.deepEqual(JSON.parse(out.split('\n')[0]), { 'x-litmus-disable': { schema: 'reason' } });
    assert.equal(selected(out, s.reason), 'reason');
    assert.equal(disableOnCaseLine(d, 1, 'schema'), undefined, 'an array line');
    assert.equal(disableOnCaseLine(d, 2, 'schema'), undefined, 'a broken line');
  });

  it('JSONL: a field that is not an object, or already names the rule, is left alone', () => {
    const d = doc('{"x-litmus-disable": "all", "a": 1}\n{"x-litmus-disable": {"schema": "r"}}\n', 'file:///w/c.litmus.jsonl');
    assert.equal(disableOnCaseLine(d, 0, 'schema'), undefined);
    assert.equal(disableOnCaseLine(d, 1, 'schema'), undefined);
  });
});
