import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../src/core';

const root = join(__dirname, '..', '..', '..');

describe('README and docs follow the rule registry', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('opens with the two commands a newcomer runs', () => {
    const head = readme.split('\n').slice(0, 6).join('\n');
    assert.match(head, /npm ci && npm run demo/);
    assert.match(head, /npm test/);
  });

  it('lists every rule with its default severity and description', () => {
    for (const r of RULES.values()) {
      const row = `| [\`${r.id}\`](docs/rules/${r.id}.md) | ${r.defaultSeverity} | ${r.description.replace(/\|/g, '\\|')} | ${r.from} |`;
      assert.ok(readme.includes(row), `README rule row for ${r.id} is missing or stale`);
    }
  });

  it('has a documentation page for every rule', () => {
    for (const id of RULES.keys()) assert.ok(existsSync(join(root, 'docs', 'rules', `${id}.md`)), `docs/rules/${id}.md`);
  });

  it('runs exactly the README commands in CI', () => {
    const ci = readFileSync(join(root, '.ci', 'run'), 'utf8');
    assert.match(ci, /^npm ci\b/m);
    assert.match(ci, /^npm test$/m);
  });
});
