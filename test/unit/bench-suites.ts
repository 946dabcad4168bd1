import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

/**
 * A workspace from one of the bench's generators (bench/generate.mjs, bench/generate-rich.mjs),
 * small: its files by path relative to the workspace, read into memory. The layouts the bench
 * measures, unlike the random files of incremental.test.ts: suite files of tens of cases sharing
 * tool files (and, in the rich one, environment files and label targets).
 */
export function benchSuites(script: 'generate.mjs' | 'generate-rich.mjs', cases: number, perFile: string): Map<string, string> {
  const dir = mkdtempSync(join(tmpdir(), 'litmus-bench-suites-'));
  try {
    const r = spawnSync(process.execPath, [join(ROOT, 'bench', script), dir, String(cases), '3', perFile], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const files = new Map<string, string>();
    const walk = (d: string, rel: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(join(d, e.name), `${rel}${e.name}/`);
        else files.set(`${rel}${e.name}`, readFileSync(join(d, e.name), 'utf8'));
      }
    };
    walk(dir, '');
    return files;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
