// Writes the rule ids, from each rule's metadata record, wherever an editor completes them:
//   package.json           contributes.configuration `litmus.rules` (settings.json completion, Settings UI)
//   schemas/config.schema.json   the `rules` object of litmus.config.json
// Adding a rule and building updates both; test/server/contributions.test.ts checks they match.
//
//   node scripts/gen-rule-settings.mjs          write them (npm run build does)
//   node scripts/gen-rule-settings.mjs --check  exit 1 if either is out of date
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SEVERITIES = ['error', 'warning', 'info', 'hint', 'off'];

/** The rule metadata, from core's public face (bundled in memory: core is pure, it runs anywhere). */
async function ruleMetadata() {
  const out = await build({
    stdin: { contents: "export { RULES, docsUrl } from './src/core/index';", resolveDir: root, loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'neutral',
    format: 'cjs',
    mainFields: ['module', 'main'],
    logLevel: 'error',
  });
  const module = { exports: {} };
  vm.runInNewContext(out.outputFiles[0].text, { module, exports: module.exports });
  const { RULES, docsUrl } = module.exports;
  if (!RULES || typeof docsUrl !== 'function') throw new Error('src/core/index.ts no longer exports RULES and docsUrl');
  return [...RULES.values()].map((m) => ({ id: m.id, description: m.description, defaultSeverity: m.defaultSeverity, docs: docsUrl(m.id) }));
}

function settingsRules(rules) {
  return {
    type: 'object',
    properties: Object.fromEntries(
      rules.map((r) => [
        r.id,
        { type: 'string', enum: SEVERITIES, markdownDescription: `${r.description} Default: \`${r.defaultSeverity}\`. [Documentation](${r.docs})` },
      ]),
    ),
    additionalProperties: false,
    default: {},
    scope: 'resource',
    markdownDescription: 'Rule severities by rule id, e.g. `{"scope-contradiction": "off"}`. A `litmus.config.json` overrides these.',
  };
}

function configRules(previous, rules) {
  return {
    ...previous,
    properties: Object.fromEntries(rules.map((r) => [r.id, { $ref: '#/$defs/severity', description: `${r.description} See ${r.docs}` }])),
    additionalProperties: false,
  };
}

/** Each target file's text as it should be; JSON written as the files are (2 spaces, final newline). */
export async function ruleSettingsFiles() {
  const rules = await ruleMetadata();
  const pkgPath = join(root, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
  pkg.contributes.configuration.properties['litmus.rules'] = settingsRules(rules);
  const schemaPath = join(root, 'schemas/config.schema.json');
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
  schema.properties.rules = configRules(schema.properties.rules, rules);
  return [
    { path: pkgPath, text: `${JSON.stringify(pkg, null, 2)}\n` },
    { path: schemaPath, text: `${JSON.stringify(schema, null, 2)}\n` },
  ];
}

/** Writes the files that differ; returns their paths. */
export async function writeRuleSettings() {
  const changed = [];
  for (const f of await ruleSettingsFiles()) {
    if (readFileSync(f.path, 'utf8') !== f.text) {
      writeFileSync(f.path, f.text);
      changed.push(f.path);
    }
  }
  return changed;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const stale = (await ruleSettingsFiles()).filter((f) => readFileSync(f.path, 'utf8') !== f.text).map((f) => f.path);
    if (stale.length) {
      console.error(`out of date with the rule metadata (run node scripts/gen-rule-settings.mjs): ${stale.join(', ')}`);
      process.exit(1);
    }
  } else {
    const changed = await writeRuleSettings();
    if (changed.length) console.log(`rule ids written to ${changed.join(', ')}`);
  }
}
