import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ALL_RULES, RULES } from '../../src/core';
import type { JsonReport } from '../../src/cli/format/json';
import { runCli } from '../../src/cli/run';
import { nodeFileSystem } from '../../src/node/fs';
import { captureIo } from '../cli/capture';

// Pins the example suite's full JSON report. After a rule lands or changes, `npm run golden`
// rewrites the expected file; review its diff like code.
const ROOT = resolve(__dirname, '../../..');
const GOLDEN = join(ROOT, 'test/cli/examples.expected.json');
const README = join(ROOT, 'examples/README.md');

async function lintExamples(): Promise<{ status: number; report: JsonReport; text: string }> {
  const cap = captureIo(nodeFileSystem, ROOT);
  const status = await runCli(['--format', 'json', 'examples'], cap.io);
  assert.equal(cap.stderr(), '', 'linting the examples prints no notices');
  return { status, report: JSON.parse(cap.stdout()) as JsonReport, text: cap.stdout() };
}

/** The README's defect table: for each row, the suite files it names and the rule that catches it. */
function documentedDefects(): { files: string[]; rule: string }[] {
  const rows = readFileSync(README, 'utf8').split('\n').filter((l) => l.startsWith('| `'));
  return rows.flatMap((row) => {
    const cells = row.split('|').map((c) => c.trim());
    const rule = /^`([a-z-]+)`( \(hint\))?$/.exec(cells[3] ?? '')?.[1];
    if (!rule) return [];
    const files = [...(cells[1] ?? '').matchAll(/`([^`]+\.(?:json|jsonc|jsonl))`/g)].map((m) => `examples/${m[1]}`);
    return files.length ? [{ files, rule }] : [];
  });
}

describe('example suite', function () {
  this.timeout(30000);

  it('matches the pinned JSON report (test/cli/examples.expected.json)', async () => {
    const { status, text } = await lintExamples();
    if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) writeFileSync(GOLDEN, text);
    assert.equal(status, 1, 'the deliberate defects fail the run');
    assert.equal(text, readFileSync(GOLDEN, 'utf8'));
  });

  it('lists a rule for every deliberate defect, and only registered rules', () => {
    const defects = documentedDefects();
    assert.ok(defects.length >= 15, `README lists ${defects.length} defects`);
    for (const d of defects) assert.ok(RULES.has(d.rule), `README names unknown rule ${d.rule}`);
  });

  it('fires every implemented rule where the README says, and nowhere else', async () => {
    const { report } = await lintExamples();
    const implemented = new Set(ALL_RULES.map((r) => r.meta.id));
    const defects = documentedDefects();
    const found = report.files.flatMap((f) => f.diagnostics.map((d) => ({ path: f.path, rule: d.ruleId })));
    // Every documented defect whose rule exists today is caught in one of the files it names.
    for (const d of defects.filter((x) => implemented.has(x.rule))) {
      assert.ok(
        found.some((f) => f.rule === d.rule && d.files.includes(f.path)),
        `${d.rule} should fire in ${d.files.join(' or ')}`,
      );
    }
    // Every diagnostic is a documented defect: the clean parts of the suite stay clean.
    for (const f of found) {
      assert.ok(
        defects.some((d) => d.rule === f.rule && d.files.includes(f.path)),
        `undocumented ${f.rule} in ${f.path}: fix the example or document the defect in examples/README.md`,
      );
    }
  });
});
