// `node bench/hostile.mjs` (after `npm run build`): the CLI on the hostile reproductions of issue 13,
// each a few KB to a few hundred KB, with the time and peak memory each takes beside a target.
// Before the fixes they ran for minutes, took gigabytes or crashed. Exits 1 when a target is missed.
// Timings depend on the machine: this is a benchmark, never a test.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, runNode } from './measure.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cliJs = join(repo, 'dist', 'cli.js');
const TARGET_MS = 5000;
const TARGET_MB = 400;
/** Machine-readable reports stay within 60× their input plus 256 KB (docs/cli.md, "Report size"). */
const TARGET_RATIO = 60;

const base = (id, extra = {}) => ({ instance_id: id, arm: 'benign', family: 'f', task: 't', correct_resolution_signature: `s-${id}`, ...extra });
const tool = (schema) => JSON.stringify({ tools: [{ name: 'go', description: 'd', inputSchema: schema }] });
const calling = (args) => JSON.stringify(base('c1', { tools: ['t.tools.json#go'], safe_completion: [{ tool: 'go', arguments: args }] }));

function refChain(depth) {
  const $defs = {};
  for (let i = 0; i < depth; i++) $defs[`l${i}`] = i === depth - 1 ? { type: 'string' } : { allOf: [{ $ref: `#/$defs/l${i + 1}` }, { $ref: `#/$defs/l${i + 1}` }] };
  return { type: 'object', properties: { x: { $ref: '#/$defs/l0' } }, $defs };
}
function sharedRequired(depth, names) {
  let s = { type: 'object', minProperties: 3, maxProperties: 1 };
  for (let i = 0; i < depth; i++) s = { type: 'object', required: Array.from({ length: names }, (_, k) => `n${k}`), additionalProperties: s };
  return s;
}

const SCENARIOS = {
  'tool contract, 14 levels × 4 shared required names': { 't.tools.json': tool(sharedRequired(14, 4)) },
  'allOf/$ref chain expanding to 2^24, via safe_completion': { 't.tools.json': tool(refChain(25)), 'c.litmus.json': calling({ x: 'a' }) },
  'self-recursive $ref via safe_completion': { 't.tools.json': tool({ type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, properties: { a: { $ref: '#/$defs/a' } } }), 'c.litmus.json': calling({ a: 1 }) },
  'backtracking pattern ^a*…a*b$ (30 stars)': { 't.tools.json': tool({ type: 'object', properties: { s: { type: 'string', pattern: '^' + 'a*'.repeat(30) + 'b$' } } }), 'c.litmus.json': calling({ s: 'a'.repeat(10_000) }) },
  '300 KB uniqueItems argument': { 't.tools.json': tool({ type: 'object', properties: { l: { type: 'array', uniqueItems: true } } }), 'c.litmus.json': calling({ l: Array.from({ length: 20_000 }, (_, i) => ({ k: i })) }) },
  '300 KB draft-07 enum': {
    't.tools.json': tool({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { e: { enum: Array.from({ length: 30_000 }, (_, i) => `value-${i}`) } } }),
    'c.litmus.json': calling({ e: 'x' }),
  },
  'a finding per two bytes of input (6,000), SARIF': { 'a.litmus.json': JSON.stringify({ suite: 's', cases: Array.from({ length: 6000 }, () => 1) }) },
  '1,100 cases sharing one id, SARIF': { 'a.litmus.json': JSON.stringify({ suite: 's', cases: Array.from({ length: 1100 }, (_, i) => ({ ...base(`x${i}`), instance_id: 'same' })) }) },
};

let failed = 0;
console.log(`hostile inputs (target: under ${fmt(TARGET_MS)} ms and ${TARGET_MB} MB peak each)`);
for (const [name, files] of Object.entries(SCENARIOS)) {
  const dir = mkdtempSync(join(tmpdir(), 'litmus-hostile-bench-'));
  try {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), text);
    }
    const r = await runNode([cliJs, '--format', name.includes('SARIF') ? 'sarif' : 'json', dir]);
    const mb = r.rssKb / 1024;
    const input = Object.values(files).reduce((n, t) => n + t.length, 0);
    const ratio = r.stdout.length / input;
    const ok = r.code !== 2 && r.ms < TARGET_MS && !(mb > TARGET_MB) && r.stdout.length <= TARGET_RATIO * input + 256 * 1024;
    if (!ok) failed++;
    console.log(`  ${ok ? 'ok  ' : 'MISS'} ${name.padEnd(58)} ${fmt(r.ms).padStart(8)} ms  ${Number.isFinite(mb) ? mb.toFixed(0).padStart(5) : '    ?'} MB  exit ${r.code}  ${(r.stdout.length / 1024).toFixed(0)} KB out (${ratio.toFixed(1)}× input)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
