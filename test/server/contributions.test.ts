import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { RULE_IDS } from '../../src/core/index';

const ROOT = resolve(__dirname, '../../..');
const read = (p: string) => JSON.parse(readFileSync(resolve(ROOT, p), 'utf8'));

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { scope?: string; type?: string; default?: unknown; properties?: Record<string, { enum?: string[] }>; additionalProperties?: unknown }> };
  };
}

describe('package.json contributions', () => {
  const pkg = read('package.json') as Manifest;

  it('litmus.rules in settings.json completes every rule id, from the rule metadata', () => {
    const rules = pkg.contributes.configuration.properties['litmus.rules'];
    assert.deepEqual(Object.keys(rules.properties ?? {}), [...RULE_IDS]);
    for (const p of Object.values(rules.properties ?? {})) assert.deepEqual(p.enum, ['error', 'warning', 'info', 'hint', 'off']);
    assert.equal(rules.additionalProperties, false, 'an unknown rule id is flagged in settings.json');
  });

  it("litmus.config.json's rules object enumerates the same ids", () => {
    const schema = read('schemas/config.schema.json') as { properties: { rules: { properties: Record<string, unknown>; additionalProperties: boolean } } };
    assert.deepEqual(Object.keys(schema.properties.rules.properties), [...RULE_IDS]);
    assert.equal(schema.properties.rules.additionalProperties, false);
  });

  it('both are what scripts/gen-rule-settings.mjs writes (run by the build)', () => {
    const r = spawnSync(process.execPath, ['scripts/gen-rule-settings.mjs', '--check'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('litmus.enable is a resource-scoped boolean, on by default', () => {
    const e = pkg.contributes.configuration.properties['litmus.enable'];
    assert.deepEqual([e.type, e.scope, e.default], ['boolean', 'resource', true]);
  });

  it('offers LITMUS: Fix All Auto-fixable Problems', () => {
    const c = pkg.contributes.commands.find((x) => x.command === 'litmus.fixAll');
    assert.deepEqual([c?.category, c?.title], ['LITMUS', 'Fix All Auto-fixable Problems']);
  });

  it('activates on a workspace holding a LITMUS file of any kind, never on every JSON(C) file', () => {
    const globs = ['*.litmus.json', '*.litmus.jsonc', '*.litmus.jsonl', '*.tools.json', '*.tools.jsonc', '*.env.json', '*.env.jsonc', '*.scores.json', 'litmus.config.json', 'litmus.harness.json'];
    for (const g of globs) assert.ok(pkg.activationEvents.includes(`workspaceContains:**/${g}`), g);
    assert.deepEqual(pkg.activationEvents.filter((e) => e.startsWith('onLanguage:')), []);
    assert.ok(!pkg.activationEvents.includes('*'));
  });
});
