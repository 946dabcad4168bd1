/**
 * `npm run fuzz`: throws 100,000 hostile inputs at the core and checks, for every one, that linting
 * does not throw, every diagnostic lies inside its document with a registered code and a safe
 * message, and every offered fix keeps the file valid, its comments and every other value.
 * Then it reports what it tried. The unit tests run the same properties, seeded and a few hundred
 * times; this is the long run.
 *
 *   node out/scripts/fuzz.js [--runs N] [--seed S] [--ignore REGEX] [--hang SECONDS] [--shrink SECONDS]
 *                            [--budget-ms MS] [--memory-mb MB]
 *
 * Every input has a budget: one that takes longer than `--budget-ms` (default 10 s) fails the
 * property and is shrunk like any failure; one that hangs past `--hang` seconds, or drives the
 * process past `--memory-mb` of resident memory (default 1536), is written out and ends the run.
 * Schema shapes (test/hostile/arbitraries.ts `schemaWorkspace`: deep allOf/$ref chains, recursive
 * refs, many required names, big enums, patterns, uniqueItems) are among the inputs, and so are
 * environment overrides (appends with `-`), integers past 2^53 and regular-expression programs up to
 * far past the budget, each checked against a reference model as well (check.ts `oracleProblems`).
 *
 * `--ignore` skips problems whose text matches, to look past one already reported; the report
 * says how many it skipped.
 */
import * as fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../src/core';
import {
  anyValue,
  bigIntegerWorkspace,
  fixtureWorkspaces,
  hostileText,
  KIND_NAMES,
  mutate,
  mutation,
  otherFixtureWorkspaces,
  overrideWorkspace,
  regexWorkspace,
  render,
  repoRoot,
  schemaWorkspace,
  style,
  workspace,
  type Files,
  type Oracle,
} from '../test/hostile/arbitraries';
import { diagnosticProblems, fixProblems, oracleProblems } from '../test/hostile/check';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) ? v : fallback;
}

const runs = arg('--runs', 100_000);
const ignoreAt = process.argv.indexOf('--ignore');
const ignore = ignoreAt >= 0 ? new RegExp(process.argv[ignoreAt + 1]) : undefined;
let ignored = 0;
const seed = arg('--seed', Date.now() % 2 ** 31);

/** An input, and for some kinds what a reference model says must come out of it. */
type Case = { kind: string; files: Files; oracle?: Oracle };

const fixtures = [...fixtureWorkspaces(), ...otherFixtureWorkspaces()];
const pick = (files: Files, which: number) => Object.keys(files)[which % Object.keys(files).length];

/** What each case is, so the report can say what was tried. */
const cases: fc.Arbitrary<Case> = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...KIND_NAMES), fc.oneof(hostileText, fc.string({ unit: 'binary' }), fc.json())).map(([n, t]) => ({ kind: 'arbitrary text', files: { [n]: t } })) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...KIND_NAMES), anyValue, style).map(([n, v, s]) => ({ kind: 'arbitrary JSON value', files: { [n]: render(v, s) } })) },
  { weight: 4, arbitrary: workspace.map((files) => ({ kind: 'generated workspace', files })) },
  { weight: 2, arbitrary: schemaWorkspace.map((files) => ({ kind: 'schema shape', files })) },
  // Issue 22: each checked against a reference model that shares no code with the linter.
  { weight: 1, arbitrary: overrideWorkspace.map((c) => ({ kind: 'environment overrides', ...c })) },
  { weight: 1, arbitrary: bigIntegerWorkspace.map((c) => ({ kind: 'big integers', ...c })) },
  { weight: 1, arbitrary: regexWorkspace.map((c) => ({ kind: 'regex programs', ...c })) },
  {
    weight: 3,
    arbitrary: fc.tuple(fc.constantFrom(...fixtures), fc.nat(), fc.array(mutation, { minLength: 1, maxLength: 4 })).map(([f, which, ms]) => {
      const name = pick(f.files, which);
      return { kind: 'mutated fixture', files: { ...f.files, [name]: mutate(f.files[name], ms) } };
    }),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...fixtures), fc.nat(), fc.nat()).map(([f, which, at]) => {
      const name = pick(f.files, which);
      const text = f.files[name];
      return { kind: 'truncated fixture', files: { ...f.files, [name]: text.slice(0, at % (text.length + 1)) } };
    }),
  },
);

const tried = new Map<string, number>();
const diagnosticsByCode = new Map<string, number>();
const fixesByCode = new Map<string, number>();
let slowest = { ms: 0, kind: '' };
let bytes = 0;
let last: Case | undefined;

const bump = (m: Map<string, number>, k: string, n = 1) => m.set(k, (m.get(k) ?? 0) + n);

/** Seconds one case may take before the run counts as hung. */
const HANG_SECONDS = arg('--hang', 60);
/** Milliseconds one case may take and still pass. */
const BUDGET_MS = arg('--budget-ms', 10_000);
/** Resident memory the process may reach while a case runs. */
const MEMORY_MB = arg('--memory-mb', 1536);

/**
 * A hung case blocks this thread, so no timer or signal handler here can fire. A watchdog thread
 * holds the case being checked; if it is not done in time, it writes the case out and ends the run.
 */
const watchdog = new Worker(
  `
  const { parentPort, workerData } = require('node:worker_threads');
  const { writeFileSync, writeSync } = require('node:fs');
  let current, since = 0;
  parentPort.on('message', (m) => { current = m; since = Date.now(); });
  const stop = (why) => {
    writeFileSync(workerData.file, current);
    writeSync(2, '\\n' + why + '; it is in ' + workerData.file + '\\n' + current.slice(0, 4000) + '\\n');
    process.kill(process.pid, 'SIGKILL');
  };
  setInterval(() => {
    if (!current || current === 'done') return;
    // The whole process's resident memory: the main thread's case is what grows it.
    const rss = process.memoryUsage.rss() / 1024 / 1024;
    if (rss > workerData.memoryMb) stop('OVER MEMORY: one case drove the process to ' + Math.round(rss) + ' MB (budget ' + workerData.memoryMb + ' MB)');
    else if (Date.now() - since >= workerData.limit * 1000) stop('HUNG: one case ran over ' + workerData.limit + ' s');
  }, 200).unref();
  `,
  { eval: true, workerData: { limit: HANG_SECONDS, memoryMb: MEMORY_MB, file: join(repoRoot(), 'out', 'fuzz-hang.json') } },
);
watchdog.unref();

/** When the first failure was seen: shrinking big workspaces can take long, so it gets a budget. */
let failedAt = 0;
const SHRINK_SECONDS = arg('--shrink', 120);

async function check(c: Case): Promise<void> {
  // Past the budget every input passes, which ends shrinking at the smallest failure found so far.
  if (failedAt && Date.now() - failedAt > SHRINK_SECONDS * 1000) return;
  last = c;
  watchdog.postMessage(JSON.stringify(c));
  try {
    await checkCase(c);
  } finally {
    watchdog.postMessage('done');
  }
}

async function checkCase(c: Case): Promise<void> {
  bump(tried, c.kind);
  for (const t of Object.values(c.files)) bytes += t.length;
  const started = Date.now();
  const fs = memoryFileSystem(Object.fromEntries(Object.entries(c.files).map(([k, v]) => [`file:///ws/${k}`, v])));
  const loaded = await loadWorkspace(fs, ['file:///ws']);
  const { diagnostics } = lintIndex(loaded.index);
  const problems = diagnosticProblems(loaded.index, diagnostics);
  if (c.oracle) problems.push(...oracleProblems(diagnostics, c.oracle));
  for (const d of diagnostics) {
    bump(diagnosticsByCode, d.code);
    for (const outcome of fixProblems(loaded.index, d)) {
      bump(fixesByCode, d.code);
      problems.push(...outcome.problems.map((p) => `${d.code} fix "${outcome.title}": ${p}`));
    }
  }
  const ms = Date.now() - started;
  if (ms > slowest.ms) slowest = { ms, kind: c.kind };
  if (ms > BUDGET_MS) problems.push(`took ${ms} ms, over the per-input budget of ${BUDGET_MS} ms`);
  const shown = ignore ? problems.filter((p) => !ignore.test(p)) : problems;
  ignored += problems.length - shown.length;
  if (shown.length) {
    if (!failedAt) {
      failedAt = Date.now();
      process.stderr.write(`  first failure after ${sum(tried)} cases; shrinking it (at most ${SHRINK_SECONDS} s)…\n`);
    }
    throw new Error(shown.join('\n'));
  }
  if (sum(tried) % 5000 === 0) process.stderr.write(`  ${sum(tried)} cases…\n`);
}

function sum(m: Map<string, number>): number {
  let n = 0;
  for (const v of m.values()) n += v;
  return n;
}

function table(m: Map<string, number>): string {
  return [...m.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `    ${k.padEnd(30)} ${v}`).join('\n') || '    (none)';
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A hang shows as a run that never ends: say which input it was stuck on.
    process.stderr.write(`\nstopped during a ${last?.kind} case:\n${JSON.stringify(last?.files).slice(0, 4000)}\n`);
    process.exit(130);
  });
}

async function main(): Promise<void> {
  const started = Date.now();
  console.log(`fuzz: ${runs} cases, seed ${seed} (repeat with --seed ${seed}); per input: ${BUDGET_MS} ms, ${MEMORY_MB} MB resident, hung after ${HANG_SECONDS} s`);
  console.log(`  fixture workspaces mutated: ${fixtures.map((f) => f.name).join(', ') || 'none'}`);
  const result = await fc.check(fc.asyncProperty(cases, check), { numRuns: runs, seed });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`\nran ${result.numRuns} cases (${sum(tried)} inputs with shrinking, ${(bytes / 1024 / 1024).toFixed(1)} MB of text) in ${seconds} s:`);
  console.log(table(tried));
  console.log(`  diagnostics seen, by rule:\n${table(diagnosticsByCode)}`);
  console.log(`  fixes applied and checked, by rule:\n${table(fixesByCode)}`);
  console.log(`  slowest case: ${slowest.ms} ms (${slowest.kind})`);
  if (ignore) console.log(`  problems skipped by --ignore ${ignore.source}: ${ignored}`);
  if (result.failed) {
    const file = join(repoRoot(), 'out', 'fuzz-failure.json');
    const example = result.counterexample?.[0] as Case | undefined;
    writeFileSync(file, JSON.stringify({ seed, path: result.counterexamplePath, example }, null, 2));
    console.log(`\nFAILED after ${result.numRuns} cases: ${String(result.errorInstance instanceof Error ? result.errorInstance.message : result.errorInstance)}`);
    console.log(`smallest failing input (${example?.kind}): ${JSON.stringify(example?.files).slice(0, 2000)}`);
    console.log(`written to ${file}`);
    process.exit(1);
  }
  console.log('\nno failures');
}

void main();
