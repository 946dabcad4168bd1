import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileUri, isUnder, lintIndex, loadWorkspace, normalizeUri, type LintDiagnostic, type LoadOptions, type LoadResult } from '../../src/core';
import { nodeFileSystem } from '../../src/node/fs';
import { repoRoot } from '../hostile/arbitraries';
import { diagnosticProblems } from '../hostile/check';
import { spying } from '../helpers';

const HOSTILE = join(repoRoot(), 'test', 'hostile');
const MB = 1024 * 1024;

interface Row {
  fixture: string;
  generated: boolean;
  mode: 'cli' | 'editor';
  checked: string[];
  expected: string[];
}

/** The table of test/hostile/README.md: the contract this file asserts. */
function readTable(): Row[] {
  const rows: Row[] = [];
  for (const line of readFileSync(join(HOSTILE, 'README.md'), 'utf8').split('\n')) {
    if (!line.startsWith('| `')) continue;
    const cells = line.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim());
    const [name, , mode, checked, diagnostics] = cells;
    rows.push({
      fixture: /`([^`]+)`/.exec(name)![1],
      generated: name.includes('(generated)'),
      mode: mode as Row['mode'],
      checked: checked.split(',').map((c) => c.trim()),
      expected: diagnostics === 'none' ? [] : diagnostics.split('<br>').map((d) => d.replace(/`/g, '').trim()),
    });
  }
  return rows;
}

const caseJson = (id: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ instance_id: id, arm: 'benign', family: 'f', task: 'Summarise the inbox.', correct_resolution_signature: 'summary sent', ...extra });

/** Builders for the rows too big (or too link-y) to commit. Each writes into an empty folder. */
const GENERATORS: Record<string, (dir: string) => void> = {
  'deep-nesting': (dir) => {
    const n = 100_000;
    writeFileSync(join(dir, 'deep.litmus.json'), '['.repeat(n) + ']'.repeat(n));
    writeFileSync(join(dir, 'deep.litmus.jsonl'), caseJson('shallow-1') + '\n' + '{"a":'.repeat(n) + '1' + '}'.repeat(n) + '\n');
    writeFileSync(join(dir, 'deep.tools.json'), '{"tools":' + '['.repeat(n) + ']'.repeat(n) + '}');
  },
  'huge-string': (dir) => {
    const big = 'A'.repeat(MB - 1) + '\u202e';
    writeFileSync(join(dir, 'big.litmus.json'), caseJson('big-1', { task: big, tools: ['big.tools.json#t'] }));
    writeFileSync(join(dir, 'big.tools.json'), JSON.stringify({ tools: [{ name: 't', description: 'd', inputSchema: { type: 'object', properties: { p: { type: 'string', default: big } } } }] }));
  },
  'huge-enum': (dir) => {
    const values = Array.from({ length: 100_000 }, (_, i) => `value-${i}`);
    writeFileSync(join(dir, 'enum.litmus.json'), caseJson('enum-1', { tools: ['enum.tools.json#pick'] }));
    writeFileSync(join(dir, 'enum.tools.json'), JSON.stringify({ tools: [{ name: 'pick', description: 'Picks one.', inputSchema: { type: 'object', properties: { v: { type: 'string', enum: values } } } }] }));
  },
  oversized: (dir) => {
    writeFileSync(join(dir, 'big.litmus.json'), caseJson('big-1', { task: '' }).replace('"task":""', `"task":"${'x'.repeat(5 * MB + 1)}"`));
    writeFileSync(join(dir, 'small.litmus.json'), caseJson('small-1'));
  },
  'symlink-loop': (dir) => {
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'case.litmus.json'), caseJson('loop-1'));
    symlinkSync('..', join(dir, 'a', 'up'), 'dir');
    symlinkSync('self.litmus.json', join(dir, 'a', 'self.litmus.json'));
  },
};


interface Outcome {
  root: string;
  loaded: LoadResult;
  diagnostics: LintDiagnostic[];
  reads: string[];
}

/** What each row's "behaviour" column says beyond the exact diagnostics. */
const BEHAVIOUR: Record<string, (o: Outcome) => void> = {
  empty: (o) => assert.match(o.diagnostics[0].message, /^empty file/),
  binary: (o) => assert.match(o.diagnostics.find((d) => d.code === 'parse-error')!.message, /binary file/),
  'not-utf8': (o) => {
    assert.equal(o.diagnostics.length, 1, 'nothing in the file is read');
    assert.match(o.diagnostics[0].message, /^not valid UTF-8 at byte 68 \(0xE9\): this file is not UTF-8 text, so it is not linted or fixed; save it as UTF-8$/);
    assert.deepEqual(o.diagnostics[0].fixes, []);
    assert.deepEqual(o.loaded.index.cases, []);
  },
  bom: (o) => assert.deepEqual(o.loaded.index.cases.map((c) => c.id), ['bom-1']),
  'line-endings': (o) => assert.deepEqual(o.loaded.index.cases.map((c) => c.id), ['m1', 'm2', 'm5']),
  'duplicate-keys': (o) => {
    const d = o.diagnostics.find((x) => x.code === 'unresolved-reference')!;
    assert.match(d.message, /no-such-case/);
    assert.doesNotMatch(d.message, /decoy/);
  },
  'broken-lines': (o) => assert.deepEqual(o.loaded.index.cases.map((c) => c.id), ['ok-1', 'ok-3']),
  'tag-payload': (o) => {
    const d = o.diagnostics.find((x) => x.code === 'unresolved-reference')!;
    assert.match(d.message, /\\u\{E0069\}/);
    assert.match(d.message, /…/);
  },
  bidi: (o) => {
    const [paired, seed] = o.diagnostics.filter((x) => x.code === 'unresolved-reference');
    assert.match(paired.message, /invoice\\u\{202E\}txt\.exe\\u\{2066\}/);
    assert.match(seed.message, /\\u\{2067\}x+…/);
  },
  'lone-surrogates': (o) => {
    assert.match(o.diagnostics.find((x) => x.code === 'unresolved-reference')!.message, /\\u\{DC00\}\\u\{D83D\}/);
    assert.deepEqual(o.loaded.index.cases.map((c) => c.id), ['lone-\ud800']);
  },
  'escaping-reference': (o) => {
    const outside = o.diagnostics.filter((x) => x.code === 'unresolved-reference');
    assert.deepEqual(outside.map((d) => d.data?.problem), ['outside-workspace', 'outside-workspace']);
    assert.match(outside[0].message, /leads outside the workspace/);
    assert.deepEqual(o.loaded.refused, [normalizeUri('file:///etc/passwd')]);
    assert.deepEqual(o.reads.filter((u) => !isUnder(u, o.root)), [], 'nothing outside the folder is read');
    const inside = o.loaded.index.cases[0].tools[2];
    assert.equal(inside.tool?.name, 'ok');
  },
  'recursive-ref': (o) => {
    const d = o.diagnostics.find((x) => x.code === 'unsatisfiable-safe-completion')!;
    assert.equal(d.data?.problem, 'ref-loop');
    assert.equal(d.severity, 'info');
    assert.ok(!o.diagnostics.some((x) => x.data?.problem === 'rule-crashed'));
  },
  'backtracking-pattern': (o) => {
    const ds = o.diagnostics.filter((x) => x.code === 'unsatisfiable-safe-completion');
    assert.deepEqual(ds.map((d) => d.data?.problem), ['pattern-not-checked', 'rejected-arguments']);
    assert.equal(ds[1].data?.keyword, 'pattern');
  },
  'deep-nesting': (o) => {
    for (const d of o.diagnostics.filter((x) => x.code === 'parse-error')) assert.match(d.message, /nesting deeper than 256 levels/);
    assert.deepEqual(o.loaded.index.cases.map((c) => c.id), ['shallow-1']);
  },
  'huge-string': (o) => {
    assert.equal((o.loaded.index.cases[0].value.task as string).length, MB);
    for (const d of o.diagnostics) assert.ok(d.message.length < 600, `${d.code} message is cut`);
  },
  'huge-enum': (o) => {
    const tool = o.loaded.index.cases[0].tools[0].tool!;
    assert.equal((tool.schema as { properties: { v: { enum: unknown[] } } }).properties.v.enum.length, 100_000);
  },
  oversized: (o) => {
    const d = o.diagnostics.find((x) => x.code === 'parse-error')!;
    assert.match(d.message, /5 MB limit/);
    assert.match(d.message, /litmus\.maxFileSize/);
    assert.equal(o.loaded.oversized.length, 1);
    assert.deepEqual(o.loaded.index.cases.map((c) => c.id), ['small-1']);
    assert.ok(!o.reads.some((u) => u.endsWith('/big.litmus.json')), 'the oversized file is never read');
  },
  'symlink-loop': (o) => {
    assert.deepEqual(o.loaded.index.cases.map((c) => c.id), ['loop-1']);
    assert.match(o.diagnostics.find((x) => x.code === 'parse-error')!.message, /not a regular file/);
  },
};

describe('hostile fixtures (test/hostile/README.md)', () => {
  const rows = readTable();
  let tmp: string;
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'litmus-hostile-'));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('the table covers every fixture folder and generator, and nothing else', () => {
    const folders = readdirSync(HOSTILE).filter((n) => statSync(join(HOSTILE, n)).isDirectory()).sort();
    assert.deepEqual(rows.filter((r) => !r.generated).map((r) => r.fixture).sort(), folders);
    assert.deepEqual(rows.filter((r) => r.generated).map((r) => r.fixture).sort(), Object.keys(GENERATORS).sort());
    assert.deepEqual(Object.keys(BEHAVIOUR).sort(), rows.map((r) => r.fixture).sort());
  });

  for (const row of readTable()) {
    it(`${row.fixture}: ${row.expected.length ? row.expected.length + ' diagnostic(s)' : 'no diagnostics'} of ${row.checked.join(', ')}, as the table says`, async () => {
      let dir = join(HOSTILE, row.fixture);
      if (row.generated) {
        dir = join(tmp, row.fixture);
        mkdirSync(dir);
        GENERATORS[row.fixture](dir);
      }
      const root = fileUri(dir);
      const spy = spying(nodeFileSystem);
      const options: LoadOptions = row.mode === 'editor' ? { confineTo: [root], maxFileSize: 5 * MB } : {};
      const loaded = await loadWorkspace(spy.fs, [root], options);
      const { diagnostics } = lintIndex(loaded.index);
      const shown = diagnostics
        .filter((d) => row.checked.includes(d.code))
        .map((d) => `${d.uri.slice(root.length + 1)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`);
      assert.deepEqual(shown.sort(), [...row.expected].sort());
      assert.deepEqual(diagnosticProblems(loaded.index, diagnostics), []);
      BEHAVIOUR[row.fixture]({ root, loaded, diagnostics, reads: spy.reads });
    });
  }
});
