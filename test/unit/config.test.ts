import assert from 'node:assert/strict';
import { createDocument, readConfig, RULES, RULE_IDS } from '../../src/core';
import configSchema from '../../schemas/config.schema.json';
import { brief, codes, covered, json, lintFiles, WS } from '../helpers';

// A case with a bad `arm` (schema) and an instance_id shared with its neighbour (duplicate-id).
const bad = (id: string) => json({ instance_id: id, arm: 'neither', family: 'f', task: 't', correct_resolution_signature: 's' });

describe('config discovery', () => {
  it('applies the nearest litmus.config.json up the tree', async () => {
    const files = {
      'litmus.config.json': json({ rules: { schema: 'warning' } }),
      'a/one.litmus.json': bad('x1'),
      'a/b/litmus.config.json': json({ rules: { schema: 'info' } }),
      'a/b/c/two.litmus.json': bad('x2'),
    };
    const { diagnostics, index } = await lintFiles(files);
    const sev = (file: string) => codes(diagnostics, 'schema').find((d) => d.uri === `${WS}/${file}`)?.severity;
    assert.equal(sev('a/one.litmus.json'), 'warning');
    assert.equal(sev('a/b/c/two.litmus.json'), 'info');
    assert.equal(index.configFor(`${WS}/a/b/c/two.litmus.json`).source, `${WS}/a/b/litmus.config.json`);
  });

  it('keeps rule defaults without a config, and drops rules set to off', async () => {
    const plain = await lintFiles({ 'a.litmus.json': bad('d'), 'b.litmus.json': bad('d') });
    assert.deepEqual(
      [...new Set(plain.diagnostics.filter((d) => d.code === 'schema' || d.code === 'duplicate-id').map((d) => `${d.code}:${d.severity}`))].sort(),
      ['duplicate-id:error', 'schema:error'],
    );
    const off = await lintFiles({
      'litmus.config.json': json({ rules: { 'duplicate-id': 'off', schema: 'hint' } }),
      'a.litmus.json': bad('d'),
      'b.litmus.json': bad('d'),
    });
    assert.deepEqual(codes(off.diagnostics, 'duplicate-id'), []);
    assert.deepEqual(
      codes(off.diagnostics, 'schema').map((d) => d.severity),
      ['hint', 'hint'],
    );
  });

  it('lets --config replace discovery, and puts editor defaults beneath the file', async () => {
    const files = {
      'litmus.config.json': json({ rules: { schema: 'warning' } }),
      'ci/strict.json': json({ rules: { schema: 'error', 'duplicate-id': 'info' } }),
      'a.litmus.json': bad('d'),
      'b.litmus.json': bad('d'),
    };
    const override = await lintFiles(files, { configUri: `${WS}/ci/strict.json` });
    assert.deepEqual([...new Set(codes(override.diagnostics, 'schema').map((d) => d.severity))], ['error']);
    assert.deepEqual([...new Set(codes(override.diagnostics, 'duplicate-id').map((d) => d.severity))], ['info']);

    const layered = await lintFiles(files, { baseConfig: { rules: { schema: 'hint', 'duplicate-id': 'warning' } } });
    assert.deepEqual([...new Set(codes(layered.diagnostics, 'schema').map((d) => d.severity))], ['warning'], 'the file wins');
    assert.deepEqual([...new Set(codes(layered.diagnostics, 'duplicate-id').map((d) => d.severity))], ['warning'], 'the editor default fills in');
  });

  it('ignores ill-typed values when reading, and the schema rule reports them on the config file', async () => {
    const text = json({ rules: { schema: 'loud', 'duplicate-id': 'warning' }, maxMutationDepth: -2, injection: { scanDescriptions: 'yes', allow: ['ok', 3] } });
    const read = readConfig(createDocument(`${WS}/litmus.config.json`, text)!);
    assert.deepEqual(read.rules, { 'duplicate-id': 'warning' });
    assert.equal(read.maxMutationDepth, undefined);
    assert.deepEqual(read.injection, { allow: ['ok'] });

    const files = { 'litmus.config.json': text };
    const { diagnostics } = await lintFiles(files);
    assert.deepEqual(
      codes(diagnostics, 'schema').map((d) => covered(files, d)),
      ['"loud"', '-2', '"yes"', '3'],
    );
  });

  it('reports an unknown rule id on its key, with the near id', async () => {
    const files = { 'litmus.config.json': '{\n  "rules": { "signature-overlaps": "error" }\n}\n' };
    const { diagnostics } = await lintFiles(files);
    const [d] = codes(diagnostics, 'schema');
    assert.equal(brief(d), 'litmus.config.json:2:14 schema');
    assert.equal(covered(files, d), '"signature-overlaps"');
    assert.match(d.message, /did you mean `signature-overlap`/);
  });
});

describe('config schema', () => {
  it('names exactly the registered rules, each described as the registry describes it', () => {
    const props = configSchema.properties.rules.properties as Record<string, { description: string }>;
    assert.deepEqual(Object.keys(props).sort(), [...RULE_IDS].sort(), 'add new rules to schemas/config.schema.json');
    for (const [id, meta] of RULES) assert.ok(props[id].description.startsWith(meta.description), id);
  });
});
