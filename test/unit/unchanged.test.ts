import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { getNodeValue, type Node } from 'jsonc-parser';
import { parseJson, parseJsonLines, type ParsedText, type PreviousParse } from '../../src/core/text/parse';
import { commonAffixes } from '../../src/core/text/unchanged';
import { exactIntegersOf } from '../../src/core/text/exact-numbers';
import type { JsonPath } from '../../src/core/text/types';

/** The longest common start and (not overlapping it) end, one character at a time. */
function naiveAffixes(a: string, b: string): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < Math.min(a.length, b.length) - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}

/** Cases of a suite: objects that differ by their field values, some of them nested. */
const caseArb = fc.record({
  instance_id: fc.stringMatching(/^[a-z]{1,6}$/),
  arm: fc.constantFrom('adversarial', 'benign'),
  task: fc.string({ maxLength: 30 }),
  n: fc.integer(),
  unsafe_actions: fc.array(fc.record({ tool: fc.constantFrom('a', 'b'), where: fc.record({ type: fc.constant('object') }) }), { maxLength: 2 }),
});

type Change = { kind: 'replace'; at: number; with: Record<string, unknown> } | { kind: 'insert'; at: number; with: Record<string, unknown> } | { kind: 'remove'; at: number } | { kind: 'rename' };

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), with: caseArb }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), with: caseArb }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('rename' as const) }),
);

/** The suite after the change, and the index of the case it changed (-1 for the suite's name). */
function applied(cases: Record<string, unknown>[], change: Change): { suite: string; cases: Record<string, unknown>[]; at: number } {
  const out = [...cases];
  if (change.kind === 'rename') return { suite: 'renamed suite', cases: out, at: -1 };
  const at = change.kind === 'insert' ? change.at % (out.length + 1) : out.length ? change.at % out.length : 0;
  if (change.kind === 'replace' && out.length) out[at] = change.with;
  if (change.kind === 'insert') out.splice(at, 0, change.with);
  if (change.kind === 'remove' && out.length) out.splice(at, 1);
  return { suite: 's', cases: out, at };
}

/** Whether case `i` after the change is a case the change left where it was: every case but the changed one when the count stays, else those before it. */
function leftInPlace(change: Change, at: number, i: number): boolean {
  return change.kind === 'rename' || change.kind === 'replace' || i < at;
}

/** What a reader of a parse tree sees, walked in full. */
function shape(node: Node | undefined): unknown {
  if (!node) return undefined;
  return { type: node.type, offset: node.offset, length: node.length, colonOffset: node.colonOffset, value: node.value, children: node.children?.map(shape) };
}

/** The text a fresh parse of `text` reads: what a parse that keeps old values must read too. */
const fresh = (parsed: ParsedText): string => JSON.stringify(parsed.roots.map((r) => r.value));

/** `afterText` parsed with the parse of `beforeText` as its last version, as an edited document is. */
function reparse(parse: (text: string, previous?: PreviousParse) => ParsedText, beforeText: string, afterText: string): { before: ParsedText; parsed: ParsedText } {
  const before = parse(beforeText);
  return { before, parsed: parse(afterText, { text: beforeText, parsed: before }) };
}

describe('values an edit left unchanged', () => {
  it('finds the shared start and end of two texts as a character-by-character scan does', () => {
    const chunk = fc.string({ unit: fc.constantFrom('a', 'b', '"', '\n'), maxLength: 40 });
    fc.assert(
      fc.property(chunk, chunk, chunk, chunk, fc.nat({ max: 3 }), (head, x, y, tail, repeat) => {
        // Shared runs longer than a compared block, so both the block and the character loops run.
        const long = head.repeat(repeat * 300);
        const a = long + head + x + tail + long;
        const b = long + head + y + tail + long;
        assert.deepEqual(commonAffixes(a, b), naiveAffixes(a, b));
      }),
      { numRuns: 300, seed: 11 },
    );
    assert.deepEqual(commonAffixes('abc', 'abc'), { prefix: 3, suffix: 0 });
    assert.deepEqual(commonAffixes('aa', 'aaa'), { prefix: 2, suffix: 0 });
  });

  it('keeps the old object of every case whose text and index an edit left as they were, and reads what a fresh parse reads', () => {
    fc.assert(
      fc.property(fc.array(caseArb, { maxLength: 12 }), changeArb, fc.constantFrom(0, 2), (cases, change, indent) => {
        const beforeText = JSON.stringify({ suite: 's', cases }, null, indent);
        const after = applied(cases, change);
        const afterText = JSON.stringify({ suite: after.suite, cases: after.cases }, null, indent);
        const { before, parsed } = reparse(parseJson, beforeText, afterText);
        assert.equal(fresh(parsed), fresh(parseJson(afterText)));
        const oldCases = (before.roots[0].value as { cases: unknown[] }).cases;
        const newCases = (parsed.roots[0].value as { cases: unknown[] }).cases;
        newCases.forEach((c, i) => {
          // Never an old case at another index: what is kept per value may hold its path.
          for (let j = 0; j < oldCases.length; j++) if (j !== i) assert.notEqual(c, oldCases[j]);
          const same = i < oldCases.length && JSON.stringify(after.cases[i]) === JSON.stringify(cases[i]);
          if (!same) assert.notEqual(c, oldCases[i]);
          else if (leftInPlace(change, after.at, i)) assert.equal(c, oldCases[i], `case ${i} after ${change.kind} at ${after.at}`);
        });
      }),
      { numRuns: 400, seed: 12 },
    );
  });

  it('does not take an element for unchanged because the same closing text follows it', () => {
    // The old second case's text ends both files, but in the new one it is another array's element.
    const beforeText = '{"cases":[{"a":1},{"b":2}]}';
    const afterText = '{"cases":[{"a":1},{"c":3}],"x":[{"b":2}]}';
    const { before, parsed } = reparse(parseJson, beforeText, afterText);
    const value = parsed.roots[0].value as { cases: unknown[]; x: unknown[] };
    assert.equal(JSON.stringify(value), JSON.stringify(JSON.parse(afterText)));
    assert.equal(value.cases[0], (before.roots[0].value as { cases: unknown[] }).cases[0]);
    assert.notEqual(value.cases[1], (before.roots[0].value as { cases: unknown[] }).cases[1]);
  });

  it('keeps cases around an edit of a file with comments, and reads the comments the edit changed', () => {
    const beforeText = '// a suite\n{"cases": [\n  {"id": "a"}, // first\n  {"id": "b"},\n  {"id": "c"} /* last */\n]}';
    const afterText = beforeText.replace('{"id": "b"}', '{"id": "B", "x": [1]}').replace('// first', '// the first');
    const { before, parsed } = reparse(parseJson, beforeText, afterText);
    const old = (before.roots[0].value as { cases: unknown[] }).cases;
    const now = (parsed.roots[0].value as { cases: unknown[] }).cases;
    assert.equal(fresh(parsed), fresh(parseJson(afterText)));
    assert.equal(now[0], old[0]);
    assert.notEqual(now[1], old[1]);
    assert.equal(now[2], old[2]);
  });

  it('keeps the value of each JSONL line an edit left as it was, as the same root', () => {
    fc.assert(
      fc.property(fc.array(caseArb, { maxLength: 10 }), changeArb, fc.boolean(), (cases, change, crlf) => {
        const eol = crlf ? '\r\n' : '\n';
        const beforeText = cases.map((c) => JSON.stringify(c)).join(eol) + eol;
        const after = applied(cases, change);
        const afterText = after.cases.map((c) => JSON.stringify(c)).join(eol) + eol;
        const { before, parsed } = reparse(parseJsonLines, beforeText, afterText);
        assert.equal(fresh(parsed), fresh(parseJsonLines(afterText)));
        assert.deepEqual(
          parsed.roots.map((r) => r.line),
          parseJsonLines(afterText).roots.map((r) => r.line),
        );
        parsed.roots.forEach((r, i) => {
          // Never an old value as another root: what is kept per value may hold the case's root.
          for (let j = 0; j < before.roots.length; j++) if (j !== i) assert.notEqual(r.value, before.roots[j].value);
          const same = i < before.roots.length && JSON.stringify(after.cases[i]) === JSON.stringify(cases[i]);
          if (!same) assert.notEqual(r.value, before.roots[i]?.value);
          else if (leftInPlace(change, after.at, i)) assert.equal(r.value, before.roots[i].value, `line ${i} after ${change.kind} at ${after.at}`);
        });
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  it('parses afresh a line the old parse could not read strictly, and places what it keeps in the new text', () => {
    const beforeText = '{"a": 1} // note\n{"b": 2}\n';
    const afterText = '{"a": 1} // note\n{"b": 2, "c": 3}\n';
    const { before, parsed } = reparse(parseJsonLines, beforeText, afterText);
    assert.equal(fresh(parsed), fresh(parseJsonLines(afterText)));
    // The same end of the same line is not the same line: `12` ending where `2` ends is another value.
    assert.equal(fresh(reparse(parseJsonLines, '1\n12\n', '1\n2\n').parsed), '[1,2]');
    const moved = parseJsonLines('{"z": 0}\n' + beforeText, { text: beforeText, parsed: before });
    // A line that moved down is another root: parsed again, and located in the new text.
    assert.equal(fresh(moved), fresh(parseJsonLines('{"z": 0}\n' + beforeText)));
    assert.equal(moved.roots[2].locate!(['b']).offset, '{"z": 0}\n{"a": 1} // note\n{"b": '.length);
  });

  it('reads an edit inside the cases array as a fresh parse reads it: values, issues and places', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '/', '*', '[', ']', '{', '}', ',', '"', '\\', ' ', 'é'), maxLength: 12 });
    const render = (c: { id: string; note: string }) => JSON.stringify(c);
    // What an edit may put in place of a case: another case, or text a strict reading must refuse.
    const replacement = fc.oneof(
      fc.record({ id: fc.stringMatching(/^[a-z]{1,4}$/), note: text }).map(render),
      fc.constantFrom(
        '{"id": "dup", "id": "again"}',
        '{"id": "c" /* note */}',
        '{"id": "c"} // trailing',
        '{"id": }',
        '{"id": "big", "n": 123456789012345678901}',
        '{"id": "x", "list": [1, 2,]}',
        '{"id": "a"}, {"id": "b"}',
        '',
        '"just a string"',
        '{"id": "open',
        '{"id": "s", "note": "// not a comment /* nor this */"}',
        '{"id": "c"}, //x',
        '{"id": "c"} /* open',
        `{"id": "deep", "v": ${'['.repeat(254)}${']'.repeat(254)}}`,
        `{"id": "deeper", "v": ${'['.repeat(255)}${']'.repeat(255)}}`,
      ),
    );
    const caseArb2 = fc.record({ id: fc.stringMatching(/^[a-z]{1,4}$/), note: text });
    // Where the edit is: a case, a member of the suite before its cases, or one after them.
    const where = fc.constantFrom('case', 'case', 'case', 'before', 'after');
    fc.assert(
      fc.property(fc.array(caseArb2, { minLength: 1, maxLength: 8 }), fc.nat(), replacement, fc.boolean(), fc.constantFrom('lines', 'comments', 'one line'), where, fc.array(fc.nat(), { maxLength: 6 }), (cases, at, put, header, layout, spot, readFirst) => {
        // Cases on lines of their own, with a comment line before each (as the importers write them), or all on one line.
        const sep = layout === 'comments' ? ',\n  // between\n  ' : layout === 'lines' ? ',\n  ' : ', ';
        const file = (parts: string[], meta = '{"v": 1}', after = '') =>
          `${header ? '// head\n' : ''}{"suite": "s", "meta": ${meta}, "cases": [${layout === 'one line' ? '' : '\n  '}${parts.join(sep)}${layout === 'one line' ? '' : '\n'}]${after}}\n${header ? '/* the end */\n' : ''}`;
        const parts = cases.map(render);
        const beforeText = file(parts);
        const k = at % parts.length;
        const afterText =
          spot === 'case' ? file(parts.map((p, i) => (i === k ? put : p))) : spot === 'before' ? file(parts, `{"v": [${JSON.stringify(put)}]}`) : file(parts, undefined, `, "tail": ${JSON.stringify(put)}`);
        // What the old version's locator read (findings placed there) is taken over by the new one.
        const before = parseJson(beforeText);
        const lookups: JsonPath[] = [['suite'], ['meta', 'v'], ['tail'], ['cases', 0, 'absent']];
        for (const n of readFirst) lookups.push(['cases', n % parts.length, n % 3 === 0 ? 'id' : n % 3 === 1 ? 'note' : 'absent']);
        for (const n of readFirst) before.roots[0]?.locate?.(lookups[n % lookups.length]);
        const edited = parseJson(afterText, { text: beforeText, parsed: before });
        const scratch = parseJson(afterText);
        assert.equal(fresh(edited), fresh(scratch));
        assert.deepEqual(edited.issues, scratch.issues);
        assert.equal(edited.roots[0]?.broken, scratch.roots[0]?.broken);
        const root = edited.roots[0];
        const list = (scratch.roots[0]?.value as { cases?: unknown[] } | undefined)?.cases;
        if (root?.locate && scratch.roots[0]?.locate && Array.isArray(list)) {
          for (let i = 0; i < list.length; i++) {
            for (const path of [['cases', i], ['cases', i, 'id'], ['cases', i, 'note']]) assert.deepEqual(root.locate(path), scratch.roots[0].locate(path), JSON.stringify(path));
          }
          for (const path of [['suite'], ['meta'], ['meta', 'v'], ['tail'], ['cases', 0, 'absent'], ['cases', k, 'id', 'deeper']] as JsonPath[]) assert.deepEqual(root.locate(path), scratch.roots[0].locate(path), JSON.stringify(path));
          // The tree too (fixes and the editor's features walk it): over the edited text, comments blanked.
          assert.deepEqual(shape(root.node), shape(scratch.roots[0].node));
          // Integers past 2^53 keep their digits, as a fresh parse keeps them.
          list.forEach((c, i) => {
            const kept = (root.value as { cases: object[] }).cases[i];
            if (c && typeof c === 'object') assert.deepEqual(exactIntegersOf(kept), exactIntegersOf(c));
          });
        }
      }),
      { numRuns: 600, seed: 14 },
    );
  });

  it('resumes reading an object after an edit between a key it read and that key\'s value', () => {
    const beforeText = '{"cases": [\n  {"id": "a", "note": "x", "z": 1},\n  {"id": "b"}\n]}';
    const afterText = beforeText.replace('"note": "x"', '"note":   "x"');
    const before = parseJson(beforeText);
    // The old locator read up to `note`: its reading stopped at the start of note's value.
    before.roots[0].locate!(['cases', 0, 'note']);
    const edited = parseJson(afterText, { text: beforeText, parsed: before });
    const scratch = parseJson(afterText);
    for (const path of [['cases', 0, 'z'], ['cases', 0, 'note'], ['cases', 1, 'id']]) assert.deepEqual(edited.roots[0].locate!(path), scratch.roots[0].locate!(path), JSON.stringify(path));
  });

  it('parses afresh an edit outside the cases, even one that keeps the length of the text', () => {
    const file = (meta: number, tail: number) => `{"suite": "s", "meta": {"v": ${meta}}, "cases": [\n  {"id": "a"},\n  {"id": "b"}\n], "tail": ${tail}}`;
    for (const [from, to] of [
      [file(1, 1), file(2, 1)],
      [file(1, 1), file(1, 2)],
    ]) {
      const edited = reparse(parseJson, from, to).parsed;
      assert.equal(fresh(edited), fresh(parseJson(to)));
    }
  });

  it('reads a comment an edit brings into a file that had none', () => {
    const beforeText = '{"suite": "s", "cases": [\n  {"id": "a"},\n  {"id": "b", "task": "x"},\n  {"id": "c"}\n]}';
    const afterText = beforeText.replace('{"id": "b", "task": "x"}', '{"id": "b", /* why */ "task": "y"}');
    const { before, parsed: edited } = reparse(parseJson, beforeText, afterText);
    const scratch = parseJson(afterText);
    assert.equal(fresh(edited), fresh(scratch));
    assert.equal((edited.roots[0].value as { cases: unknown[] }).cases[2], (before.roots[0].value as { cases: unknown[] }).cases[2]);
    for (const path of [['cases', 1, 'task'], ['cases', 2, 'id']]) assert.deepEqual(edited.roots[0].locate!(path), scratch.roots[0].locate!(path));
    assert.equal(JSON.stringify(getNodeValue(edited.roots[0].node!)), JSON.stringify(scratch.roots[0].value));
    // In a long array the tree lists elements from the commas found while skipping it: a comment
    // before a comma is the tree's to leave out, as a fresh parse leaves it out.
    const many = Array.from({ length: 60 }, (_, i) => `{"id": "c${i}", "task": "${'x'.repeat(30)}"}`);
    const longBefore = `{"suite": "s", "cases": [\n  ${many.join(',\n  ')}\n]}`;
    const longAfter = longBefore.replace(many[7], `{"id": "c7", "task": "y"} /* why, "]" */`);
    const long = reparse(parseJson, longBefore, longAfter);
    assert.deepEqual(shape(long.parsed.roots[0].node), shape(parseJson(longAfter).roots[0].node));
  });

  it('builds an edit of one case from the cases around it without parsing them again', () => {
    const cases = Array.from({ length: 50 }, (_, i) => `// case ${i}\n  {"id": "c${i}", "unsafe_actions": [{"tool": "t", "where": {"type": "object"}}]}`);
    for (const head of ['', '// an imported suite\n']) {
      const beforeText = `${head}{"suite": "s", "meta": {"by": "importer"}, "cases": [\n  ${cases.join(',\n  ')}\n]}`;
      const afterText = beforeText.replace('{"id": "c20"', '{"id": "c20", "task": "new /* not a comment */"');
      const before = parseJson(beforeText);
      // Places read in the old version (a finding placed there) are taken over, moved by the edit.
      const nested = ['cases', 30, 'unsafe_actions', 0, 'tool'];
      before.roots[0].locate!(nested);
      const edited = parseJson(afterText, { text: beforeText, parsed: before });
      const scratch = parseJson(afterText);
      const old = before.roots[0].value as { meta: unknown; cases: unknown[] };
      const now = edited.roots[0].value as { meta: unknown; cases: unknown[] };
      assert.equal(fresh(edited), fresh(scratch));
      now.cases.forEach((c, i) => (i === 20 ? assert.notEqual(c, old.cases[i]) : assert.equal(c, old.cases[i])));
      // Built from the old value, not parsed whole: the suite's other members are the old objects too.
      assert.equal(now.meta, old.meta);
      assert.notEqual(now, old);
      assert.equal(Object.getPrototypeOf(now), null);
      assert.equal(Object.getPrototypeOf(now.cases[20]), null);
      for (const path of [nested, ['cases', 20, 'task'], ['cases', 49, 'id'], ['meta', 'by']]) assert.deepEqual(edited.roots[0].locate!(path), scratch.roots[0].locate!(path));
      assert.equal(JSON.stringify(edited.roots[0].node && getNodeValue(edited.roots[0].node)), JSON.stringify(scratch.roots[0].value));
    }
  });
});

