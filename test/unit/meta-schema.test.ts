import assert from 'node:assert/strict';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import * as fc from 'fast-check';
import { compileParameterSchema } from '../../src/core/schema/compile';
import { metaSchema07 } from '../../src/core/schema/generated/meta-07';
import { metaSchema2020 } from '../../src/core/schema/generated/meta-2020';

const RUNS = { seed: 20261130, numRuns: 400 };

/** Schema-like values: real keywords with right and wrong types, nested, plus arbitrary JSON. */
const keyword = fc.constantFrom('type', 'properties', 'items', 'required', 'enum', 'const', 'minLength', 'maximum', 'pattern', 'additionalProperties', 'anyOf', 'allOf', 'not', '$ref', '$defs', 'format', 'default', 'prefixItems', 'dependencies', 'definitions');
const leaf = fc.oneof(
  fc.constantFrom('string', 'object', 'number', 'strin', ['string', 'null'], 3, -1, true, false, null, '^a+$', '#/$defs/x', ['a'], []),
  fc.jsonValue({ maxDepth: 1 }),
);
const { schema: schemaLike } = fc.letrec((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.boolean(), fc.dictionary(keyword, fc.oneof(leaf, tie('schema'), fc.dictionary(fc.string({ maxLength: 3 }), tie('schema'), { maxKeys: 2 }), fc.array(tie('schema'), { maxLength: 2 })), { maxKeys: 4 })),
}));

describe('meta-schemas compiled at build time', () => {
  const ajv2020 = new Ajv2020({ strict: false, validateFormats: false, logger: false });
  const ajv07 = new Ajv({ strict: false, validateFormats: false, logger: false });

  it('judge a schema exactly as Ajv validateSchema does, for draft 2020-12 and draft-07', () => {
    fc.assert(
      fc.property(schemaLike, (schema) => {
        assert.equal(metaSchema2020(schema), ajv2020.validateSchema(schema) as boolean, JSON.stringify(schema));
        assert.equal(metaSchema07(schema), ajv07.validateSchema(schema) as boolean, JSON.stringify(schema));
      }),
      RUNS,
    );
  });

  it('keep a parameter schema that is not a schema from being compiled, so it raises nothing', () => {
    assert.equal(compileParameterSchema({ type: 'object', properties: { to: { type: 'strin' } } }), undefined);
    assert.equal(compileParameterSchema({ type: 'object', properties: { to: { minLength: 'five' } } }), undefined);
    assert.equal(compileParameterSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', dependencies: 5 }), undefined);
    const ok = compileParameterSchema({ type: 'object', properties: { to: { type: 'string', minLength: 2 } }, required: ['to'] });
    assert.ok(ok);
    assert.equal(ok({ to: 'x' }), false);
    assert.equal(ok({ to: 'xy' }), true);
  });
});
