import assert from 'node:assert/strict';
import { canonicalize, fieldValue, sameOrderedJson } from '../../src/core/model/canonical';
import { parseJson, parseJsonLines } from '../../src/core/text/parse';
import fc from 'fast-check';
import { bigIntegerWorkspace } from '../hostile/arbitraries';
import { oracleCaseProblems } from '../hostile/check';
import { codes, json, jsonl, lintFiles, type Case } from '../helpers';

/**
 * Issue 22, item 16: integers above 2^53 compared as doubles, so the distinct ids
 * 1234567890123456789 and 1234567890123456790 (one double) made false `signature-overlap` and
 * `unsafe-safe-completion` errors, where a Python scorer (exact integers) sees two values.
 */
const A = '1234567890123456789';
const B = '1234567890123456790';

/** The value of the only root of a JSON text, however it was parsed (strict, with comments, with a trailing comma). */
const valueOf = (text: string): unknown => parseJson(text).roots[0].value;

describe('integers above 2^53 (issue 22)', () => {
  it('two big integers one double apart have different canonical forms, wherever they stand', () => {
    assert.equal(Number(A), Number(B), 'the premise: one double');
    for (const wrap of [(n: string) => `{"id": ${n}}`, (n: string) => `[${n}]`, (n: string) => `{"a": [{"b": ${n}}]}`]) {
      assert.notEqual(canonicalize(valueOf(wrap(A))), canonicalize(valueOf(wrap(B))), wrap('N'));
      assert.equal(canonicalize(valueOf(wrap(A))), canonicalize(valueOf(wrap(A).replace(/\s/g, ''))), wrap('N'));
    }
  });

  it('reads the spelling on every parse path: strict JSON, JSON with comments, a trailing comma, JSONL', () => {
    const paths = [
      (n: string) => `{"id": ${n}}`,
      (n: string) => `// a comment\n{"id": ${n}}`,
      (n: string) => `{"id": ${n}, "x": [1,],}`,
      (n: string) => `{"id": 1, "id": ${n}}`,
    ];
    for (const p of paths) assert.notEqual(canonicalize(valueOf(p(A))), canonicalize(valueOf(p(B))), p('N'));
    const lines = parseJsonLines(`{"id": ${A}}\n{"id": ${B}}\n`).roots.map((r) => canonicalize(r.value));
    assert.notEqual(lines[0], lines[1]);
  });

  it('a field that is itself a big integer compares exactly through fieldValue', () => {
    const a = valueOf(`{"sig": ${A}}`) as Record<string, unknown>;
    const b = valueOf(`{"sig": ${B}}`) as Record<string, unknown>;
    assert.notEqual(canonicalize(fieldValue(a, 'sig')), canonicalize(fieldValue(b, 'sig')));
    assert.equal(canonicalize(fieldValue(a, 'sig')), canonicalize(fieldValue(valueOf(`{"sig": ${A}}`) as Record<string, unknown>, 'sig')));
  });

  it('keeps one number whatever its spelling, as Python compares an int with a float', () => {
    // 1e20 is exactly 10^20 as a double: Python's 10**20 == 1e20.
    assert.equal(canonicalize(valueOf('{"n": 100000000000000000000}')), canonicalize(valueOf('{"n": 1e20}')));
    // 2^53 + 1 as a float is rounded to 2^53; as an integer it is not.
    // FORMAT §3b: number spelling does not matter, so 2^53 + 1 written with a fraction is still 2^53 + 1.
    assert.equal(canonicalize(valueOf('{"n": 9007199254740993}')), canonicalize(valueOf('{"n": 9007199254740993.0}')));
    assert.equal(canonicalize(valueOf('{"n": 9007199254740992}')), canonicalize(valueOf('{"n": 9007199254740992.0}')));
    assert.equal(canonicalize(valueOf('{"n": -1234567890123456789}')), canonicalize(valueOf('{ "n" : -1234567890123456789 }')));
    assert.notEqual(canonicalize(valueOf('{"n": -1234567890123456789}')), canonicalize(valueOf('{"n": 1234567890123456789}')));
  });

  const adversarial = (sig: unknown, more: Case = {}): Case => ({ instance_id: 'a1', arm: 'adversarial', probe: 'skill_misuse', family: 'f', task: 't', resolution: 'decline', correct_resolution_signature: sig, paired_with: 'b1', discriminator: 'state', ...more });
  const benign = (sig: unknown): Case => ({ instance_id: 'b1', arm: 'benign', family: 'f', task: 't', resolution: 'comply', correct_resolution_signature: sig, paired_with: 'a1', discriminator: 'state' });
  /** A suite text with raw integer literals: `"@A@"` in the JSON becomes the literal A. */
  const raw = (text: string) => text.replace(/"@A@"/g, A).replace(/"@B@"/g, B);

  it('signature-overlap does not pair two signatures that differ in a big id, nested or bare', async () => {
    for (const [x, y] of [[{ deleted: '@A@' }, { deleted: '@B@' }], ['@A@', '@B@']]) {
      const files = { 's.litmus.json': raw(json({ suite: 's', cases: [adversarial(x), benign(y)] })) };
      assert.deepEqual(codes((await lintFiles(files)).diagnostics, 'signature-overlap'), [], JSON.stringify(x));
      // The same id on both sides is still an overlap.
      const same = { 's.litmus.json': raw(json({ suite: 's', cases: [adversarial(x), benign(x)] })) };
      assert.equal(codes((await lintFiles(same)).diagnostics, 'signature-overlap').length, 2, JSON.stringify(x));
    }
  });

  it('unsafe-safe-completion does not match a step whose id differs from the pattern beyond 2^53 (JSONL too)', async () => {
    const tools = [{ name: 'delete_record', description: 'Deletes a record.', inputSchema: { type: 'object', properties: { id: { type: 'integer' } } } }];
    const step = (id: string) => ({ tools, safe_completion: [{ tool: 'delete_record', arguments: { id } }], unsafe_actions: [{ tool: 'delete_record', arguments: { id: '@B@' } }] });
    const differ = raw(jsonl(adversarial('x', step('@A@')), benign('y')));
    assert.deepEqual(codes((await lintFiles({ 's.litmus.jsonl': differ })).diagnostics, 'unsafe-safe-completion'), []);
    const same = raw(jsonl(adversarial('x', step('@B@')), benign('y')));
    assert.equal(codes((await lintFiles({ 's.litmus.jsonl': same })).diagnostics, 'unsafe-safe-completion').length, 1);
  });

  it('signature-overlap and unsafe-safe-completion fire exactly when two generated integers are equal (property)', async () => {
    await fc.assert(
      fc.asyncProperty(bigIntegerWorkspace, async (c) => assert.deepEqual(await oracleCaseProblems(c), [])),
      { seed: 22, numRuns: 120 },
    );
  });

  it('one big integer is one number whatever its spelling: a fraction of zeros, an exponent (§3b)', () => {
    const n = '12345678901234567891';
    for (const other of ['12345678901234567891.0', '1.2345678901234567891e19', '123456789012345678910e-1', '0.12345678901234567891E+20']) {
      assert.equal(canonicalize(valueOf(`{"n": ${other}}`)), canonicalize(valueOf(`{"n": ${n}}`)), other);
      assert.notEqual(canonicalize(valueOf(`{"n": ${other}}`)), canonicalize(valueOf('{"n": 12345678901234567892}')), other);
    }
    assert.equal(canonicalize(valueOf('{"n": [-1.5e300]}')), canonicalize(valueOf(`{"n": [-15${'0'.repeat(299)}]}`)));
    // A fraction that is not zero is not the integer.
    assert.notEqual(canonicalize(valueOf('{"n": 12345678901234567891.5}')), canonicalize(valueOf(`{"n": ${n}}`)));
  });

  it('unsafe-safe-completion matches a step whose big integer the pattern spells another way', async () => {
    const tools = [{ name: 'delete_record', description: 'Deletes a record.', inputSchema: { type: 'object', properties: { id: { type: 'integer' } } } }];
    const c = (pattern: string, step: string) =>
      json({ suite: 's', cases: [adversarial('x', { tools, safe_completion: [{ tool: 'delete_record', arguments: { id: '@S@' } }], unsafe_actions: [{ tool: 'delete_record', arguments: { id: '@P@' } }] }), benign('y')] })
        .replace('"@S@"', step)
        .replace('"@P@"', pattern);
    assert.equal(codes((await lintFiles({ 's.litmus.json': c('12345678901234567891.0', '12345678901234567891') })).diagnostics, 'unsafe-safe-completion').length, 1);
    assert.deepEqual(codes((await lintFiles({ 's.litmus.json': c('12345678901234567891.0', '12345678901234567892') })).diagnostics, 'unsafe-safe-completion'), []);
  });

  it('a `where` const or enum compares big integers exactly, nested or not', async () => {
    const tools = [{ name: 'pay', description: 'Pays.', inputSchema: { type: 'object', properties: { id: { type: 'integer' }, meta: { type: 'object' } } } }];
    const wheres = [
      { properties: { id: { const: '@P@' } }, required: ['id'] },
      { properties: { id: { enum: [1, '@P@'] } }, required: ['id'] },
      { properties: { meta: { properties: { k: { const: '@P@' } } } }, required: ['meta'] },
      // Not plain: compiled by Ajv, whose const and enum are ours too.
      { properties: { id: { anyOf: [{ const: '@P@' }, { const: 7 }] } }, required: ['id'] },
    ];
    for (const where of wheres) {
      const args = where.required[0] === 'meta' ? { meta: { k: '@S@' } } : { id: '@S@' };
      const c = (step: string) =>
        json({ suite: 's', cases: [adversarial('x', { tools, safe_completion: [{ tool: 'pay', arguments: args }], unsafe_actions: [{ tool: 'pay', where }] }), benign('y')] })
          .replace(/"@S@"/g, step)
          .replace(/"@P@"/g, '12345678901234567891');
      const found = async (step: string) => codes((await lintFiles({ 's.litmus.json': c(step) })).diagnostics, 'unsafe-safe-completion').length;
      assert.equal(await found('12345678901234567892'), 0, JSON.stringify(where));
      assert.equal(await found('12345678901234567891'), 1, JSON.stringify(where));
    }
  });

  // [keyword, bound, value, whether the value is within]: each pair one double apart, or 2^53 + 1
  // against 2^53, where doubles decide the other way.
  const BOUND_CASES: readonly (readonly [string, string, string, boolean])[] = [
    ['exclusiveMinimum', '9007199254740992', '9007199254740993', true],
    ['exclusiveMinimum', '9007199254740993', '9007199254740993', false],
    ['minimum', '12345678901234567891', '12345678901234567890', false],
    ['minimum', '12345678901234567891', '12345678901234567891', true],
    ['maximum', '12345678901234567890', '12345678901234567891', false],
    ['maximum', '12345678901234567891', '12345678901234567890', true],
    ['exclusiveMaximum', '12345678901234567892', '12345678901234567891', true],
    ['exclusiveMaximum', '-12345678901234567892', '-12345678901234567891', false],
    ['multipleOf', '2', '12345678901234567891', false],
    ['multipleOf', '3', '12345678901234567890', true],
    ['multipleOf', '12345678901234567891', '12345678901234567891', true],
    ['multipleOf', '12345678901234567891', '12345678901234567890', false],
  ];

  it('a `where` bound or multipleOf compares big integers exactly, plain or compiled by Ajv (§3b)', async () => {
    const tools = [{ name: 'pay', description: 'Pays.', inputSchema: { type: 'object', properties: { amount: { type: 'integer' } } } }];
    for (const [keyword, bound, value, within] of BOUND_CASES) {
      // The first is plain (plain.ts); the second is not (Ajv's validator).
      for (const sub of [{ [keyword]: '@B@' }, { anyOf: [{ [keyword]: '@B@' }, { const: 'never' }] }]) {
        const where = { properties: { amount: sub }, required: ['amount'] };
        const text = json({ suite: 's', cases: [adversarial('x', { tools, safe_completion: [{ tool: 'pay', arguments: { amount: '@V@' } }], unsafe_actions: [{ tool: 'pay', where }] }), benign('y')] })
          .replace(/"@B@"/g, bound)
          .replace(/"@V@"/g, value);
        const found = codes((await lintFiles({ 's.litmus.json': text })).diagnostics, 'unsafe-safe-completion').length;
        assert.equal(found, within ? 1 : 0, `${value} against ${JSON.stringify(sub)} ${bound}`);
      }
    }
  });

  it("unsatisfiable-safe-completion holds a big integer argument to the tool's bounds exactly, and shows the bound as written", async () => {
    for (const [keyword, bound, value, within] of BOUND_CASES) {
      const tools = [{ name: 'pay', description: 'Pays.', inputSchema: { type: 'object', properties: { amount: { type: 'integer', [keyword]: '@B@' } } } }];
      const text = json({ suite: 's', cases: [adversarial('x', { tools, safe_completion: [{ tool: 'pay', arguments: { amount: '@V@' } }] }), benign('y')] })
        .replace(/"@B@"/g, bound)
        .replace(/"@V@"/g, value);
      const found = codes((await lintFiles({ 's.litmus.json': text })).diagnostics, 'unsatisfiable-safe-completion');
      assert.equal(found.length, within ? 0 : 1, `${value} against ${keyword} ${bound}`);
      if (!within) assert.ok(found[0].message.includes(bound), found[0].message);
    }
  });

  it('unsatisfiable-tool-contract orders big integer bounds exactly', async () => {
    const contract = async (bounds: string) => {
      const tools = [{ name: 'pay', description: 'Pays.', inputSchema: { type: 'object', properties: { amount: { type: 'integer', '@X@': 0 } }, required: ['amount'] } }];
      const text = json({ suite: 's', cases: [adversarial('x', { tools }), benign('y')] }).replace('"@X@": 0', bounds);
      return codes((await lintFiles({ 's.litmus.json': text })).diagnostics, 'unsatisfiable-tool-contract');
    };
    const crossed = await contract('"minimum": 12345678901234567891, "maximum": 12345678901234567890');
    assert.equal(crossed.length, 1);
    assert.ok(crossed[0].message.includes('minimum 12345678901234567891 is above maximum 12345678901234567890'), crossed[0].message);
    assert.equal((await contract('"minimum": 9007199254740993, "exclusiveMaximum": 9007199254740993')).length, 1);
    assert.deepEqual(await contract('"minimum": 12345678901234567890, "maximum": 12345678901234567891'), []);
    // Numbers lie between 2^53 and 2^53 + 1 (FORMAT §3b: the bounds are numbers), one double apart.
    assert.deepEqual(await contract('"exclusiveMinimum": 9007199254740992, "exclusiveMaximum": 9007199254740993'), []);
  });

  it('a tool read again after an edit of one big integer digit is a new model, not the one read before', async () => {
    assert.ok(!sameOrderedJson(valueOf('{"maximum": 12345678901234567890}'), valueOf('{"maximum": 12345678901234567891}')));
    assert.ok(sameOrderedJson(valueOf('{"maximum": [12345678901234567890]}'), valueOf('{"maximum": [1.2345678901234567890e19]}')));
    const text = (max: string) =>
      json({ suite: 's', cases: [adversarial('x', { tools: [{ name: 'pay', description: 'Pays.', inputSchema: { type: 'object', properties: { n: { type: 'integer', maximum: '@M@' } } } }], safe_completion: [{ tool: 'pay', arguments: { n: 12 } }] }), benign('y')] })
        .replace('"@M@"', max)
        .replace('"n": 12', '"n": 12345678901234567891');
    assert.equal(codes((await lintFiles({ 's.litmus.json': text('12345678901234567891') })).diagnostics, 'unsatisfiable-safe-completion').length, 0);
    assert.equal(codes((await lintFiles({ 's.litmus.json': text('12345678901234567890') })).diagnostics, 'unsatisfiable-safe-completion').length, 1);
  });
});
