import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { isPlainSchema, plainlyAccepts, plainPredicate } from '../../src/core/schema/plain';
import { compilePredicate } from '../../src/core/trajectory/patterns';
import { compileSchemaChecked, metaSchemaProblem } from '../../src/core/schema/compile';

/**
 * `plainlyAccepts` lets `unsatisfiable-safe-completion` skip compiling a schema for a step that
 * passes it. It may only say yes where Ajv, through compile.ts, would accept and report nothing:
 * on the keywords it knows it must agree with Ajv exactly, and on any other it must defer.
 */

const NAMES = ['a', 'b', 'c', 'd'];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom(0.5, -2.5, 1e21, 3),
  fc.constantFrom('', 'x', 'ab', 'héllo', '😀😀', 'a😀'),
);

const jsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 3 }),
})).value;

const typeName = fc.constantFrom('null', 'boolean', 'integer', 'number', 'string', 'array', 'object');
const count = fc.integer({ min: 0, max: 3 });
const bound = fc.constantFrom(-1, 0, 0.5, 2, 4);

type Fields = Record<string, fc.Arbitrary<unknown>>;

/** Schemas of the structural keywords both arbitraries below share, with `more` keywords besides. */
function schemas(more: Fields): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.boolean(), tie('object')),
    object: fc.record(
      {
        type: fc.oneof(typeName, fc.uniqueArray(typeName, { minLength: 1, maxLength: 3 })),
        properties: fc.dictionary(fc.constantFrom(...NAMES), tie('schema'), { maxKeys: 3 }),
        additionalProperties: tie('schema'),
        items: tie('schema'),
        required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 }),
        const: jsonValue,
        minLength: count,
        maxLength: count,
        ...more,
      },
      { requiredKeys: [] },
    ),
  })).schema;
}

/** Schemas made of the keywords plain.ts implements, each well typed. */
const plainSchema = schemas({
  enum: fc.array(jsonValue, { minLength: 1, maxLength: 3 }),
  minItems: count,
  maxItems: count,
  minProperties: count,
  maxProperties: count,
  minimum: bound,
  maximum: bound,
  exclusiveMinimum: bound,
  exclusiveMaximum: bound,
  description: fc.constant('annotation'),
  default: jsonValue,
  format: fc.constantFrom('date-time', 'email'),
});

/** What the rule hears from Ajv: true when it would report nothing for this value. */
function ajvSilent(schema: unknown, value: unknown): boolean {
  const compiled = compileSchemaChecked(schema);
  if (compiled.kind === 'invalid') return true;
  if (compiled.kind === 'too-complex' || compiled.unchecked.length > 0) return false;
  return compiled.validate(value) as boolean;
}

describe('plain parameter schemas, checked without compiling', () => {
  it('agrees with Ajv on every schema of the plain keywords, in both drafts', () => {
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(plainSchema, jsonValue, fc.boolean(), (schema, value, draft07) => {
        const s = draft07 && typeof schema === 'object' && schema !== null ? { $schema: 'http://json-schema.org/draft-07/schema#', ...schema } : schema;
        const compiled = compileSchemaChecked(s);
        const mine = plainlyAccepts(s, value);
        if (compiled.kind === 'compiled') {
          assert.equal(mine, compiled.validate(value), `schema ${JSON.stringify(s)} value ${JSON.stringify(value)}`);
          if (mine) accepted++;
          else rejected++;
        } else {
          assert.ok(!mine || ajvSilent(s, value));
        }
      }),
      { numRuns: 3000, seed: 24 },
    );
    // Both answers come up often enough for the agreement to mean something.
    assert.ok(accepted > 300 && rejected > 300, `accepted ${accepted}, rejected ${rejected}`);
  });

  it('calls plain only schemas that both meta-schemas accept, so the schema rule may skip their meta check', () => {
    // Plain keywords, and the same keywords with values of the wrong kind, besides others.
    const wrong = fc.constantFrom<unknown>('nmber', ['string', 'string'], [], -1, 1.5, 'x', null, { a: 1 }, true, [1, 1]);
    const mixed = schemas({
      enum: fc.oneof(fc.array(jsonValue, { maxLength: 3 }), wrong),
      minItems: fc.oneof(count, wrong),
      minimum: fc.oneof(bound, wrong),
      exclusiveMinimum: fc.oneof(bound, wrong),
      pattern: fc.oneof(fc.constantFrom('^a', '(a', '(?<=a)b'), wrong),
      format: fc.oneof(fc.constant('email'), wrong),
      description: fc.oneof(fc.constant('annotation'), wrong),
      weird: wrong,
      $schema: fc.constantFrom('http://json-schema.org/draft-07/schema#', 'http://json-schema.org/draft-04/schema#'),
    });
    let plain = 0;
    let invalid = 0;
    fc.assert(
      fc.property(fc.oneof(plainSchema, mixed), (schema) => {
        const problem = metaSchemaProblem(schema);
        if (problem) invalid++;
        if (!isPlainSchema(schema)) return;
        plain++;
        assert.equal(problem, undefined, JSON.stringify(schema));
      }),
      { numRuns: 3000, seed: 27 },
    );
    assert.ok(plain > 300 && invalid > 300, `plain ${plain}, invalid ${invalid}`);
    for (const schema of [{ type: 'nmber' }, { type: 'object', properties: { a: { minimum: 'x' } } }, { $schema: 'http://json-schema.org/draft-04/schema#', exclusiveMinimum: true }]) {
      assert.equal(isPlainSchema(schema), false, JSON.stringify(schema));
      assert.ok(metaSchemaProblem(schema), JSON.stringify(schema));
    }
  });

  it('defers on every other keyword and on what it does not reason about', () => {
    const ask = [
      { type: 'string', pattern: '^a' },
      { anyOf: [{ type: 'string' }] },
      { $ref: '#/$defs/x', $defs: { x: true } },
      { type: 'object', patternProperties: { '^a': false } },
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'number', multipleOf: 2 },
      { type: 'object', properties: { __proto__x: { not: {} } } },
      { type: 'object', required: ['toString'] },
      { type: 'object', properties: { a: { type: 'string', $schema: 'http://json-schema.org/draft-07/schema#' } } },
      { enum: [] },
      { 'x-vendor': true },
    ];
    for (const schema of ask) assert.equal(plainlyAccepts(schema, {}), false, JSON.stringify(schema));
    // Deep values compare as Ajv's const compares them (compile.ts gives both one equality).
    const nest = (leaf: number): unknown => {
      let v: unknown = leaf;
      for (let i = 0; i < 100; i++) v = [v];
      return v;
    };
    for (const [a, b] of [[1, 1], [1, 2]]) assert.equal(plainlyAccepts({ const: nest(a) }, nest(b)), ajvSilent({ const: nest(a) }, nest(b)));
    assert.equal(plainlyAccepts({ type: 'object' }, Object.assign(Object.create(null), { constructor: 1 })), false);
  });

  it('accepts a typical tool call and turns down a wrong one', () => {
    const schema = {
      type: 'object',
      properties: { to: { type: 'string', format: 'email', description: 'who' }, count: { type: 'integer', minimum: 1, default: 1 }, tags: { type: 'array', items: { enum: ['a', 'b'] } } },
      required: ['to'],
      additionalProperties: false,
    };
    assert.equal(plainlyAccepts(schema, { to: 'x@y.z', count: 2, tags: ['a'] }), true);
    assert.equal(plainlyAccepts(schema, { count: 2 }), false);
    assert.equal(plainlyAccepts(schema, { to: 'x', extra: 1 }), false);
    assert.equal(plainlyAccepts(schema, { to: 'x', count: 0 }), false);
    assert.equal(plainlyAccepts(schema, { to: 'x', tags: ['c'] }), false);
  });

  // Action patterns' `where` and `respond` schemas run as predicates (trajectory/patterns.ts): a
  // plain one is tested as written, never compiled, and must decide exactly as Ajv would, patterns
  // included, and leave to Ajv what Ajv refuses.
  const pattern = fc.constantFrom('^a', 'b$', '(?i)HÉ', '\\d', '^.{2}$', '😀', '[', '(a)\\1', '');
  const predicateSchema = schemas({
    // Duplicates too: draft-07 refuses them.
    enum: fc.array(fc.constantFrom(1, 'x', null, 'ab'), { minLength: 1, maxLength: 3 }),
    minimum: bound,
    exclusiveMaximum: bound,
    pattern,
    // Ill-typed annotations and formats make the schema invalid.
    description: fc.constantFrom('annotation', 5 as unknown as string),
    format: fc.constantFrom('email', 7 as unknown as string),
  });

  it('tests plain action-pattern schemas without compiling, deciding as Ajv does', () => {
    let plain = 0;
    let yes = 0;
    let no = 0;
    fc.assert(
      fc.property(predicateSchema, fc.oneof(jsonValue, fc.constantFrom('a', 'hé', 'xb', '12', 'a😀', 'HÉLLO')), fc.boolean(), (schema, value, draft07) => {
        const s = draft07 && typeof schema === 'object' && schema !== null ? { $schema: 'http://json-schema.org/draft-07/schema#', ...schema } : schema;
        const compiled = compileSchemaChecked(s);
        const mine = plainPredicate(s);
        const p = compilePredicate(s);
        if (compiled.kind !== 'compiled' || compiled.unchecked.length > 0) {
          // Invalid, too complex or unrunnable: Ajv's to say, and the predicate says what Ajv says.
          assert.equal(mine, undefined, `plain but refused: ${JSON.stringify(s)}`);
          assert.notEqual(p.state, 'ok');
          return;
        }
        const ajv = compiled.validate(value) as boolean;
        assert.equal(p.state, 'ok');
        if (p.state === 'ok') assert.equal(p.test(value), ajv, `schema ${JSON.stringify(s)} value ${JSON.stringify(value)}`);
        if (mine) {
          plain++;
          const answer = mine(value);
          if (answer !== undefined) assert.equal(answer, ajv, `schema ${JSON.stringify(s)} value ${JSON.stringify(value)}`);
          if (answer === true) yes++;
          if (answer === false) no++;
        }
      }),
      { numRuns: 4000, seed: 24 },
    );
    assert.ok(plain > 500 && yes > 150 && no > 150, `plain ${plain}, yes ${yes}, no ${no}`);
  });

  it('leaves an object key that Object.prototype has to Ajv, and refuses what Ajv refuses', () => {
    const value = Object.assign(Object.create(null), { constructor: 'x' }) as Record<string, unknown>;
    const test = plainPredicate({ type: 'object', additionalProperties: { type: 'string', pattern: '^x$' } });
    assert.ok(test);
    assert.equal(test(value), undefined);
    const p = compilePredicate({ type: 'object', additionalProperties: { type: 'string', pattern: '^x$' } });
    assert.ok(p.state === 'ok' && p.test(value) === true);
    assert.ok(p.state === 'ok' && p.test(Object.assign(Object.create(null), { constructor: 'y' })) === false);
    // A pattern RE2 cannot run is the predicate's to report, not a plain test's.
    assert.equal(plainPredicate({ type: 'string', pattern: '(a)\\1' }), undefined);
    assert.equal(compilePredicate({ type: 'string', pattern: '(a)\\1' }).state, 'unrunnable');
    assert.equal(plainPredicate({ type: 'string', description: 5 }), undefined);
    assert.equal(compilePredicate({ type: 'string', description: 5 }).state, 'invalid');
    assert.equal(plainPredicate({ $schema: 'http://json-schema.org/draft-07/schema#', enum: [1, 1] }), undefined);
  });
});
