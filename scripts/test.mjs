// `npm test`: builds, type-checks, runs every test layer, and ends with one "N passed, N failed"
// line that sums them, so CI and people read one verdict.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

let passed = 0;
let failed = 0;

function run(title, cmd, args, opts = {}) {
  console.log(`\n== ${title}: ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: opts.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', encoding: 'utf8', env: process.env });
  if (opts.capture) process.stdout.write(r.stdout ?? '');
  return r;
}

function files(dir, suffix) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p, suffix) : p.endsWith(suffix) ? [p] : [];
  }).sort();
}

function mochaRun(title, testFiles) {
  return new Promise((resolve) => {
    console.log(`\n== ${title} (${testFiles.length} files)`);
    const mocha = new Mocha({ timeout: 30000, reporter: 'spec' });
    for (const f of testFiles) mocha.addFile(f);
    const runner = mocha.run(() => {
      passed += runner.stats.passes;
      failed += runner.stats.failures;
      resolve();
    });
  });
}

const build = run('build', 'node', ['scripts/build.mjs']);
const compile = run('type-check and compile', 'npx', ['tsc', '-p', '.']);
const core = run('core purity (no Node or VS Code APIs)', 'npx', ['tsc', '-p', 'src/core/tsconfig.json']);
for (const r of [build, compile, core]) {
  if (r.status !== 0) failed++;
  else passed++;
}
if (build.status === 0 && compile.status === 0) {
  await mochaRun('unit tests', files('out/test/unit', '.test.js'));
  await mochaRun('language server tests', files('out/test/server', '.test.js'));
  // Editor end-to-end tests drive a real VS Code; their runner prints its own "N passed, N failed".
  if (existsSync('scripts/e2e/run.sh') && !process.env.LITMUS_SKIP_E2E) {
    const r = run('editor end-to-end tests', 'bash', ['scripts/e2e/run.sh'], { capture: true });
    const m = /(\d+) passed, (\d+) failed/.exec(r.stdout ?? '');
    if (m) {
      passed += Number(m[1]);
      failed += Number(m[2]);
    }
    if (r.status !== 0 && (!m || Number(m[2]) === 0)) failed++;
  }
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
