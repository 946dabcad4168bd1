import assert from 'node:assert/strict';
import { getNodeValue } from 'jsonc-parser';
import { createDocument, MAX_NESTING, parseJson, parseJsonLines } from '../../src/core';
import { brief, codes, covered, json, lintFiles } from '../helpers';

const CASE = { instance_id: 'c1', arm: 'benign', family: 'f', task: 't', correct_resolution_signature: 's' };
const line = (extra: Record<string, unknown> = {}) => JSON.stringify({ ...CASE, ...extra });

describe('parser', () => {
  it('tolerates a BOM and keeps offsets where the editor has them', () => {
    const text = '\uFEFF{"a": 1}';
    const parsed = parseJson(text);
    assert.deepEqual(parsed.issues, []);
    const node = parsed.roots[0].node!;
    assert.equal(node.offset, 1);
    assert.equal(text.slice(node.children![0].children![1].offset, node.children![0].children![1].offset + 1), '1');
  });

  it('reads comments without complaint', () => {
    const parsed = parseJson('// head\n{ /* inline */ "a": [1, 2] // tail\n}');
    assert.deepEqual(parsed.issues, []);
    assert.deepEqual(JSON.parse(JSON.stringify(getNodeValue(parsed.roots[0].node!))), { a: [1, 2] });
  });

  it('counts CRLF, CR and LF as line breaks for positions', () => {
    const text = '{\r\n"a": 1,\r"b": 2,\n"c": x}';
    const doc = createDocument('file:///ws/a.litmus.json', text)!;
    const issue = doc.parsed.issues[0];
    assert.ok(issue, 'the bad token is reported');
    assert.deepEqual(doc.lines.positionAt(issue.offset), { line: 3, character: 5 });
  });

  it('reports a trailing comma on the comma itself', () => {
    const text = '{"a": [1, 2,], "b": 3,}';
    const issues = parseJson(text).issues;
    assert.deepEqual(
      issues.map((i) => [text.slice(i.offset, i.offset + i.length), i.offset]),
      [
        [',', 11],
        [',', 21],
      ],
    );
    assert.match(issues[0].message, /trailing comma/);
  });

  it('reports a duplicate key on the later key', () => {
    const text = '{"arm": "benign", "x": {"k": 1}, "arm": "adversarial"}';
    const issues = parseJson(text).issues;
    assert.equal(issues.length, 1);
    assert.equal(issues[0].offset, text.lastIndexOf('"arm"'));
    assert.equal(text.slice(issues[0].offset, issues[0].offset + issues[0].length), '"arm"');
  });

  it('finds a duplicate key whatever stands between it and its colon', () => {
    for (const gap of [' ', '\n', '\t', '\r\n  ', ' /* c */ ', ' // c\n']) {
      for (const key of ['"arm"', '"a\\\\"', '"q\\""', '""']) {
        const text = `{${key}: 1, "x": "say \\": hi", ${key}${gap}: 2}`;
        const issues = parseJson(text).issues;
        assert.equal(issues.length, 1, JSON.stringify(text));
        assert.equal(issues[0].offset, text.lastIndexOf(key), JSON.stringify(text));
        assert.match(issues[0].message, /duplicate key/);
      }
    }
  });

  it('reads a string holding an escaped quote before a colon as a value, not a key', () => {
    for (const value of ['"say \\": hi"', '"\\" :"', '"a\\\\\\":"']) {
      const text = `{"a": ${value}, "b": {"c": ${value}}}`;
      const parsed = parseJson(text);
      assert.deepEqual(parsed.issues, [], text);
      assert.deepEqual(JSON.parse(JSON.stringify(parsed.roots[0].value)), JSON.parse(text));
    }
  });

  it('stays silent on the same key in different objects', () => {
    assert.deepEqual(parseJson('{"a": {"k": 1}, "b": {"k": 2}}').issues, []);
  });

  it('reports an empty file, and a file of only comments, as one parse error', () => {
    for (const text of ['', '   \n\t', '\uFEFF']) {
      const parsed = parseJson(text);
      assert.equal(parsed.roots[0].broken, true, JSON.stringify(text));
      assert.equal(parsed.issues.length, 1);
      assert.match(parsed.issues[0].message, /empty file/);
    }
    const comments = parseJson('// nothing here\n');
    assert.equal(comments.roots[0].broken, true);
    assert.ok(comments.issues.length >= 1);
  });

  it('reports a binary file at its first NUL', () => {
    const parsed = parseJson('{"a": "\u0000\u0001"}');
    assert.equal(parsed.issues.length, 1);
    assert.equal(parsed.issues[0].offset, 7);
    assert.match(parsed.issues[0].message, /binary/);
    assert.equal(parsed.roots[0].broken, true);
  });

  it('survives 10,000 levels of nesting with one parse error and no throw', () => {
    const depth = 10_000;
    const text = '['.repeat(depth) + ']'.repeat(depth);
    const parsed = parseJson(text);
    assert.equal(parsed.issues.length, 1);
    assert.equal(parsed.issues[0].offset, MAX_NESTING);
    assert.match(parsed.issues[0].message, /nesting/);
    assert.equal(parsed.roots[0].node, undefined);

    const objects = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    assert.equal(parseJson(objects).issues.length, 1);
  });

  it('accepts nesting up to the limit', () => {
    const text = '['.repeat(MAX_NESTING) + ']'.repeat(MAX_NESTING);
    assert.deepEqual(parseJson(text).issues, []);
  });
});

describe('JSONL', () => {
  it('gives each line its own root with document ranges', () => {
    const text = `${line({ instance_id: 'a' })}\n\n// a comment\n${line({ instance_id: 'b' })}\r\n`;
    const parsed = parseJsonLines(text);
    assert.deepEqual(parsed.issues, []);
    assert.deepEqual(
      parsed.roots.map((r) => r.line),
      [0, 3],
    );
    const second = parsed.roots[1].node!;
    assert.equal(text.slice(second.offset, second.offset + second.length), line({ instance_id: 'b' }));
    assert.equal(getNodeValue(second).instance_id, 'b');
  });

  it('reports a broken line on its line, and the other lines still produce cases', async () => {
    const files = { 'c.litmus.jsonl': `${line({ instance_id: 'a' })}\n{"instance_id": "b", oops}\n${line({ instance_id: 'c' })}\n` };
    const { diagnostics, index } = await lintFiles(files);
    const parse = codes(diagnostics, 'parse-error');
    assert.ok(parse.length >= 1);
    for (const d of parse) assert.equal(d.range.start.line, 1);
    assert.deepEqual(
      index.cases.map((c) => c.id),
      ['a', 'c'],
    );
    assert.deepEqual(codes(diagnostics, 'schema'), [], 'the broken line gets no schema noise');
  });

  it('finds each line and its value whatever the line endings, a last line without one and blank lines included', () => {
    const lines = [line({ instance_id: 'a' }), '', '  ', line({ instance_id: 'b' }), '// c', line({ instance_id: 'd' })];
    for (const endings of [['\n'], ['\r\n'], ['\r'], ['\n', '\r\n', '\r']]) {
      for (const last of ['', endings[0]]) {
        const text = lines.map((l, i) => l + (i < lines.length - 1 ? endings[i % endings.length] : last)).join('');
        const parsed = parseJsonLines(text);
        // Each root where an independent split puts it: its line number, its text, its value.
        const expected: { line: number; start: number; id: unknown }[] = [];
        let at = 0;
        text.split(/\r\n|\r|\n/).forEach((l, n) => {
          if (l.trim() !== '' && !l.trim().startsWith('//')) expected.push({ line: n, start: at, id: (JSON.parse(l) as { instance_id: unknown }).instance_id });
          at += l.length + (text.startsWith('\r\n', at + l.length) ? 2 : 1);
        });
        const label = JSON.stringify({ endings, last });
        assert.deepEqual(parsed.issues, [], label);
        assert.deepEqual(
          parsed.roots.map((r) => ({ line: r.line, start: r.node!.offset, id: (getNodeValue(r.node!) as { instance_id: unknown }).instance_id })),
          expected,
          label,
        );
      }
    }
  });

  it('reports a NUL on one line without hiding the others', () => {
    const parsed = parseJsonLines(`${line()}\n{"a": "\u0000"}\n${line()}`);
    assert.equal(parsed.issues.length, 1);
    assert.equal(parsed.roots.filter((r) => !r.broken).length, 2);
  });

  it('positions diagnostics on the right line with CRLF and mixed endings', async () => {
    const files = {
      'm.litmus.jsonl': `${line({ instance_id: 'a' })}\r\n${line({ instance_id: 'b' })}\r${line({ instance_id: 'c', arm: 'neither' })}\n`,
    };
    const { diagnostics } = await lintFiles(files);
    const schema = codes(diagnostics, 'schema');
    assert.deepEqual(schema.map(brief), [`m.litmus.jsonl:3:${line({ instance_id: 'c', arm: 'neither' }).indexOf('"neither"') + 1} schema`]);
    assert.equal(covered(files, schema[0]), '"neither"');
  });
});

describe('bad input in a workspace', () => {
  it('reports empty, binary, BOM-prefixed and deeply nested files and still lints the rest', async () => {
    const files = {
      'empty.litmus.json': '',
      'binary.litmus.json': '\u0000\u0001\u0002',
      'bom.litmus.json': '\uFEFF' + json({ ...CASE, instance_id: 'bom' }),
      'deep.litmus.json': '['.repeat(10_000) + ']'.repeat(10_000),
      'dup.litmus.json': json({ ...CASE, instance_id: 'd' }).replace('{', '{"instance_id": "d0",'),
      'ok.litmus.json': json({ ...CASE, instance_id: 'ok', arm: 'wrong' }),
    };
    const { diagnostics } = await lintFiles(files);
    const parse = codes(diagnostics, 'parse-error').map((d) => d.uri.slice('file:///ws/'.length)).sort();
    assert.deepEqual(parse, ['binary.litmus.json', 'deep.litmus.json', 'dup.litmus.json', 'empty.litmus.json']);
    assert.deepEqual(codes(diagnostics, 'schema').map(brief), ['ok.litmus.json:3:10 schema']);
  });
});
