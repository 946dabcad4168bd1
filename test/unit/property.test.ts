import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { createScanner, SyntaxKind } from 'jsonc-parser';
import {
  createDocument,
  formatPointer,
  LineIndex,
  lintIndex,
  MAX_NESTING,
  loadWorkspace,
  memoryFileSystem,
  nodeAtPointer,
  parseJson,
  parseJsonLines,
  parsePointer,
  pathAtOffset,
  quote,
  escapeText,
  isUnsafeCodePoint,
} from '../../src/core';
import { anyValue, fixtureWorkspaces, hostileText, KIND_NAMES, mutate, mutation, render, style, workspace, type Files } from '../hostile/arbitraries';
import { diagnosticProblems } from '../hostile/check';

/** Seeded and bounded: the same few hundred cases on every run. `npm run fuzz` runs 100,000. */
const RUNS = { seed: 20261130, numRuns: 150 };

async function lintOk(files: Files): Promise<void> {
  const fs = memoryFileSystem(Object.fromEntries(Object.entries(files).map(([k, v]) => [`file:///ws/${k}`, v])));
  const loaded = await loadWorkspace(fs, ['file:///ws']);
  const { diagnostics } = lintIndex(loaded.index);
  const problems = diagnosticProblems(loaded.index, diagnostics);
  assert.deepEqual(problems, []);
}

describe('property: hostile input never breaks linting', () => {
  it('arbitrary text in every file kind', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KIND_NAMES), fc.oneof(hostileText, fc.string({ unit: 'binary' }), fc.json()), async (name, text) => {
        await lintOk({ [name]: text });
      }),
      RUNS,
    );
  });

  it('arbitrary JSON values written with comments, CRLF/CR, tabs and BOMs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KIND_NAMES), anyValue, style, async (name, value, s) => {
        await lintOk({ [name]: render(value, s) });
      }),
      RUNS,
    );
  });

  it('generated workspaces (cases, JSONL lines, tools, config, harness, scores), some mutated', async () => {
    await fc.assert(fc.asyncProperty(workspace, lintOk), RUNS);
  });

  it('mutated and truncated copies of the fixture suites', async () => {
    const fixtures = fixtureWorkspaces();
    assert.ok(fixtures.length >= 5, 'the hostile fixture folders are found');
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...fixtures), fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 }), async (fixture, which, ms) => {
        const names = Object.keys(fixture.files);
        const name = names[which % names.length];
        await lintOk({ ...fixture.files, [name]: mutate(fixture.files[name], ms) });
      }),
      RUNS,
    );
  });

  it('every prefix of a fixture suite (a file cut off while saving)', async () => {
    const text = render(
      { suite: 's', cases: [{ instance_id: 'a', arm: 'adversarial', probe: 'prompt_injection', family: 'f', task: 't\u202e', tools: ['t.tools.json#x'], correct_resolution_signature: { a: [1, 2] } }] },
      { indent: 2, comments: true, eol: 'mixed', bom: true },
    );
    for (let i = 0; i <= text.length; i += 3) await lintOk({ 'a.litmus.json': text.slice(0, i), 'b.litmus.jsonl': text.slice(0, i).replace(/[\r\n]+/g, ' ') + '\n{"x"' });
  });
});

describe('property: parsing, positions and pointers', () => {
  it('parse issues lie inside the text, JSON and JSONL alike', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ unit: 'binary' }), fc.json().map((j) => j + '\n' + j)), (text) => {
        for (const parsed of [parseJson(text), parseJsonLines(text)]) {
          for (const i of parsed.issues) assert.ok(i.offset >= 0 && i.length >= 0 && i.offset + i.length <= text.length, JSON.stringify(i));
          for (const r of parsed.roots) {
            if (r.node) assert.ok(r.node.offset >= 0 && r.node.offset + r.node.length <= text.length);
          }
        }
      }),
      { ...RUNS, numRuns: 500 },
    );
  });

  it('nesting and trailing-comma findings agree with a plain token scan, whatever shortcut parsing takes', () => {
    // The reference: jsonc-parser's own scanner, token by token, as the definition reads.
    const reference = (text: string): string[] => {
      const scanner = createScanner(text, true);
      const out: string[] = [];
      let depth = 0;
      let comma = -1;
      for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
        if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) {
          if (++depth > MAX_NESTING) return [`deep@${scanner.getTokenOffset()}`];
        } else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) {
          depth = Math.max(0, depth - 1);
          if (comma >= 0) out.push(`comma@${comma}`);
        } else if (kind === SyntaxKind.CommaToken) {
          comma = scanner.getTokenOffset();
          continue;
        }
        comma = -1;
      }
      return out;
    };
    const units = fc.constantFrom('[', ']', '{', '}', ',', ':', '"a"', '"\\""', '"\\\\"', '"x', '1', ' ', '\n', '\r\n', '//c\n', '/*,]*/', '\u00a0', '\u2028', 'true', '[['.repeat(70), ']]'.repeat(70));
    fc.assert(
      fc.property(fc.array(units, { maxLength: 80 }).map((a) => a.join('')), (text) => {
        if (text.includes('\u0000') || text.trim() === '') return;
        const found = parseJson(text).issues.flatMap((i) =>
          i.message.startsWith('nesting deeper') ? [`deep@${i.offset}`] : i.message.startsWith('trailing comma') ? [`comma@${i.offset}`] : [],
        );
        const expected = reference(text);
        assert.deepEqual(found.sort(), expected.slice(0, expected[0]?.startsWith('deep') ? 1 : undefined).sort());
      }),
      { ...RUNS, numRuns: 2000 },
    );
  });

  it('LineIndex round-trips every offset, and one inside a CRLF pair lands at the end of its line', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom('\r\n', '\r', '\n', '\u2028'), fc.string({ maxLength: 3 }))).map((a) => a.join('')), (text) => {
        const lines = new LineIndex(text);
        for (let o = 0; o <= text.length; o++) {
          const p = lines.positionAt(o);
          assert.ok(p.character <= lines.lineEnd(p.line) - lines.lineStart(p.line), 'never past the end of the line');
          assert.equal(lines.offsetAt(p), text[o - 1] === '\r' && text[o] === '\n' ? o - 1 : o);
        }
      }),
      { ...RUNS, numRuns: 300 },
    );
  });

  it('a line table built from the previous version\'s is the one built afresh, whatever the edit', () => {
    const piece = fc.oneof(fc.constantFrom('\n', '\n\n', 'ab', '"x": 1,\n', '\r\n'), fc.string({ maxLength: 4 }));
    const text = fc.array(piece, { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), text, (before, from, length, inserted) => {
        const at = from % (before.length + 1);
        const after = before.slice(0, at) + inserted + before.slice(Math.min(before.length, at + length % 8));
        const derived = LineIndex.after(new LineIndex(before), after);
        const fresh = new LineIndex(after);
        assert.equal(derived.lineCount, fresh.lineCount);
        for (let line = 0; line < fresh.lineCount; line++) assert.equal(derived.lineStart(line), fresh.lineStart(line));
      }),
      { ...RUNS, numRuns: 1000 },
    );
    // Through the documents: an edit's version builds its table from its predecessor's.
    const uri = 'file:///ws/lines/edited.litmus.json';
    const first = createDocument(uri, '{\n  "suite": "s",\n  "cases": []\n}\n')!;
    assert.equal(first.lines.lineCount, 5);
    const second = createDocument(uri, '{\n  "suite": "s",\n  "cases": [\n    {}\n  ]\n}\n')!;
    const fresh = new LineIndex(second.text);
    assert.equal(second.lines.lineCount, 7);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((l) => second.lines.lineStart(l)), [0, 1, 2, 3, 4, 5, 6].map((l) => fresh.lineStart(l)));
  });

  it('a syntax error between the CR and LF of a line break is shown at the end of its line (found by the fuzzer)', async () => {
    const text = '{\r\n  "a": "x\\\r\n"\r\n}';
    const fs = memoryFileSystem({ 'file:///ws/a.litmus.json': text });
    const loaded = await loadWorkspace(fs, ['file:///ws']);
    const { diagnostics } = lintIndex(loaded.index);
    const end = (d: { offset: number; length: number }) => d.offset + d.length;
    const inside = diagnostics.filter((d) => text[end(d) - 1] === '\r' && text[end(d)] === '\n');
    assert.ok(inside.length > 0, 'the parser does point between CR and LF');
    for (const d of inside) assert.deepEqual(d.range.end, { line: 1, character: 10 });
    assert.deepEqual(diagnosticProblems(loaded.index, diagnostics), []);
  });

  it('the pointer at any offset resolves back to a value at that offset', () => {
    fc.assert(
      fc.property(anyValue, style, fc.nat(), (value, s, at) => {
        const text = render(value, s);
        const parsed = parseJson(text);
        const root = parsed.roots[0];
        // Duplicate keys make the first key point at the last value, as JSON.parse reads it.
        if (!root?.node || root.broken || parsed.issues.length) return;
        const offset = root.node.offset + (at % (root.node.length + 1));
        const path = pathAtOffset(root.node, offset);
        assert.ok(path, 'every offset inside the root has a path');
        const pointer = formatPointer(path);
        assert.deepEqual(parsePointer(pointer), path.map(String));
        const node = nodeAtPointer(root.node, pointer);
        assert.ok(node, `pointer ${pointer} resolves`);
        const holder = node.parent?.type === 'property' ? node.parent : node;
        assert.ok(offset >= holder.offset && offset <= holder.offset + holder.length, `${pointer} holds offset ${offset}`);
      }),
      { ...RUNS, numRuns: 300 },
    );
  });

  it('malformed pointers never throw', () => {
    const doc = createDocument('file:///ws/t.tools.json', '{"tools":[{"a":{"b~/":[1,2]}}]}')!;
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.array(fc.constantFrom('/', '~0', '~1', '~', '0', '01', '-', 'tools', 'a', 'b~0~1')).map((a) => a.join(''))), (p) => {
        const tokens = parsePointer(p);
        if (tokens) assert.equal(formatPointer(tokens), p, 'a valid pointer round-trips');
        nodeAtPointer(doc.parsed.roots[0].node, p);
      }),
      { ...RUNS, numRuns: 500 },
    );
  });
});

describe('property: quoting untrusted text', () => {
  it('quote() shows no hidden or bidi character, is bounded, and never cuts an escape in half', () => {
    fc.assert(
      fc.property(fc.oneof(hostileText, fc.string({ unit: 'binary' })), fc.integer({ min: 4, max: 120 }), (text, max) => {
        const q = quote(text, max);
        for (const ch of q) assert.ok(!isUnsafeCodePoint(ch.codePointAt(0)!), `unsafe U+${ch.codePointAt(0)!.toString(16)} in ${q}`);
        assert.ok(q.length <= max + 3, `${q.length} > ${max} + quotes and ellipsis`);
        const body = q.slice(1, q.endsWith('…"') ? -2 : -1);
        assert.ok(escapeText(text).startsWith(body), 'the shown text is a prefix of the full escape');
        // An odd run of backslashes at the end, maybe with `u` or `u{HEX`, is an escape cut in half.
        assert.doesNotMatch(body, /(^|[^\\])(\\\\)*\\(u(\{[0-9A-F]*)?)?$/, 'no half escape at the cut');
      }),
      { ...RUNS, numRuns: 1000 },
    );
  });

  it('quote() and escapeText() write what escaping one character at a time writes', () => {
    // The definition: each code point as it is or as its escape, kept whole while the output fits.
    const oracle = (text: string, max: number): string => {
      let out = '';
      for (const ch of text) {
        const cp = ch.codePointAt(0)!;
        const piece = cp === 10 ? '\\n' : cp === 13 ? '\\r' : cp === 9 ? '\\t' : cp === 0x5c ? '\\\\' : isUnsafeCodePoint(cp) ? `\\u{${cp.toString(16).toUpperCase()}}` : ch;
        if (out.length + piece.length > max) return `"${out}…"`;
        out += piece;
      }
      return `"${out}"`;
    };
    // Runs of plain ASCII (the fast path) broken by what is not: backslashes, controls, pairs, lone surrogates.
    const mixed = fc.array(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('\\', '\n', '\u202e', '\ud83d\ude00', '\ud800', 'é', '\u0000')), { maxLength: 12 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(mixed, hostileText, fc.string({ unit: 'binary' })), fc.integer({ min: 0, max: 120 }), (text, max) => {
        assert.equal(quote(text, max), oracle(text, max));
        assert.equal(`"${escapeText(text)}"`, oracle(text, Infinity));
      }),
      { ...RUNS, numRuns: 1000 },
    );
  });
});
