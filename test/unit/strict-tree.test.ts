import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { getNodeValue, parseTree, type Node } from 'jsonc-parser';
import { parseJson, parseJsonLines, pathAtOffset, resolveLocation, LineIndex, type JsonPath, type Location } from '../../src/core';

const RUNS = { seed: 20261130, numRuns: 300 };

/** Everything a reader of a jsonc-parser tree can see, walked in full. */
function shape(node: Node | undefined): unknown {
  if (!node) return undefined;
  return {
    type: node.type,
    offset: node.offset,
    length: node.length,
    colonOffset: node.colonOffset,
    value: node.value,
    parentOffset: node.parent?.offset,
    children: node.children?.map(shape),
  };
}

/** JSON texts laid out the ways files are: compact, indented, tabbed, CRLF, padded, one JSONL line. */
const layouts: ((v: unknown) => string)[] = [
  (v) => JSON.stringify(v),
  (v) => JSON.stringify(v, null, 2),
  (v) => JSON.stringify(v, null, '\t').replace(/\n/g, '\r\n'),
  (v) => `  \n ${spaced(v)} \n`,
  (v) => `// a JSONC file\n${commented(v)} /* end */`,
  // Line breaks of one carriage return each: a line comment ends at the first.
  (v) => `// a JSONC file\r${commented(v).replace(/\n/g, '\r')}\r// end`,
];

/** Line and block comments wherever JSON with comments allows them, quotes and slashes inside. */
function commented(v: unknown): string {
  if (Array.isArray(v)) return `[ /* "[" */ ${v.map(commented).join(', // ]\n ')} ]`;
  if (v !== null && typeof v === 'object') {
    return `{ /* } */ ${Object.entries(v).map(([k, e]) => `${JSON.stringify(k)}: /**/ ${commented(e)}`).join(' , // "\n')} }`;
  }
  // Right after a scalar, before the comma: nothing but the comment ends the scalar.
  return `${JSON.stringify(v)}/*,*/`;
}

/** Blanks on both sides of every colon and comma, which JSON.stringify never writes. */
function spaced(v: unknown): string {
  if (Array.isArray(v)) return `[ ${v.map(spaced).join(' ,\n  ')} ]`;
  if (v !== null && typeof v === 'object') {
    return `{\t${Object.entries(v).map(([k, e]) => `${JSON.stringify(k)} : ${spaced(e)}`).join(' , ')}\r\n}`;
  }
  return JSON.stringify(v);
}

const tricky = fc.oneof(
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'toString', 'a"b', 'c\\', 'é', '\u2028', ''), fc.jsonValue()),
  fc.array(fc.constantFrom('\\', '"', '\\"', '\\\\"', '}', ']', ':', ',', '{"a":1}', '\u0001', 'ab\ncd', '/', '//', '/*', '*/', 'https://x/y', '\\/', '"// "')),
);

describe('strict JSON parsing: values from JSON.parse, trees built as walked', () => {
  it('gives the same tree, value and issues as jsonc-parser for any strict JSON text', () => {
    fc.assert(
      fc.property(tricky, fc.integer({ min: 0, max: layouts.length - 1 }), (value, layout) => {
        const text = layouts[layout](value);
        const parsed = parseJson(text);
        assert.deepEqual(parsed.issues, []);
        const root = parsed.roots[0];
        assert.equal(root.broken, false);
        const expected = parseTree(text);
        assert.deepEqual(shape(root.node), shape(expected));
        assert.deepEqual(root.value, getNodeValue(expected!));
      }),
      RUNS,
    );
  });

  it('lists the children of large containers from the commas found while skipping them, with the same result', () => {
    const item = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ minLength: 20, maxLength: 60 }).map((s) => `${s}, "], {`));
    const big = fc.array(item, { minLength: 60, maxLength: 120 });
    const suite = fc.record({ suite: fc.string(), cases: big, after: fc.dictionary(fc.string({ maxLength: 8 }), big, { minKeys: 1, maxKeys: 3 }), last: big });
    fc.assert(
      fc.property(suite, fc.integer({ min: 0, max: layouts.length - 1 }), (value, layout) => {
        const text = layouts[layout](value);
        const root = parseJson(text).roots[0];
        assert.deepEqual(shape(root.node), shape(parseTree(text)));
      }),
      { ...RUNS, numRuns: 40 },
    );
  });

  it('reads JSON with comments through JSON.parse too, with the tree over the same offsets', () => {
    const text = '// head\n{ /* a "quoted" } comment */ "a": [1, /* x */ 2], // tail "\n "b": "/* not a comment */" }';
    const root = parseJson(text).roots[0];
    assert.ok(!('children' in Object.getOwnPropertyDescriptors(root.node!)), 'a lazily built tree, not jsonc-parser\'s');
    assert.deepEqual(shape(root.node), shape(parseTree(text)));
    assert.deepEqual(JSON.parse(JSON.stringify(root.value)), { a: [1, 2], b: '/* not a comment */' });
  });

  it('builds only the containers a walk reaches', () => {
    const text = JSON.stringify({ cases: [{ a: [1, 2] }, { b: { c: 'x' } }], other: { deep: [[[1]]] } });
    const root = parseJson(text).roots[0].node!;
    const cases = root.children![0].children![1];
    assert.equal(cases.children![1].children![0].children![1].children![0].children![1].value, 'x');
    const other = root.children![1].children![1] as unknown as { expanded?: unknown };
    assert.equal(other.expanded, undefined, 'an untouched container is not expanded');
  });

  it('keeps JSONL offsets in document coordinates', () => {
    const text = '{"a": 1}\r\n\n  {"b": ["x", {"c": null}]}\n';
    const parsed = parseJsonLines(text);
    assert.equal(parsed.roots.length, 2);
    assert.deepEqual(parsed.roots.map((r) => r.line), [0, 2]);
    const second = parsed.roots[1].node!;
    assert.equal(second.offset, text.indexOf('{"b"'));
    const c = second.children![0].children![1].children![1].children![0];
    assert.equal(text.slice(c.offset, c.offset + c.length), '"c": null');
  });

  it('makes prototype-free values, so a key named like an Object method is only a key', () => {
    const value = parseJson('{"constructor": 1, "__proto__": {"polluted": true}, "x": {"toString": 2}}').roots[0].value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), null);
    assert.equal(value.constructor, 1);
    assert.deepEqual(Object.keys(value), ['constructor', '__proto__', 'x']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(value.x), null);
  });

  it('still reports what JSON.parse hides: duplicate keys, deep nesting', () => {
    const dup = parseJson('{"a": 1, "b": {"c": 1, "c": 2}}');
    assert.equal(dup.issues.length, 1);
    assert.match(dup.issues[0].message, /duplicate key/);
    assert.deepEqual(JSON.parse(JSON.stringify(dup.roots[0].value)), { a: 1, b: { c: 2 } });
    const deep = parseJson('['.repeat(300) + ']'.repeat(300));
    assert.equal(deep.roots[0].broken, true);
    assert.match(deep.issues[0].message, /nesting deeper/);
  });

  it('places a path where the tree would, without building it, for any path, existing or not', () => {
    /** Paths into the value, a step past its leaves, and wrong-typed or missing steps. */
    const pathsOf = (v: unknown, prefix: JsonPath, out: JsonPath[]): JsonPath[] => {
      out.push(prefix, [...prefix, 'nope'], [...prefix, 7], [...prefix, '0']);
      if (Array.isArray(v)) v.forEach((e, i) => pathsOf(e, [...prefix, i], out));
      else if (v !== null && typeof v === 'object') for (const [k, e] of Object.entries(v)) pathsOf(e, [...prefix, k], out);
      return out;
    };
    const cases = fc.record({ suite: fc.string(), cases: fc.array(tricky, { maxLength: 12 }), x: tricky });
    // Objects of more keys than the locator reads one by one (it indexes them by name past 24).
    const wide = fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('a"b', 'c\\', 'é', '\u2028', '', 'ab', 'a\\u0062')), fc.oneof(fc.jsonValue({ maxDepth: 1 }), tricky), { minKeys: 20, maxKeys: 40 });
    fc.assert(
      fc.property(fc.oneof(tricky, cases, wide, fc.record({ cases: fc.array(wide, { maxLength: 3 }) })), fc.integer({ min: 0, max: layouts.length - 1 }), (value, layout) => {
        const text = layouts[layout](value);
        const parsed = parseJson(text);
        const root = parsed.roots[0];
        assert.ok(root.locate, 'strict roots read locations off the text');
        const lines = new LineIndex(text);
        // The same root without `locate`, so the tree answers.
        const treeOnly = { text, lines, parsed: { ...parsed, roots: [{ node: root.node, value: root.value, line: 0, broken: false }] } };
        const viaText = { text, lines, parsed };
        // Repeated and out of order: the kept element starts must not change an answer.
        const paths = pathsOf(root.value, [], []);
        for (const path of [...paths, ...paths.reverse()]) {
          for (const part of ['value', 'key'] as const) {
            const at: Location = { uri: 'file:///x', root: 0, path, part };
            assert.deepEqual(resolveLocation(viaText, at), resolveLocation(treeOnly, at), `${JSON.stringify(path)} (${part}) in ${text}`);
          }
        }
      }),
      { ...RUNS, numRuns: 100 },
    );
  });

  it('finds the path to any offset where the tree would, without building it', () => {
    const cases = fc.record({ suite: fc.string(), cases: fc.array(tricky, { maxLength: 8 }), x: tricky });
    const wide = fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('a"b', 'c\\', 'é', '', 'a\\u0062')), fc.jsonValue({ maxDepth: 1 }), { minKeys: 20, maxKeys: 40 });
    fc.assert(
      fc.property(fc.oneof(tricky, cases, wide), fc.integer({ min: 0, max: layouts.length - 1 }), fc.boolean(), fc.integer({ min: 0, max: 3 }), (value, layout, backwards, warm) => {
        const text = layouts[layout](value);
        const root = parseJson(text).roots[0];
        assert.ok(root.pathAt, 'strict roots read paths off the text');
        // What locating read first (some of it, or none) must not change an answer.
        if (warm > 0) for (const path of [['cases', warm], ['x'], [warm - 1]] as JsonPath[]) root.locate!(path);
        const offsets = Array.from({ length: text.length + 2 }, (_, i) => i);
        if (backwards) offsets.reverse();
        for (const offset of offsets) assert.deepEqual(root.pathAt(offset), pathAtOffset(root.node, offset), `offset ${offset} in ${JSON.stringify(text)}`);
      }),
      { ...RUNS, numRuns: 150 },
    );
    // Containers large enough that the tree lists their children from the commas a skip found.
    const item = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ minLength: 20, maxLength: 60 }).map((s) => `${s}, "], {`));
    const big = fc.record({ cases: fc.array(item, { minLength: 60, maxLength: 100 }), after: fc.dictionary(fc.string({ maxLength: 8 }), fc.array(item, { minLength: 60, maxLength: 100 }), { minKeys: 1, maxKeys: 2 }) });
    fc.assert(
      fc.property(big, fc.integer({ min: 0, max: layouts.length - 1 }), (value, layout) => {
        const text = layouts[layout](value);
        const root = parseJson(text).roots[0];
        const tree = root.node;
        for (let offset = 0; offset <= text.length; offset++) assert.deepEqual(root.pathAt!(offset), pathAtOffset(tree, offset), `offset ${offset}`);
      }),
      { ...RUNS, numRuns: 12 },
    );
    // JSONL: each line's root answers in document offsets, and nothing outside its line.
    const jsonl = '{"a": [1, {"b": 2}]}\r\n\n  ["x", {"c": null}] \n';
    const roots = parseJsonLines(jsonl).roots;
    for (const root of roots) for (let offset = 0; offset <= jsonl.length; offset++) assert.deepEqual(root.pathAt!(offset), pathAtOffset(root.node, offset), `offset ${offset}`);
    assert.deepEqual(roots[1].pathAt!(jsonl.indexOf('null')), [1, 'c']);
    assert.deepEqual(roots[1].pathAt!(jsonl.indexOf('"c"')), [1, 'c']);
    assert.equal(roots[0].pathAt!(jsonl.indexOf('null')), undefined);
  });

  it('places locations in JSONL lines and in JSON with comments off the text too', () => {
    const text = '// head\n{ /* "cases": [ */ "cases": [ {"a": 1}, /* , */ {"b": [2, 3]} ] }';
    const lines = parseJsonLines('{"a": 1}\r\n\n  {"b": ["x", {"c": null}]}\n');
    for (const [source, parsed] of [[text, parseJson(text)], ['{"a": 1}\r\n\n  {"b": ["x", {"c": null}]}\n', lines]] as const) {
      const doc = { text: source, lines: new LineIndex(source), parsed };
      const treeOnly = { ...doc, parsed: { ...parsed, roots: parsed.roots.map((r) => ({ node: r.node, value: r.value, line: r.line, broken: r.broken })) } };
      for (let root = 0; root < parsed.roots.length; root++) {
        assert.ok(parsed.roots[root].locate);
        for (const path of [[], ['cases', 1, 'b', 1], ['b', 1, 'c'], ['b', 0], ['a'], ['cases', 5]] as JsonPath[]) {
          for (const part of ['value', 'key'] as const) {
            const at: Location = { uri: 'file:///x', root, path, part };
            assert.deepEqual(resolveLocation(doc, at), resolveLocation(treeOnly, at));
          }
        }
      }
    }
  });
});
