import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAYOUTS, locateSource, type EntryKind } from '../../src/importers/index';
import { cli, FIXTURES, readTree } from './import-helpers';

// Issue 20 item 4: an importer takes what an author types — the benchmark's root, the folder that
// holds its main file, or that file — and an error says what it looked for and where.

const WAYS: Record<string, string[]> = {
  agentdojo: ['', 'export.json'],
  injecagent: ['', 'data', 'data/', 'data/tools.json'],
  agentharm: ['', 'benchmark', 'benchmark/harmful_behaviors_test_public.json'],
  asb: ['', 'data', 'data/agent_task.jsonl'],
};

describe('import: the source is the root, the data folder or the main file', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'litmus-import-paths-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  for (const [benchmark, ways] of Object.entries(WAYS)) {
    it(`${benchmark}: ${ways.map((w) => w || '<root>').join(', ')} import alike`, async () => {
      const trees: Record<string, string>[] = [];
      for (const [i, way] of ways.entries()) {
        const out = join(tmp, `out${i}`);
        const r = await cli(['import', benchmark, join(FIXTURES, benchmark, 'source', way), '--out', out]);
        assert.equal(r.code, 0, `${way || '<root>'}: ${r.stderr}`);
        trees.push(readTree(out));
      }
      for (const t of trees.slice(1)) assert.deepEqual(t, trees[0]);
    });
  }

  it('a path that is none of these says what was expected where, in one line', async () => {
    const cases: [string, string, RegExp][] = [
      ['agentdojo', join(FIXTURES, 'agentdojo/source/src'), /expected export\.json in \S+agentdojo[\\/]source[\\/]src or a path to export\.json/],
      ['injecagent', join(FIXTURES, 'injecagent/source/data/user_cases.jsonl'), /user_cases\.jsonl is not tools\.json in a data\/ folder: expected data\/tools\.json in a folder, its data\/ folder or a path to tools\.json/],
      ['asb', join(FIXTURES, 'asb/source/derived'), /expected data\/agent_task\.jsonl in \S+derived, its data\/ folder or a path to agent_task\.jsonl/],
      ['agentharm', join(tmp, 'nowhere'), /nowhere: no such file or folder \(expected benchmark\/harmful_behaviors_test_public\.json in the benchmark's folder/],
    ];
    for (const [benchmark, source, pattern] of cases) {
      const r = await cli(['import', benchmark, source, '--out', join(tmp, 'out')]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, pattern);
    }
    // A main file copied out of its folder is named as what it is not.
    writeFileSync(join(tmp, 'tools.json'), '[]');
    const loose = await cli(['import', 'injecagent', join(tmp, 'tools.json'), '--out', join(tmp, 'out')]);
    assert.match(loose.stderr, /tools\.json is not tools\.json in a data\/ folder/);
    assert.deepEqual(readdirSync(tmp), ['tools.json']);
  });
});

describe('import: locateSource', () => {
  const tree: Record<string, EntryKind> = {
    '/b': 'directory',
    '/b/data': 'directory',
    '/b/data/tools.json': 'file',
    '/b/other': 'directory',
    '/elsewhere/data': 'directory',
  };
  const probe = (p: string) => tree[p.replace(/\/+$/, '')];
  const layout = LAYOUTS.injecagent;

  it('finds the root from the root, the data folder (with or without a slash) and the main file', () => {
    for (const input of ['/b', '/b/', '/b/data', '/b/data/', '/b/data/tools.json']) {
      assert.deepEqual(locateSource(layout, input, probe), { ok: true, root: input === '/b/' ? '/b/' : '/b' }, input);
    }
  });

  it('says what it looked for, and where', () => {
    assert.deepEqual(locateSource(layout, '/b/other', probe), { ok: false, error: 'expected data/tools.json in /b/other, its data/ folder or a path to tools.json' });
    assert.deepEqual(locateSource(layout, '/elsewhere/data', probe), { ok: false, error: 'expected data/tools.json in /elsewhere/data, its data/ folder or a path to tools.json' });
    assert.equal(locateSource(LAYOUTS.agentdojo, '/b', probe).ok, false);
    assert.match((locateSource(LAYOUTS.agentdojo, '/b', probe) as { error: string }).error, /^expected export\.json in \/b or a path to export\.json$/);
  });

  it('reads Windows paths too', () => {
    const win: Record<string, EntryKind> = { 'C:\\b': 'directory', 'C:\\b\\data': 'directory', 'C:\\b/data/tools.json': 'file' };
    assert.deepEqual(locateSource(layout, 'C:\\b\\data', (p) => win[p]), { ok: true, root: 'C:\\b' });
  });
});
