import assert from 'node:assert/strict';
import { createDocument, detectKind, kindFromName, kindFromSchemaUri, SCHEMA_BASE_URI, SCHEMA_FILE, topLevelSchema } from '../../src/core';
import { SCHEMAS } from '../../src/core/schema/validators';
import { lintFiles } from '../helpers';

describe('file kinds', () => {
  it('recognises every FORMAT §1 name', () => {
    const cases: [string, string | undefined][] = [
      ['suite.litmus.json', 'cases'],
      ['Suite.LITMUS.JSONC', 'cases'],
      ['lines.litmus.jsonl', 'caseLines'],
      ['mail.tools.json', 'tools'],
      ['mail.tools.jsonc', 'tools'],
      ['litmus.config.json', 'config'],
      ['litmus.harness.json', 'harness'],
      ['v3.scores.json', 'scores'],
      ['package.json', undefined],
      ['litmus.json', undefined],
      ['a.tools.json.bak', undefined],
    ];
    for (const [name, kind] of cases) assert.equal(kindFromName(`file:///ws/dir/${name}`), kind, name);
  });

  it('recognises a file by a top-level $schema naming a project schema', () => {
    const text = (schema: string) => `// note\n{"other": {"$schema": "x"}, "$schema": "${schema}", "tools": []}`;
    assert.equal(detectKind('file:///ws/anything.json', text(`${SCHEMA_BASE_URI}tools.schema.json`)), 'tools');
    assert.equal(detectKind('file:///ws/anything.jsonc', text('../schemas/harness.schema.json')), 'harness');
    assert.equal(detectKind('file:///ws/one.json', text(`${SCHEMA_BASE_URI}case.schema.json`)), 'cases');
    assert.equal(detectKind('file:///ws/x.json', text('https://json-schema.org/draft/2020-12/schema')), undefined);
    assert.equal(detectKind('file:///ws/x.txt', text(`${SCHEMA_BASE_URI}tools.schema.json`)), undefined, 'only .json/.jsonc files');
    assert.equal(topLevelSchema('{"a": {"$schema": "inner"}}'), undefined, 'a nested $schema does not count');
    assert.equal(topLevelSchema('\uFEFF{"$schema": "s"}'), 's');
  });

  it('maps every kind to a bundled schema whose $id is the one $schema values name', () => {
    const ids = new Set(SCHEMAS.map((s) => s.$id));
    for (const [kind, file] of Object.entries(SCHEMA_FILE)) {
      assert.ok(ids.has(SCHEMA_BASE_URI + file), `${kind}: ${file}`);
      assert.equal(kindFromSchemaUri(SCHEMA_BASE_URI + file), kind);
    }
  });

  it('lints a $schema-named file as its kind, and ignores unknown JSON files', async () => {
    const files = {
      'tools/anything.json': JSON.stringify({ $schema: `${SCHEMA_BASE_URI}tools.schema.json`, tools: [{ name: 'a' }, { name: 'b', description: 'B.', inputSchema: 'not a schema' }] }),
      'other.json': '{"not": "ours"',
    };
    const { diagnostics, index } = await lintFiles(files);
    assert.equal(index.docs.get('file:///ws/tools/anything.json')?.kind, 'tools');
    assert.ok(!index.docs.has('file:///ws/other.json'));
    assert.deepEqual(
      diagnostics.filter((d) => d.code === 'schema' || d.code === 'parse-error').map((d) => [d.code, d.uri]),
      [
        ['schema', 'file:///ws/tools/anything.json'],
        ['schema', 'file:///ws/tools/anything.json'],
      ],
    );
    assert.equal(createDocument('file:///ws/x.json', '{}'), undefined);
  });
});
