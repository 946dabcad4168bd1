import assert from 'node:assert/strict';
import { appendToArray, applyChanges, buildIndex, createDocument, effectiveSeverity, defaultConfig, mergeConfig, parseJson, removeValue, setValue, type Finding } from '../../src/core';
import { placeFindings } from '../../src/core/lint/lint';
import { rng } from '../helpers';

const finding = (extra: Partial<Finding> = {}): Finding => ({
  rule: 'injection-payload',
  at: { uri: 'file:///ws/a.tools.json', offset: 0, length: 0 },
  message: 'm',
  ...extra,
});

describe('severity resolution', () => {
  it('uses the rule default, then the finding default, then the config', () => {
    const config = defaultConfig();
    assert.equal(effectiveSeverity(finding(), config), 'warning');
    assert.equal(effectiveSeverity(finding({ severity: 'info' }), config), 'info');
    const configured = mergeConfig(config, { rules: { 'injection-payload': 'error' } });
    assert.equal(effectiveSeverity(finding({ severity: 'info' }), configured), 'error');
  });

  it('drops findings of rules set to off, and clamps to min/max severities', () => {
    const off = mergeConfig(defaultConfig(), { rules: { 'injection-payload': 'off' } });
    assert.equal(effectiveSeverity(finding({ minSeverity: 'warning' }), off), undefined);
    const hint = mergeConfig(defaultConfig(), { rules: { 'injection-payload': 'hint' } });
    assert.equal(effectiveSeverity(finding({ minSeverity: 'warning' }), hint), 'warning');
    const error = mergeConfig(defaultConfig(), { rules: { 'injection-payload': 'error' } });
    assert.equal(effectiveSeverity(finding({ maxSeverity: 'hint' }), error), 'hint');
  });
});

describe('edits', () => {
  const text = '{\n    // keep me\n    "a": 1,\n    "list": ["x"]\n}\n';
  const doc = createDocument('file:///ws/a.litmus.json', text)!;

  it('sets a value and keeps comments and indentation', () => {
    const out = applyChanges(text, setValue(doc, 0, ['a'], 2));
    assert.match(out, /\/\/ keep me/);
    assert.match(out, /\n {4}"a": 2,/);
    assert.equal(parseJson(out).issues.length, 0);
  });

  it('applies changes as if one by one from the last, in one pass where they do not overlap', () => {
    // The textbook: each change applied to the text the one before left, last offset first.
    const oneByOne = (t: string, changes: { offset: number; length: number; content: string }[]) => {
      let out = t;
      for (const c of [...changes].sort((a, b) => b.offset - a.offset || b.length - a.length)) out = out.slice(0, c.offset) + c.content + out.slice(c.offset + c.length);
      return out;
    };
    const r = rng(7);
    let overlapping = 0;
    for (let round = 0; round < 3000; round++) {
      const t = 'abcdefghijklmnopqrstuvwxyz'.slice(0, 1 + r.int(26));
      // Insertions at one offset, touching and overlapping ranges: few offsets, so they meet.
      const changes = Array.from({ length: r.int(6) }, (_, i) => {
        const offset = r.int(t.length + 1);
        return { offset, length: r.chance(0.4) ? 0 : r.int(t.length - offset + 1), content: `<${i}>` };
      });
      const sorted = [...changes].sort((a, b) => a.offset - b.offset);
      if (sorted.some((c, i) => i > 0 && c.offset < sorted[i - 1].offset + sorted[i - 1].length)) overlapping++;
      assert.equal(applyChanges(t, changes), oneByOne(t, changes), JSON.stringify({ t, changes }));
    }
    assert.ok(overlapping > 300 && overlapping < 2700, `${overlapping} overlapping sets: both paths run`);
  });

  it('appends to an array and removes a property', () => {
    const appended = applyChanges(text, appendToArray(doc, 0, ['list'], 1, 'y'));
    assert.deepEqual(JSON.parse(appended.replace(/\/\/.*\n/, '')).list, ['x', 'y']);
    const removed = applyChanges(text, removeValue(doc, 0, ['a']));
    assert.equal(JSON.parse(removed.replace(/\/\/.*\n/, '')).a, undefined);
    assert.match(removed, /\/\/ keep me/);
  });

  it('removes a last or only member without touching comments around it', () => {
    const src = '{\n  "a": 1, // about a\n  /* about b */ "b": [1, /* one */ 2]\n}';
    const d = createDocument('file:///ws/b.litmus.json', src)!;
    const noB = applyChanges(src, removeValue(d, 0, ['b']));
    assert.match(noB, /\/\/ about a/);
    assert.match(noB, /\/\* about b \*\//);
    assert.equal(parseJson(noB).issues.length, 0);
    const noTwo = applyChanges(src, removeValue(d, 0, ['b', 1]));
    assert.match(noTwo, /\/\* one \*\//);
    assert.equal(parseJson(noTwo).issues.length, 0);
    const only = createDocument('file:///ws/c.litmus.json', '{"a": 1}')!;
    assert.equal(applyChanges(only.text, removeValue(only, 0, ['a'])), '{}');
  });

  it('keeps a JSONL edit on its own line', () => {
    const lines = '{"a":1}\n{"b":2,"list":[]}\n{"c":3}\n';
    const jsonl = createDocument('file:///ws/v.litmus.jsonl', lines)!;
    const out = applyChanges(lines, setValue(jsonl, 1, ['b'], { deep: [1, 2] }));
    const parts = out.split('\n');
    assert.equal(parts.length, 4);
    assert.deepEqual(JSON.parse(parts[1]).b, { deep: [1, 2] });
    assert.equal(parts[0], '{"a":1}');
    assert.equal(parts[2], '{"c":3}');
  });

  it("writes each file's own line ending and indentation, file after file", () => {
    // The formatting of the last file is kept for its next fix: it must never be another file's.
    const crlf = '{\r\n\t"a": 1\r\n}\r\n';
    const lf = '{\n    "a": 1\n}\n';
    for (const text of [crlf, lf, crlf, crlf, lf, lf]) {
      const doc = createDocument('file:///ws/f.litmus.json', text)!;
      const out = applyChanges(text, setValue(doc, 0, ['b'], { c: 2 }));
      assert.deepEqual(JSON.parse(out), { a: 1, b: { c: 2 } });
      if (text === crlf) assert.match(out, /\r\n\t"b": \{\r\n\t\t"c": 2\r\n\t\}/);
      else assert.match(out, /\n {4}"b": \{\n {8}"c": 2\n {4}\}/);
      assert.equal(text === crlf ? out.includes('\r\n') : !out.includes('\r'), true);
    }
  });
});

describe('edits at extreme depth', () => {
  it('falls back to an unformatted edit where the formatter fails (200 columns of indentation)', () => {
    // 100 levels at two spaces puts the new member at column 200, where jsonc-parser's formatter breaks.
    let text = '"x"';
    for (let i = 0; i < 100; i++) text = `{"k": ${text}}`;
    const doc = createDocument('file:///ws/deep.litmus.json', text + '\n')!;
    const path: (string | number)[] = Array(100).fill('k');
    path[path.length - 1] = 'added';
    const changes = setValue(doc, 0, path, true);
    assert.ok(changes.length > 0);
    const out = applyChanges(doc.text, changes);
    assert.equal(parseJson(out).issues.length, 0);
  });
});

describe('placing findings', () => {
  it('shows one squiggle for two findings of one rule with one message at one place, and both when the messages differ', () => {
    const doc = createDocument('file:///ws/a.litmus.json', '{ "instance_id": "a", "arm": "benign", "family": "f", "task": "t" }')!;
    const index = buildIndex([doc]);
    const at = { uri: doc.uri, root: 0, path: ['task'] };
    const finding = (message: string): Finding => ({ rule: 'schema', at, message, severity: 'error' });
    const placed = placeFindings(
      [finding('same words'), finding('same words'), finding('other words'), finding('same words'), finding('other words'), { ...finding('same words'), rule: 'duplicate-id' }],
      index,
    );
    assert.deepEqual(
      placed.map((d) => [d.code, d.message]),
      [
        ['schema', 'same words'],
        ['schema', 'other words'],
        ['duplicate-id', 'same words'],
      ],
    );
  });

  it('keeps the first of each rule and message at one place however many start there (past the few compared one by one)', () => {
    const doc = createDocument('file:///ws/a.litmus.json', '{ "instance_id": "a", "arm": "benign", "family": "f", "task": "t" }')!;
    const index = buildIndex([doc]);
    const at = { uri: doc.uri, root: 0, path: ['task'] };
    const rules = ['schema', 'duplicate-id', 'missing-arm'];
    // 120 findings at one place: 3 rules × 12 messages, each pair met several times, interleaved.
    const findings: Finding[] = Array.from({ length: 120 }, (_, i) => ({ rule: rules[(i * 7 + Math.floor(i / 12)) % 3], at, message: `m${(i * 5) % 12}`, severity: 'error' as const }));
    const want: string[] = [];
    for (const f of findings) if (!want.includes(`${f.rule} ${f.message}`)) want.push(`${f.rule} ${f.message}`);
    assert.equal(want.length, 36);
    assert.deepEqual(
      placeFindings(findings, index).map((d) => `${d.code} ${d.message}`),
      want,
    );
  });
});
