import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

// bench/warmth.mjs is read by docs/performance.md and run by hand: this keeps it running, at a size
// where its figures mean nothing (timing is the benchmark's business, not a test's).
describe('bench/warmth.mjs', () => {
  it('lints new content run after run in one process, and the content again last', function () {
    this.timeout(120_000);
    const r = spawnSync(process.execPath, ['--expose-gc', join(ROOT, 'bench', 'warmth.mjs'), '200', '3'], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const rows = r.stdout.split('\n').filter((l) => /^\d+ +seed /.test(l));
    assert.deepEqual(
      rows.map((l) => l.match(/seed \d+ \(\w+\)/)?.[0]),
      ['seed 1 (cold)', 'seed 2 (new)', 'seed 1 (again)'],
    );
    const findings = rows.map((l) => Number(l.match(/(\d+) findings/)?.[1]));
    assert.ok(findings.every((n) => n > 0), r.stdout);
    assert.equal(findings[2], findings[0], 'the same content, the same findings');
  });
});
