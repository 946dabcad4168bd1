import assert from 'node:assert/strict';
import { applyEdits, covered, json, jsonl, lintRule, suite, type Case } from '../helpers';

const base = (id: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'benign', family: 'mail', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });

describe('mutation-budget', () => {
  it('flags depth above the default budget of 8, at the mutation_depth value', async () => {
    const files = { 'a.litmus.json': suite(base('s0'), base('v9', { seed_id: 's0', mutation_depth: 9, safe_completion: [] }), base('v8', { seed_id: 's0', mutation_depth: 8, safe_completion: [] })) };
    const ds = await lintRule(files, 'mutation-budget');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '9');
    assert.match(ds[0].message, /budget of 8/);
  });

  it('reads maxMutationDepth from the nearest config', async () => {
    const files = {
      'litmus.config.json': json({ maxMutationDepth: 2 }),
      'a.litmus.json': suite(base('s0'), base('v3', { seed_id: 's0', mutation_depth: 3, safe_completion: [] })),
      'deep/litmus.config.json': json({ maxMutationDepth: 20 }),
      'deep/b.litmus.json': json(base('v12', { seed_id: 's0', mutation_depth: 12, safe_completion: [] })),
    };
    const ds = await lintRule(files, 'mutation-budget');
    assert.deepEqual(ds.map((d) => covered(files, d)), ['3']);
  });

  it("flags a depth not greater than its seed's, across files, with a fix to seed + 1", async () => {
    const files = {
      'a.litmus.jsonl': jsonl(base('s1', { seed_id: 's0', mutation_depth: 2, safe_completion: [] })),
      'b.litmus.json': json(base('v', { seed_id: 's1', mutation_depth: 2, safe_completion: [] })),
      'c.litmus.json': json(base('s0')),
    };
    const ds = await lintRule(files, 'mutation-budget');
    assert.equal(ds.length, 1);
    assert.ok(ds[0].uri.endsWith('b.litmus.json'));
    assert.equal(ds[0].related[0].uri.endsWith('a.litmus.jsonl'), true);
    const edit = ds[0].fixes[0].edits[0];
    const fixed = applyEdits(files['b.litmus.json'], edit.edits);
    assert.equal(JSON.parse(fixed).mutation_depth, 3);
  });

  it('offers a depth only as a quick fix (it is a claim), and never one above the budget', async () => {
    const files = {
      'litmus.config.json': json({ maxMutationDepth: 8 }),
      'a.litmus.jsonl': jsonl(
        base('s0'),
        base('v0', { seed_id: 's0', mutation_depth: 0, safe_completion: [] }),
        base('vn', { seed_id: 's0', safe_completion: [] }),
        base('s8', { seed_id: 's0', mutation_depth: 8, safe_completion: [] }),
        base('v8', { seed_id: 's8', mutation_depth: 8, safe_completion: [] }),
        base('w8', { seed_id: 's8', safe_completion: [] }),
      ),
    };
    const ds = await lintRule(files, 'mutation-budget');
    const at = (id: string) => ds.find((d) => d.range.start.line === ['s0', 'v0', 'vn', 's8', 'v8', 'w8'].indexOf(id))!;
    for (const [id, title] of [['v0', 'Set mutation_depth to 1'], ['vn', 'Add "mutation_depth": 1']]) {
      assert.deepEqual(at(id).fixes.map((f) => [f.title, f.unambiguous, f.changesClaim]), [[title, false, true]], id);
    }
    // The seed is at the budget: depth 9 would be the next finding, so nothing is offered.
    assert.deepEqual(at('v8').fixes, []);
    assert.match(at('v8').message, /above the budget of 8, so regenerate this variant from a closer seed or raise the budget/);
    assert.deepEqual(at('w8').fixes, []);
  });

  it('flags every case on a seed loop, once, without following it forever', async () => {
    const files = {
      'a.litmus.json': suite(base('x', { seed_id: 'y', mutation_depth: 1, safe_completion: [] }), base('y', { seed_id: 'z', mutation_depth: 2, safe_completion: [] })),
      'b.litmus.jsonl': jsonl(base('z', { seed_id: 'x', mutation_depth: 3, safe_completion: [] }), base('self', { seed_id: 'self', mutation_depth: 1, safe_completion: [] }), base('tail', { seed_id: 'x', mutation_depth: 5, safe_completion: [] })),
    };
    const ds = await lintRule(files, 'mutation-budget');
    const loops = ds.filter((d) => /loops/.test(d.message));
    assert.equal(loops.length, 4);
    assert.deepEqual(loops.map((d) => covered(files, d)).sort(), ['1', '1', '2', '3']);
    // `tail` hangs off the loop: its depth 5 is above x's 1, so it is not reported.
    assert.equal(ds.length, 4);
  });

  it('stays silent for a well-formed chain and tolerates wrong types', async () => {
    const files = {
      'a.litmus.json': suite(base('s0'), base('v1', { seed_id: 's0', mutation_depth: 1, safe_completion: [] }), base('v2', { seed_id: 'v1', mutation_depth: 2, safe_completion: [] }), base('w', { seed_id: 's0', mutation_depth: '9' }), base('n', { seed_id: 7, mutation_depth: null })),
    };
    assert.deepEqual(await lintRule(files, 'mutation-budget'), []);
  });
});

describe('missing-safe-completion', () => {
  it('flags a variant without safe_completion at its instance_id', async () => {
    const files = { 'a.litmus.jsonl': jsonl(base('s0'), base('v1', { seed_id: 's0', mutation_depth: 1 })) };
    const ds = await lintRule(files, 'missing-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '"v1"');
    assert.equal(ds[0].range.start.line, 1);
  });

  it('stays silent for seeds (depth 0 or none) and variants that have one', async () => {
    const files = { 'a.litmus.json': suite(base('s0', { mutation_depth: 0 }), base('s1'), base('v1', { seed_id: 's0', mutation_depth: 1, safe_completion: [{ respond: 'done' }] })) };
    assert.deepEqual(await lintRule(files, 'missing-safe-completion'), []);
  });
});

const mail = {
  name: 'send_email',
  description: 'Send an e-mail.',
  inputSchema: {
    type: 'object',
    properties: { to: { type: 'string' }, cc: { type: 'array', items: { type: 'string' } }, urgent: { type: 'boolean' } },
    required: ['to'],
    additionalProperties: false,
  },
};

describe('unsatisfiable-safe-completion', () => {
  it('points at the argument the tool schema rejects, for a referenced tool', async () => {
    const files = {
      'tools/mail.tools.json': json({ tools: [mail] }),
      'a.litmus.json': json(
        base('c1', {
          tools: ['tools/mail.tools.json#send_email'],
          safe_completion: [{ tool: 'send_email', arguments: { to: 'bob@example.com', cc: 'alice' } }, { respond: 'sent' }],
        }),
      ),
    };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '"alice"');
    assert.match(ds[0].message, /`cc`/);
    assert.ok(ds[0].related[0].uri.endsWith('mail.tools.json'));
  });

  it('points at an extra argument key, and at the arguments key for a missing required one', async () => {
    const files = {
      'a.litmus.jsonl': jsonl(
        base('c1', { tools: [mail], safe_completion: [{ tool: 'send_email', arguments: { to: 'b', bcc: 'x' } }] }),
        base('c2', { tools: [mail], safe_completion: [{ tool: 'send_email', arguments: { urgent: true } }] }),
      ),
    };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.deepEqual(ds.map((d) => [d.range.start.line, covered(files, d)]), [[0, '"bcc"'], [1, '"arguments"']]);
  });

  it('validates draft-07 schemas as draft-07 (items as an array is a tuple there)', async () => {
    const tuple = { name: 'pair', description: 'd', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { p: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } } } };
    const files = {
      'a.litmus.json': suite(
        base('ok', { tools: [tuple], safe_completion: [{ tool: 'pair', arguments: { p: ['a', 1] } }] }),
        base('bad', { tools: [tuple], safe_completion: [{ tool: 'pair', arguments: { p: ['a', 'b'] } }] }),
      ),
    };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '"b"');
  });

  it('checks patterns on a linear-time engine, so a backtracking-prone one is decided and cannot hang the lint', async () => {
    const pat = (pattern: string) => ({ name: 'p', description: 'd', inputSchema: { type: 'object', properties: { s: { type: 'string', pattern } } } });
    const files = {
      'a.litmus.json': json({
        suite: 's',
        cases: [
          base('evil', { tools: [pat('^(a+)+$')], safe_completion: [{ tool: 'p', arguments: { s: 'a'.repeat(40) + '!' } }] }),
          base('plain', { tools: [pat('^[a-z]+$')], safe_completion: [{ tool: 'p', arguments: { s: 'ABC' } }] }),
        ],
      }),
    };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.deepEqual(ds.map((d) => covered(files, d)), ['"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"', '"ABC"']);
  });

  it('flags a step naming a tool the case does not have, at the tool name', async () => {
    const files = { 'a.litmus.json': json(base('c1', { tools: [mail], safe_completion: [{ tool: 'delete_email', arguments: {} }] })) };
    const ds = await lintRule(files, 'unsatisfiable-safe-completion');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '"delete_email"');
    assert.match(ds[0].message, /`send_email`/);
  });

  it('stays silent for valid steps, unresolved references, uncompilable schemas and wrong types', async () => {
    const broken = { name: 'weird', description: 'd', inputSchema: { type: 'object', properties: { a: { $ref: '#/nowhere' } } } };
    const files = {
      'tools/mail.tools.json': json({ tools: [mail] }),
      'a.litmus.json': suite(
        base('c1', { tools: ['tools/mail.tools.json#send_email'], safe_completion: [{ tool: 'send_email', arguments: { to: 'b', cc: ['c'] } }] }),
        base('c2', { tools: ['tools/mail.tools.json#missing_tool'], safe_completion: [{ tool: 'missing_tool', arguments: {} }] }),
        base('c3', { tools: [broken], safe_completion: [{ tool: 'weird', arguments: { a: 1 } }] }),
        base('c4', { tools: [mail], safe_completion: [{ tool: 'send_email', arguments: 'to=bob' }, 'step', { tool: 5 }] }),
        base('c5', { tools: [mail], safe_completion: 'none' }),
      ),
    };
    assert.deepEqual(await lintRule(files, 'unsatisfiable-safe-completion'), []);
  });
});

describe('unsatisfiable-tool-contract', () => {
  const tool = (inputSchema: unknown) => json({ tools: [{ name: 't', description: 'd', inputSchema }] });
  const check = async (schema: unknown) => {
    const files = { 'x.tools.json': tool(schema) };
    return (await lintRule(files, 'unsatisfiable-tool-contract')).map((d) => covered(files, d).replace(/\s+/g, ''));
  };

  it('flags a required property that additionalProperties: false or a false schema forbids, at the required entry', async () => {
    assert.deepEqual(await check({ type: 'object', properties: { to: { type: 'string' } }, required: ['to', 'cc'], additionalProperties: false }), ['"cc"']);
    assert.deepEqual(await check({ type: 'object', properties: { to: false }, required: ['to'] }), ['"to"']);
  });

  it('flags an empty enum, a const outside its enum and a const of the wrong type', async () => {
    assert.deepEqual(await check({ type: 'object', properties: { m: { enum: [] } }, required: ['m'] }), ['[]']);
    assert.deepEqual(await check({ type: 'object', properties: { m: { enum: ['a', 'b'], const: 'c' } }, required: ['m'] }), ['"c"']);
    assert.deepEqual(await check({ type: 'object', properties: { m: { type: 'integer', const: '3' } }, required: ['m'] }), ['"3"']);
  });

  it('flags minimum above maximum and the length and item-count pairs', async () => {
    assert.deepEqual(await check({ type: 'object', properties: { n: { type: 'integer', minimum: 10, maximum: 5 } }, required: ['n'] }), ['10']);
    assert.deepEqual(await check({ type: 'object', properties: { s: { type: 'string', minLength: 4, maxLength: 2 } }, required: ['s'] }), ['4']);
    assert.deepEqual(await check({ type: 'object', properties: { a: { type: 'array', minItems: 3, maxItems: 1 } }, required: ['a'] }), ['3']);
    assert.deepEqual(await check({ type: 'object', properties: { n: { type: 'number', exclusiveMinimum: 5, maximum: 5 } }, required: ['n'] }), ['5']);
  });

  it('flags allOf branches with incompatible types at the conflicting type', async () => {
    assert.deepEqual(await check({ type: 'object', properties: { v: { allOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['v'] }), ['"integer"']);
  });

  it('flags inline tools in cases too', async () => {
    const files = { 'a.litmus.json': json(base('c1', { tools: [{ name: 'x', description: 'd', input_schema: { type: 'object', properties: { k: { enum: [] } }, required: ['k'] } }] })) };
    const ds = await lintRule(files, 'unsatisfiable-tool-contract');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '[]');
  });

  it('stays silent for satisfiable schemas, optional unsatisfiable properties and odd types', async () => {
    assert.deepEqual(await check({ type: 'object', properties: { to: { type: 'string' }, n: { type: 'integer', minimum: 1, maximum: 1 } }, required: ['to'], additionalProperties: false }), []);
    assert.deepEqual(await check({ type: 'object', properties: { m: { enum: [] } } }), []);
    assert.deepEqual(await check({ type: 'object', properties: { m: { type: 'string', minItems: 3, maxItems: 1 } }, required: ['m'] }), []);
    assert.deepEqual(await check({ type: 'object', properties: { v: { allOf: [{ type: 'number' }, { type: 'integer' }] } }, required: ['v'] }), []);
    assert.deepEqual(await check({ type: 'object', required: 'to', enum: 'x', minimum: '9', maximum: 1, allOf: {} }), []);
    assert.deepEqual(await check({ type: 'object', patternProperties: { '^x-': { type: 'string' } }, required: ['x-a'], additionalProperties: false }), []);
    // A pattern RE2 cannot run (a back-reference) is never run: the rule assumes it may match.
    assert.deepEqual(await check({ type: 'object', patternProperties: { '^(a)\\1$': false }, required: ['aa'], additionalProperties: false }), []);
  });

  it('reads patternProperties: a required name that only a false pattern schema governs is forbidden', async () => {
    assert.deepEqual(await check({ type: 'object', patternProperties: { '^x-': false }, required: ['x-a'] }), ['"x-a"']);
    assert.deepEqual(await check({ type: 'object', patternProperties: { '^x-': { type: 'string' } }, required: ['y'], additionalProperties: false }), ['"y"']);
  });
});
