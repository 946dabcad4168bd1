import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../../src/core';
import { BENCHMARKS, IMPORTERS } from '../../src/importers/index';
import { folderReader, ROOT } from './import-helpers';

// The four published benchmarks, whole, when the shared data is there (CI has it): each imports,
// and the imported suite lints with no structural finding. Never a copy of the data in the repo.
// LITMUS_BENCHMARKS points elsewhere (a checkout whose sibling is not the shared folder, e.g. a worktree).
const SHARED = process.env.LITMUS_BENCHMARKS ?? join(ROOT, '..', 'shared', 'benchmarks');
const STRUCTURAL = ['parse-error', 'schema', 'unresolved-reference', 'stale-injection-field'];

describe('import: the full benchmarks in ../shared/benchmarks', function () {
  this.timeout(60000);
  before(function () {
    if (!existsSync(SHARED)) {
      console.log('      skipped: ../shared/benchmarks not found');
      this.skip();
    }
  });

  for (const b of BENCHMARKS) {
    it(`${b}: imports and lints with no structural finding`, async () => {
      const r = IMPORTERS[b](folderReader(join(SHARED, b)));
      if (!r.ok) assert.fail(`${b} import failed: ${r.error}`);
      assert.ok(r.summary.adversarial > 0 && r.summary.benign > 0, 'both arms present');
      const base = `file:///import/${b}`;
      const fs = memoryFileSystem(Object.fromEntries(r.files.map((f) => [`${base}/${f.path}`, f.text])));
      const { index } = await loadWorkspace(fs, [base]);
      const { diagnostics } = lintIndex(index);
      const ids = new Set<string>();
      const structural = diagnostics.filter((d) => STRUCTURAL.includes(d.code));
      const byRule = new Map<string, number>();
      for (const d of structural) byRule.set(d.code, (byRule.get(d.code) ?? 0) + 1);
      const first = structural.slice(0, 3).map((d) => `${d.uri.slice(base.length + 1)}:${d.range.start.line + 1} ${d.code}: ${d.message}`);
      assert.equal(structural.length, 0, `${b}: ${JSON.stringify(Object.fromEntries(byRule))}\n${first.join('\n')}`);
      for (const d of diagnostics) if (d.code === 'duplicate-id') ids.add(d.message);
      assert.equal(ids.size, 0, `${b}: duplicate instance ids`);
    });
  }
});
