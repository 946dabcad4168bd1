import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../../src/core';
import { IMPORTERS, memoryReader, type ImportResult } from '../../src/importers/index';
import { fileName, PathClaims } from '../../src/importers/write';
import { cli, FIXTURES, readTree, ROOT } from './import-helpers';

// Issue 22, items 9, 13 and 18: names, files and keys from a benchmark are data, and data can be
// hostile or unlucky. Each test here failed before its fix.

function ok(r: ImportResult) {
  if (!r.ok) assert.fail(`import failed: ${r.error}`);
  return r;
}

/** A fixture's source files with edits applied (a function of the text, or the new text). */
function edited(benchmark: string, edits: Record<string, (t: string) => string>): Record<string, string> {
  const files = readTree(join(FIXTURES, benchmark, 'source'));
  for (const [p, e] of Object.entries(edits)) files[p] = e(files[p]);
  return files;
}

/** Every case of an import, parsed. */
function casesOf(r: ImportResult & { ok: true }) {
  return r.files
    .filter((f) => f.path.endsWith('.litmus.json'))
    .flatMap((f) => (JSON.parse(f.text.replace(/^\s*\/\/.*$/gm, '')) as { cases: Record<string, unknown>[] }).cases);
}

/** The findings of a lint of the imported files, by rule. */
async function findings(r: ImportResult & { ok: true }): Promise<Map<string, string[]>> {
  const base = 'file:///import/x';
  const { index } = await loadWorkspace(memoryFileSystem(Object.fromEntries(r.files.map((f) => [`${base}/${f.path}`, f.text]))), [base]);
  const out = new Map<string, string[]>();
  for (const d of lintIndex(index).diagnostics) out.set(d.code, [...(out.get(d.code) ?? []), d.message]);
  return out;
}

/** Control characters but the line feed that ends each line. */
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

describe('import: hostile and unlucky names (issue 22)', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'litmus-import-hostile-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  function writeSource(files: Record<string, string>): string {
    const dir = join(tmp, 'src');
    for (const [p, t] of Object.entries(files)) {
      const full = join(dir, ...p.split('/'));
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, t);
    }
    return dir;
  }

  const spoofed = '\u001b[2J\u0007user_task_0\u202e\r\n::error::spoof';

  it('9: --dry-run prints task ids escaped, and no control character reaches a file name on disk', async () => {
    const src = writeSource(edited('agentdojo', { 'export.json': (t) => t.replace(/"user_task_0"/g, JSON.stringify(spoofed)) }));
    const dry = await cli(['import', 'agentdojo', src, '--out', join(tmp, 'out'), '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.doesNotMatch(dry.stdout, CONTROL, 'dry-run output carries raw control characters');
    assert.doesNotMatch(dry.stdout, /\u202e/);
    assert.ok(!dry.stdout.split('\n').some((l) => l.startsWith('::')), 'a line of the dry run starts a workflow command');
    const wet = await cli(['import', 'agentdojo', src, '--out', join(tmp, 'out')]);
    assert.equal(wet.code, 0, wet.stderr);
    const names = Object.keys(readTree(join(tmp, 'out')));
    assert.ok(names.length > 0);
    for (const n of names) assert.doesNotMatch(n, /[\u0000-\u001f\u007f-\u009f\u202e:]/, `written as ${JSON.stringify(n)}`);
    assert.match(wet.stderr, /its cases are written to cases\/library\//);
  });

  it('13: a benchmark file that links to /proc/self/pagemap is refused with one line, not read', function () {
    if (!existsSync('/proc/self/pagemap')) this.skip();
    const src = join(tmp, 'src');
    cpSync(join(FIXTURES, 'agentharm/source'), src, { recursive: true });
    rmSync(join(src, 'derived/benign.tools.json'));
    symlinkSync('/proc/self/pagemap', join(src, 'derived/benign.tools.json'));
    // A child process: before the fix the read ran until the allocator gave up and took the process with it.
    const r = spawnSync(process.execPath, [join(ROOT, 'out/src/cli/main.js'), 'import', 'agentharm', src, '--out', join(tmp, 'out')], { encoding: 'utf8', timeout: 60000 });
    assert.equal(r.status, 2, `exit ${r.status} ${r.signal ?? ''}: ${r.stderr.slice(0, 500)}`);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /cannot read derived\/benign\.tools\.json in .*: it is on procfs, not a data file/);
    assert.ok(!existsSync(join(tmp, 'out')));
  });

  it('a benchmark file that is not UTF-8 is named with its first bad byte, not read with U+FFFD', async () => {
    const src = join(tmp, 'src');
    cpSync(join(FIXTURES, 'agentharm/source'), src, { recursive: true });
    const file = join(src, 'benchmark/benign_behaviors_test_public.json');
    const bytes = readFileSync(file);
    writeFileSync(file, Buffer.concat([bytes.subarray(0, 40), Buffer.from([0xff]), bytes.subarray(40)]));
    const r = await cli(['import', 'agentharm', src, '--out', join(tmp, 'out')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /cannot read benchmark\/benign_behaviors_test_public\.json in .*: not valid UTF-8 at byte 40 \(0xFF\)/);
    assert.ok(!existsSync(join(tmp, 'out')));
  });

  it('18: an AgentDojo suite named with # writes environment and tool references the linter accepts', async () => {
    const r = ok(IMPORTERS.agentdojo(memoryReader(edited('agentdojo', { 'export.json': (t) => t.replace('"library": {', '"lib#1%2": {') }))));
    assert.ok(r.files.every((f) => !f.path.includes('#') && !f.path.includes('%')), r.files.map((f) => f.path).join(', '));
    const byRule = await findings(r);
    for (const rule of ['unresolved-reference', 'parse-error']) assert.equal(byRule.get(rule), undefined, `${rule}: ${byRule.get(rule)?.[0]}`);
    // The suite keeps its name everywhere but in file names.
    assert.ok(casesOf(r).every((c) => String(c.instance_id).startsWith('agentdojo-lib#1%2-')));
    assert.ok(r.warnings.some((w) => /suite "lib#1%2" is written as "lib_1_2" in file names/.test(w)));
  });

  it('18: AgentHarm categories whose slugs coincide get a file each, and the import goes on', () => {
    const r = ok(IMPORTERS.agentharm(memoryReader(edited('agentharm', { 'benchmark/harmful_behaviors_test_public.json': (t) => t.replace('"category": "Fraud",\n            "prompt": "Post fake', '"category": "fraud",\n            "prompt": "Post fake') }))));
    const paths = r.files.map((f) => f.path);
    assert.ok(paths.includes('cases/harmful/fraud.litmus.json') && paths.includes('cases/harmful/fraud-2.litmus.json'), paths.join(', '));
    const harmful = casesOf(r).filter((c) => c.arm === 'adversarial');
    assert.deepEqual(harmful.map((c) => c.instance_id).sort(), ['agentharm-harmful-1-1', 'agentharm-harmful-1-2', 'agentharm-harmful-2-1']);
  });

  it('18: names that differ only in case never share a path a case-insensitive disk would merge', async () => {
    const bakery = (t: string) => {
      const kits = JSON.parse(t) as { toolkit: string; tools: { name: string }[] }[];
      kits.push({ ...JSON.parse(JSON.stringify(kits[0])), toolkit: 'bakery', tools: [{ ...kits[0].tools[0], name: 'Lookup' }] });
      return JSON.stringify(kits, null, 1);
    };
    const r = ok(IMPORTERS.injecagent(memoryReader(edited('injecagent', { 'data/tools.json': bakery }))));
    const lower = r.files.map((f) => f.path.toLowerCase());
    assert.equal(new Set(lower).size, lower.length, `paths that collide case-insensitively: ${r.files.map((f) => f.path).join(', ')}`);
    assert.ok(r.files.some((f) => f.path === 'tools/Bakery.tools.json') && r.files.some((f) => f.path === 'tools/bakery-2.tools.json'));
    const byRule = await findings(r);
    assert.equal(byRule.get('unresolved-reference'), undefined, byRule.get('unresolved-reference')?.[0]);
  });

  it('18: an argument named __proto__ survives into unsafe_actions and safe_completion', () => {
    const dojo = ok(
      IMPORTERS.agentdojo(
        memoryReader(edited('agentdojo', { 'export.json': (t) => t.replace('"body": "M-77",\n        "recipient": "M-13"', '"__proto__": "chapter 1",\n        "body": "M-77",\n        "recipient": "M-13"') })),
      ),
    );
    const pair = casesOf(dojo).find((c) => c.instance_id === 'agentdojo-library-user_task_1-injection_task_0')!;
    const args = (pair.unsafe_actions as { arguments: Record<string, unknown> }[])[0].arguments;
    assert.ok(Object.prototype.hasOwnProperty.call(args, '__proto__'), JSON.stringify(pair.unsafe_actions));
    assert.equal(args.__proto__ as unknown, 'chapter 1');
    const injec = ok(IMPORTERS.injecagent(memoryReader(edited('injecagent', { 'data/user_cases.jsonl': (t) => t.replace(`"{'cake_id': 'LC-1'}"`, `"{'cake_id': 'LC-1', '__proto__': {'polluted': True}}"`) }))));
    const c = casesOf(injec).find((x) => x.instance_id === 'injecagent-control-BakeryGetReviews')!;
    const step = (c.safe_completion as { arguments: Record<string, unknown> }[])[0].arguments;
    assert.ok(Object.prototype.hasOwnProperty.call(step, '__proto__'), JSON.stringify(c.safe_completion));
    assert.deepEqual(JSON.parse(JSON.stringify(step)), JSON.parse('{"cake_id": "LC-1", "__proto__": {"polluted": true}}'));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('import: file names from data', () => {
  it('fileName keeps what every disk and every reference takes, and nothing else', () => {
    assert.equal(fileName('user_task_0'), 'user_task_0');
    assert.equal(fileName('a#b%c/d\\e:f g'), 'a_b_c_d_e_f_g');
    assert.equal(fileName('..'), '__');
    assert.equal(fileName('.hidden.'), '_hidden_');
    assert.equal(fileName(''), 'unnamed');
    assert.equal(fileName('CON'), '_CON');
    assert.equal(fileName('nul.tools'), '_nul.tools');
    assert.equal(fileName('x'.repeat(500)).length, 120);
    assert.doesNotMatch(fileName('\u0000\u001b\u202e\u200b'), /[^A-Za-z0-9._-]/);
  });

  it('PathClaims tells apart paths that a case-insensitive disk would merge, the same way every time', () => {
    const c = new PathClaims();
    assert.equal(c.claim('tools/Chef.tools.json', 'Chef'), 'tools/Chef.tools.json');
    assert.equal(c.claim('tools/chef.tools.json', 'chef'), 'tools/chef-2.tools.json');
    assert.equal(c.claim('tools/CHEF.tools.json', 'CHEF'), 'tools/CHEF-3.tools.json');
    assert.equal(c.claim('tools/chef.tools.json', 'chef'), 'tools/chef-2.tools.json', 'the same key gets the same path');
    assert.equal(c.claim('cases/x', 'x'), 'cases/x');
  });
});

describe('import: the data folder is the importer\'s, never written', () => {
  it('an import reads its source and leaves it as it was', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'litmus-import-ro-'));
    try {
      const src = join(tmp, 'src');
      cpSync(join(FIXTURES, 'asb/source'), src, { recursive: true });
      const before = readTree(src);
      assert.equal((await cli(['import', 'asb', src, '--out', join(tmp, 'out')])).code, 0);
      assert.deepEqual(readTree(src), before);
      assert.deepEqual(readdirSync(tmp).sort(), ['out', 'src']);
      assert.ok(readFileSync(join(tmp, 'out/README.md'), 'utf8').length > 0);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
