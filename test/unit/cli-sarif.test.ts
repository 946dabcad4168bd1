import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { runCli } from '../../src/cli/run';
import { nodeFileSystem } from '../../src/node/fs';
import { captureIo } from '../cli/capture';

// `litmus-lint --format sarif examples` checked against the official SARIF 2.1.0 schema (OASIS
// committee specification, draft-07), kept verbatim in test/fixtures.
const ROOT = resolve(__dirname, '../../..');
const schema = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/sarif-schema-2.1.0.json'), 'utf8'));

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

interface SarifLike {
  runs: {
    tool: { driver: { rules: { id: string; helpUri: string }[] } };
    results: { ruleId: string; ruleIndex: number; locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string } } }[] }[];
  }[];
}

describe('SARIF output', function () {
  this.timeout(30000);

  it('validates against the official SARIF 2.1.0 schema', async () => {
    const cap = captureIo(nodeFileSystem, ROOT);
    const status = await runCli(['--format', 'sarif', 'examples'], cap.io);
    assert.equal(status, 1);
    const log = JSON.parse(cap.stdout()) as SarifLike;
    const validate = validator();
    const ok = validate(log);
    assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 2));
    const run = log.runs[0];
    assert.ok(run.results.length > 0, 'the examples produce results');
    for (const r of run.results) {
      assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId, 'ruleIndex points at the rule');
      const loc = r.locations[0].physicalLocation.artifactLocation;
      assert.equal(loc.uriBaseId, '%SRCROOT%');
      assert.match(loc.uri, /^examples\//);
    }
  });

  it('the schema check is not vacuous: a broken log fails it', () => {
    const validate = validator();
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'r', level: 'fatal', message: { text: 'm' } }] }] }), false);
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x', informationUri: 'not a uri' } } }] }), false);
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [] }] }), true);
  });
});
