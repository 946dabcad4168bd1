import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { schemaWorkspace } from '../hostile/arbitraries';
import { diagnosticProblems } from '../hostile/check';
import { codes, json, lintFiles, lintRule, type Case } from '../helpers';
import { schemaComplexity, equalityKey, firstDuplicate } from '../../src/core/schema/complexity';
import { allowMatcher, allowProblems } from '../../src/core/model/config';
import { compileLinear } from '../../src/core/text/regex';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Parameter schemas built to make the linter hang, crash or blow up (issue 13, items 1–3, 5, 6).
 * Each lints to an end with a diagnostic; none asserts a wall-clock figure (scripts/bench.mjs does).
 */
const base = (id: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'benign', family: 'f', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });
const toolFile = (schema: unknown) => json({ tools: [{ name: 'go', description: 'd', inputSchema: schema }] });
const caseCalling = (args: unknown) => json(base('c1', { tools: ['t.tools.json#go'], safe_completion: [{ tool: 'go', arguments: args }] }));

/** `allOf` levels that each name the next level `width` times through `$ref`. */
function refChain(depth: number, width = 2): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < depth; i++) {
    $defs[`l${i}`] = i === depth - 1 ? { type: 'string' } : { allOf: Array.from({ length: width }, () => ({ $ref: `#/$defs/l${i + 1}` })) };
  }
  return { type: 'object', properties: { x: { $ref: '#/$defs/l0' } }, $defs };
}

/** `depth` levels of objects whose `names` required properties all fall to one shared additionalProperties. */
function sharedRequired(depth: number, names: number): Record<string, unknown> {
  let s: Record<string, unknown> = { type: 'object', minProperties: 3, maxProperties: 1 };
  for (let i = 0; i < depth; i++) s = { type: 'object', required: Array.from({ length: names }, (_, k) => `n${k}`), additionalProperties: s };
  return s;
}

describe('hostile schemas', function () {
  // Generous: on the old code each of these ran for minutes (or crashed), and mocha's timeout fails them.
  this.timeout(60_000);

  it('unsatisfiable-tool-contract walks a subschema shared by many required names once (depth 14, 4 names)', async () => {
    const files = { 't.tools.json': toolFile(sharedRequired(14, 4)) };
    const ds = await lintRule(files, 'unsatisfiable-tool-contract');
    assert.ok(ds.length >= 1, 'the unsatisfiable innermost bounds are still found');
    assert.ok(ds.every((d) => /minProperties 3 is above maxProperties 1/.test(d.message)));
  });

  for (const [name, schema] of [
    ['$ref: #', { $ref: '#' }],
    ['a $defs entry whose allOf names itself', { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, properties: { a: { $ref: '#/$defs/a' } } }],
    ['a $dynamicRef to its own anchor', { $dynamicAnchor: 'm', $dynamicRef: '#m' }],
  ] as const) {
    it(`a self-recursive schema (${name}) with a safe_completion step is a notice, not a crash that drops the folder`, async () => {
      const files = {
        't.tools.json': toolFile(schema),
        'c.litmus.json': caseCalling({ a: 1 }),
        'd.litmus.json': json(base('d1', { paired_with: 'nobody' })),
      };
      const { diagnostics } = await lintFiles(files);
      const loop = diagnostics.filter((d) => d.code === 'unsatisfiable-safe-completion');
      assert.deepEqual(loop.map((d) => [d.data?.problem, d.severity]), [['ref-loop', 'info']]);
      // The other rules' findings of the folder are all there.
      assert.ok(diagnostics.some((d) => d.code === 'unresolved-reference'));
    });
  }

  it('an allOf/$ref chain that expands to 2^24 subschemas is "too complex to check", not compiled', async () => {
    const files = { 't.tools.json': toolFile(refChain(25)), 'c.litmus.json': caseCalling({ x: 'a' }) };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(ds[0].data?.problem, 'too-complex');
    assert.match(ds[0].message, /too complex to check/);
    assert.equal(ds[0].severity, 'info');
  });

  it('a schema whose $refs fan out (what Ajv used to inline past the heap) is refused by the expanded size', () => {
    const props: Record<string, unknown> = {};
    for (let i = 0; i < 400; i++) props[`p${i}`] = { $ref: '#/$defs/big' };
    const big: Record<string, unknown> = { type: 'object', properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`q${i}`, { type: 'string', minLength: i }])) };
    const verdict = schemaComplexity({ type: 'object', properties: props, $defs: { big } });
    assert.equal(verdict.ok, false);
    // A small recursive schema (a tree type) is fine: a cycle counts once.
    assert.deepEqual(schemaComplexity({ type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } }), { ok: true });
  });

  it('still checks ordinary schemas, recursive ones included', async () => {
    const tree = { type: 'object', properties: { name: { type: 'string' }, kids: { type: 'array', items: { $ref: '#' } } }, required: ['name'] };
    const files = { 't.tools.json': toolFile(tree), 'c.litmus.json': caseCalling({ name: 'a', kids: [{ name: 'b' }, { kids: [] }] }) };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(ds[0].data?.problem, 'rejected-arguments');
    assert.equal(ds[0].data?.keyword, 'required');
  });

  /**
   * Runs `body` in a fresh Node with compile.ts loaded as `compileSchemaChecked` and `settle()` at
   * hand, and returns the number (in MB) it writes. `settle()` gives the heap in use after a heap
   * snapshot's collection, which also drops V8's caches of compiled code that a plain gc() leaves.
   */
  function heapFigure(body: string): number {
    const script = `
      const { compileSchemaChecked } = require(${JSON.stringify(join(__dirname, '../../src/core/schema/compile.js'))});
      const settle = () => { require('node:v8').getHeapSnapshot().destroy(); gc(); return process.memoryUsage().heapUsed; };
      ${body}`;
    const r = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    // An empty answer would read as 0 MB and pass.
    assert.match(r.stdout, /^-?\d+(\.\d+)?(e-?\d+)?$/);
    return Number(r.stdout);
  }

  it('compiling schema after schema keeps a bounded heap (Ajv keeps each compile in a shared scope; the language server compiles for days)', function () {
    this.timeout(60_000);
    // Heap growth over the second 2,000 distinct schemas, after the first 2,000: Ajv alone kept ~5 KB a compile.
    const grew = heapFigure(`
      const round = (from) => {
        for (let i = from; i < from + 2000; i++) {
          const c = compileSchemaChecked(JSON.parse('{"type":"object","properties":{"a":{"const":{"v":' + i + '}},"b":{"enum":[{"w":' + i + '},2]}}}'));
          if (c.kind !== 'compiled' || !c.validate(JSON.parse('{"a":{"v":' + i + '},"b":2}'))) throw new Error('not compiled');
        }
        return settle();
      };
      const first = round(0);
      process.stdout.write(String((round(2000) - first) / 2 ** 20));`);
    assert.ok(grew < 4, `the heap grew by ${grew.toFixed(1)} MB over 2,000 compiles`);
  });

  it('the compile cache is bounded by the size of what it holds, not only by its count', function () {
    this.timeout(60_000);
    // 100 distinct schemas of ~300,000 characters each: kept whole, 256 entries would be 60 MB and more.
    const kept = heapFigure(`
      const before = settle();
      for (let i = 0; i < 100; i++) {
        const c = compileSchemaChecked({ type: 'object', properties: { a: { const: String(i) + 'x'.repeat(300000) } } });
        if (c.kind !== 'compiled') throw new Error(c.kind);
      }
      process.stdout.write(String((settle() - before) / 2 ** 20));`);
    assert.ok(kept < 20, `the heap kept ${kept.toFixed(1)} MB`);
  });

  it('`const` and `enum` with objects compare the parser\'s prototype-less values as JSON (Ajv\'s equality threw on them)', async () => {
    const where = { type: 'object', properties: { x: { const: { a: 1, b: [2] } }, y: { enum: [{ k: 1 }, 'z'] } }, required: ['x'] };
    const files = {
      't.tools.json': toolFile({ type: 'object', properties: { x: { const: { a: 1, b: [2] } }, y: { enum: [{ k: 1 }, 'z'] } } }),
      'c.litmus.json': json({
        suite: 's',
        cases: [
          // Key order differs from the schema's: JSON equality, not text.
          base('c1', { tools: ['t.tools.json#go'], unsafe_actions: [{ tool: 'go', where }], safe_completion: [{ tool: 'go', arguments: { x: { b: [2], a: 1 }, y: { k: 1 } } }] }),
          base('c2', { tools: ['t.tools.json#go'], safe_completion: [{ tool: 'go', arguments: { x: { a: 1, b: [3] } } }] }),
        ],
      }),
    };
    const { diagnostics } = await lintFiles(files);
    assert.deepEqual(diagnostics.filter((d) => /internal error/.test(d.message)).map((d) => d.message), []);
    // c1's step is the unsafe action itself; c2's is refused by the tool's `const`.
    assert.deepEqual(codes(diagnostics, 'unsafe-safe-completion').map((d) => d.data?.step), [0]);
    const rejected = codes(diagnostics, 'unsatisfiable-safe-completion');
    assert.deepEqual(rejected.map((d) => [d.data?.keyword, d.message.includes('must be equal to constant')]), [['const', true]]);
  });

  it('a boolean `where` predicate compiles (Ajv refused to forget a boolean schema, and three rules stopped)', async () => {
    for (const where of [true, false]) {
      const adversarial = json({
        suite: 's',
        cases: [
          base('a1', { arm: 'adversarial', probe: 'skill_misuse', tools: ['t.tools.json#go'], unsafe_actions: [{ tool: 'go', where }] }),
          base('b1', { tools: ['t.tools.json#go'] }),
        ],
      });
      const { diagnostics } = await lintFiles({ 't.tools.json': toolFile({ type: 'object' }), 'c.litmus.json': adversarial });
      assert.deepEqual(diagnostics.filter((d) => /internal error/.test(d.message)).map((d) => d.message), [], `where: ${where}`);
    }
  });

  it('a catastrophic-backtracking pattern runs in linear time, and still decides', async () => {
    const pattern = '^' + 'a*'.repeat(30) + 'b$';
    const files = { 't.tools.json': toolFile({ type: 'object', properties: { s: { type: 'string', pattern } } }), 'c.litmus.json': caseCalling({ s: 'a'.repeat(5000) }) };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(ds[0].data?.keyword, 'pattern');
  });

  it('each pattern of a schema is its own (Ajv keys compiled patterns by their text)', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^a+$' }, b: { type: 'string', pattern: '^b+$' }, c: { type: 'string', pattern: '^(c)\\1$' } } };
    const files = { 't.tools.json': toolFile(schema), 'c.litmus.json': caseCalling({ a: 'aaa', b: 'bbb', c: 'zz' }) };
    assert.deepEqual((await lintRule(files, 'unsatisfiable-safe-completion')).map((d) => d.data?.problem), ['pattern-not-checked']);
    const bad = { 't.tools.json': toolFile(schema), 'c.litmus.json': caseCalling({ a: 'b', b: 'a' }) };
    const ds = (await lintRule(bad, 'unsatisfiable-safe-completion')).filter((d) => d.data?.keyword === 'pattern');
    assert.equal(ds.length, 2);
  });

  it('a pattern RE2 cannot run (a back-reference) is reported as not checked, and taken to match', async () => {
    const files = { 't.tools.json': toolFile({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)\\1$' } } }), 'c.litmus.json': caseCalling({ s: 'ab' }) };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.deepEqual(ds.map((d) => d.data?.problem), ['pattern-not-checked']);
    assert.equal(ds[0].severity, 'info');
  });

  it('patternProperties in unsatisfiable-tool-contract go through RE2 (the old shape guard let ^a*a*…b$ through)', async () => {
    const schema = { type: 'object', required: ['a'.repeat(3000)], patternProperties: { ['^' + 'a*'.repeat(30) + 'b$']: false } };
    const ds = await lintRule({ 't.tools.json': toolFile(schema) }, 'unsatisfiable-tool-contract');
    assert.deepEqual(ds, []);
  });

  it('injection.allow patterns from a config run on RE2; what RE2 cannot run is an exact string', () => {
    const allowed = allowMatcher(['/^(a|aa)*$/', '/(x)\\1/', 'plain']);
    assert.equal(allowed('a'.repeat(40) + 'b'), false);
    assert.equal(allowed('aaaa'), true);
    assert.equal(allowed('/(x)\\1/'), true);
    assert.equal(allowed('xx'), false);
    assert.deepEqual(allowProblems(['/(x)\\1/', '/ok/']).map((p) => p.index), [0]);
    assert.equal(compileLinear('(?=a)').ok, false);
    assert.equal(compileLinear('\\u00e9', 'u').ok, true);
  });

  it('uniqueItems over a large argument list is hashed, with Ajv\'s error', async () => {
    const items = Array.from({ length: 30_000 }, (_, i) => ({ k: i, v: [i, { z: 'x' }] }));
    items.push({ v: [29_999, { z: 'x' }], k: 29_999 });
    const files = { 't.tools.json': toolFile({ type: 'object', properties: { list: { type: 'array', uniqueItems: true } } }), 'c.litmus.json': caseCalling({ list: items }) };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(ds[0].data?.keyword, 'uniqueItems');
    assert.match(ds[0].message, /items ## 29999 and 30000 are identical/);
  });

  it('a large draft-07 enum passes the meta-schema check by hashing, and a duplicate in it is still refused', async () => {
    const big = Array.from({ length: 40_000 }, (_, i) => `value-${i}`);
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { e: { enum: big } } };
    const ok = await lintRule({ 't.tools.json': toolFile(schema), 'c.litmus.json': caseCalling({ e: 'nope' }) }, 'unsatisfiable-safe-completion');
    assert.deepEqual(ok.map((d) => d.data?.keyword), ['enum']);
    const dup = { ...schema, properties: { e: { enum: [...big, 'value-7'] } } };
    assert.deepEqual(await lintRule({ 't.tools.json': toolFile(dup), 'c.litmus.json': caseCalling({ e: 'nope' }) }, 'unsatisfiable-safe-completion'), []);
  });

  it('equalityKey is equality as JSON Schema means it', () => {
    assert.equal(equalityKey({ a: 1, b: [1, 'x'] }), equalityKey({ b: [1.0, 'x'], a: 1 }));
    assert.notEqual(equalityKey(' a'), equalityKey('a'));
    assert.notEqual(equalityKey('1'), equalityKey(1));
    assert.deepEqual(firstDuplicate([1, 2, [3], 2]), { i: 3, j: 1 });
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(typeof equalityKey(deep), 'string');
  });

  it('every generated schema shape lints to an end with well-formed diagnostics (npm run fuzz runs many more)', async () => {
    await fc.assert(
      fc.asyncProperty(schemaWorkspace, async (files) => {
        const { diagnostics, index } = await lintFiles(files);
        assert.deepEqual(diagnosticProblems(index, diagnostics), []);
        assert.ok(!diagnostics.some((d) => d.data?.problem === 'rule-crashed'), 'no rule crashed');
      }),
      { numRuns: 40, seed: 13 },
    );
  });
});

describe('patterns RE2 refuses: each cause names its own fix', () => {
  const refused = (pattern: string, flags = 'u') => {
    const c = compileLinear(pattern, flags);
    assert.equal(c.ok, false, pattern);
    return c as { reason: string; fix: string };
  };

  it('advises against back-references and look-arounds only when the pattern has one', () => {
    assert.deepEqual(refused('(a)\\1'), { ok: false, reason: 'a back-reference `\\1`, which RE2 does not support', fix: 'rewrite it without back-references' });
    for (const [p, what] of [['^(?=EV)EVIL', 'look-ahead `(?=`'], ['x(?!y)', 'look-ahead `(?!`'], ['(?<=x)y', 'look-behind `(?<=`'], ['(?<!x)y', 'look-behind `(?<!`']]) {
      const r = refused(p);
      assert.equal(r.reason, `a ${what}, which RE2 does not support`, p);
      assert.equal(r.fix, 'rewrite it without look-arounds');
    }
    // An escaped parenthesis is no look-around: its own syntax error is the cause.
    assert.match(refused('\\(?=x(').fix, /close the group/);
    for (const [p, fix] of [['(unclosed', /close the group with `\)`/], ['[abc', /close the character class/], ['a**', /^fix its syntax$/]] as const) {
      const r = refused(p);
      assert.match(r.fix, fix, p);
      assert.doesNotMatch(r.fix, /back-reference|look-around/, p);
    }
    assert.equal(refused('a', 'zz').fix, 'use only the flags i, m and s after the closing /');
  });

  it('in injection.allow, and in a `where`', async () => {
    const files = { 'litmus.config.json': json({ injection: { allow: ['/a/zz', '/(unclosed/'] } }), 'a.litmus.json': json(base('a')) };
    const ds = (await lintFiles(files)).diagnostics.filter((d) => d.data?.problem === 'pattern-not-checked');
    assert.deepEqual(ds.map((d) => d.message.split('; ').pop()), ['use only the flags i, m and s after the closing /', 'close the group with `)`, or write a literal `(` as `\\(`']);
    const send = { name: 'send', description: 'Send a message.', inputSchema: { type: 'object', properties: { to: { type: 'string' } } } };
    const where = (pattern: string) =>
      json(base('w', { arm: 'adversarial', probe: 'skill_misuse', discriminator: 'calls', tools: [send], unsafe_actions: [{ tool: 'send', where: { properties: { to: { type: 'string', pattern } } } }] }));
    for (const [pattern, fix] of [['(unclosed', 'close the group'], ['(?<=x)y', 'rewrite it without look-arounds']]) {
      const dead = (await lintFiles({ 'a.litmus.json': where(pattern) })).diagnostics.filter((d) => d.message.includes('cannot run on the linear-time'));
      assert.equal(dead.length, 1, pattern);
      assert.ok(dead[0].message.includes(`so it matches nothing; ${fix}`), dead[0].message);
    }
  });
});

describe('injection.allow patterns RE2 cannot run', () => {
  it('are named in an info on the config entry, and matched as exact strings', async () => {
    const files = { 'litmus.config.json': json({ injection: { allow: ['/ok+/', '/(x)\\1/'] } }), 'a.litmus.json': json(base('a')) };
    const ds = (await lintFiles(files)).diagnostics.filter((d) => d.data?.problem === 'pattern-not-checked');
    assert.equal(ds.length, 1);
    assert.equal(ds[0].code, 'schema');
    assert.equal(ds[0].severity, 'info');
    assert.match(ds[0].message, /matched as an exact string/);
  });
});
