import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileUri, isUnder, lintIndex, loadWorkspace, memoryFileSystem, type LoadOptions } from '../../src/core';
import { blockingFileSystem, nodeFileSystem } from '../../src/node/fs';
import { diagnosticProblems } from '../hostile/check';
import { spying } from '../helpers';

const caseJson = (id: string, tools: string[]) =>
  JSON.stringify({ instance_id: id, arm: 'benign', family: 'f', task: 'Summarise the inbox.', correct_resolution_signature: 'summary sent', tools });
const toolsJson = (name: string) => JSON.stringify({ tools: [{ name, description: 'Reads a calendar.', inputSchema: { type: 'object' } }] });


/** The server reads with promise calls, the CLI with blocking ones: both must hold every guarantee. */
for (const [flavour, nodeFs] of [['promise calls (server)', nodeFileSystem], ['blocking calls (CLI)', blockingFileSystem]] as const) {
  async function load(root: string, options: LoadOptions = {}) {
    const spy = spying(nodeFs);
    const loaded = await loadWorkspace(spy.fs, [fileUri(root)], options);
    const { diagnostics } = lintIndex(loaded.index);
    assert.deepEqual(diagnosticProblems(loaded.index, diagnostics), []);
    const unresolved = diagnostics.filter((d) => d.code === 'unresolved-reference');
    return { loaded, diagnostics, unresolved, reads: spy.reads };
  }

  describe(`hostile paths over ${flavour}: references that leave the workspace, links and special files`, () => {
    let tmp: string;
    let suite: string;
    beforeEach(() => {
      // Real paths throughout: the confinement compares link-resolved paths.
      tmp = realpathSync(mkdtempSync(join(tmpdir(), 'litmus-paths-')));
      suite = join(tmp, 'suite');
      mkdirSync(join(tmp, 'shared'), { recursive: true });
      mkdirSync(join(tmp, 'unrelated'), { recursive: true });
      mkdirSync(suite);
      writeFileSync(join(tmp, 'shared', 'cal.tools.json'), toolsJson('read_calendar'));
      writeFileSync(join(tmp, 'unrelated', 'other.litmus.json'), caseJson('other', []));
      writeFileSync(join(tmp, 'litmus.config.json'), JSON.stringify({ rules: {} }));
      writeFileSync(join(suite, 'inside.tools.json'), toolsJson('ok'));
    });
    afterEach(() => rmSync(tmp, { recursive: true, force: true }));

    it('CLI: reads what it was pointed at and what that references, and lists what lay outside the roots', async () => {
      writeFileSync(join(suite, 'a.litmus.json'), caseJson('a', ['../shared/cal.tools.json#read_calendar', 'inside.tools.json#ok']));
      const { loaded, unresolved, reads } = await load(suite);
      assert.deepEqual(unresolved, [], 'the outside reference resolves in the CLI');
      assert.deepEqual(loaded.readOutsideRoots.sort(), [fileUri(join(tmp, 'litmus.config.json')), fileUri(join(tmp, 'shared', 'cal.tools.json'))].sort());
      assert.deepEqual(loaded.refused, []);
      assert.ok(!reads.some((u) => u.includes('/unrelated')), 'nothing unreferenced outside the root is read');
    });

    it('CLI: a reference to a device or a pipe does not hang and is reported as unreadable', async function () {
      const fifo = join(tmp, 'shared', 'pipe.tools.json');
      try {
        execFileSync('mkfifo', [fifo]);
      } catch {
        this.skip();
      }
      writeFileSync(join(suite, 'a.litmus.json'), caseJson('a', ['/dev/zero#x', '../shared/pipe.tools.json#x']));
      const { unresolved } = await load(suite);
      assert.deepEqual(unresolved.map((d) => d.data?.problem), ['unreadable', 'unreadable']);
      for (const d of unresolved) assert.match(d.message, /not a regular file/);
    });

    it('CLI: a FIFO named like a suite file in the walked folder, or given as the root, is skipped with a reason', async function () {
      const fifo = join(suite, 'p.litmus.json');
      try {
        execFileSync('mkfifo', [fifo]);
      } catch {
        this.skip();
      }
      const walked = await load(suite);
      assert.match(walked.diagnostics.find((d) => d.uri.endsWith('/p.litmus.json'))!.message, /not a regular file/);
      const direct = await load(fifo);
      assert.match(direct.diagnostics.find((d) => d.uri.endsWith('/p.litmus.json'))!.message, /not a regular file/);
    });

    it('editor: references out of the folder, absolute ones and links that lead out are reported and never read', async () => {
      symlinkSync(join(tmp, 'shared', 'cal.tools.json'), join(suite, 'linked.tools.json'));
      writeFileSync(
        join(suite, 'a.litmus.json'),
        caseJson('a', ['../shared/cal.tools.json#read_calendar', `${join(tmp, 'shared', 'cal.tools.json')}#read_calendar`, 'linked.tools.json#read_calendar', 'inside.tools.json#ok']),
      );
      const root = fileUri(suite);
      const { loaded, unresolved, reads } = await load(suite, { confineTo: [root] });
      assert.deepEqual(unresolved.map((d) => d.data?.problem), ['outside-workspace', 'outside-workspace', 'outside-workspace']);
      for (const d of unresolved) assert.match(d.message, /leads outside the workspace/);
      // The file is named from the case file, as written, never by its absolute path: messages are baselined (FORMAT §11).
      assert.match(unresolved[0].message, /, to `\.\.\/shared\/cal\.tools\.json`, which is not read/);
      assert.ok(unresolved.every((d) => !d.message.includes(`to \`${tmp}`)));
      assert.ok(loaded.refused.includes(fileUri(join(tmp, 'shared', 'cal.tools.json'))));
      assert.ok(loaded.refused.includes(fileUri(join(suite, 'linked.tools.json'))));
      assert.deepEqual(reads.filter((u) => !isUnder(u, root)), [], 'nothing outside the folder is read');
      assert.ok(!reads.includes(fileUri(join(suite, 'linked.tools.json'))), 'the link is not followed out');
      assert.equal(loaded.index.cases[0].tools[3].tool?.name, 'ok', 'references inside still resolve');
    });

    it('editor: a linked folder or file that leads out is not walked, and no config above the folder is read', async () => {
      symlinkSync(join(tmp, 'unrelated'), join(suite, 'ext'), 'dir');
      symlinkSync(join(tmp, 'unrelated', 'other.litmus.json'), join(suite, 'peek.litmus.json'));
      writeFileSync(join(suite, 'a.litmus.json'), caseJson('a', []));
      const root = fileUri(suite);
      const { loaded, reads } = await load(suite, { confineTo: [root] });
      assert.deepEqual(loaded.index.cases.map((c) => c.id), ['a']);
      assert.ok(loaded.refused.includes(fileUri(join(suite, 'ext'))));
      assert.ok(loaded.refused.includes(fileUri(join(suite, 'peek.litmus.json'))));
      assert.ok(!reads.some((u) => u.startsWith(fileUri(join(suite, 'ext')))));
      assert.ok(!reads.includes(fileUri(join(tmp, 'litmus.config.json'))));
      // The CLI reads the linked file (and says so), but never walks a folder link out of the
      // given paths: a link to `/` would walk the whole file system.
      const cli = await load(suite);
      assert.deepEqual(cli.loaded.index.cases.map((c) => c.id).sort(), ['a', 'other']);
      assert.ok(cli.loaded.refused.includes(fileUri(join(suite, 'ext'))));
      assert.deepEqual(cli.loaded.linkedOutside, [fileUri(join(suite, 'peek.litmus.json'))]);
    });

    it('symbolic link loops (to a parent, between two folders, to itself) end the walk', async () => {
      mkdirSync(join(suite, 'x'));
      writeFileSync(join(suite, 'x', 'a.litmus.json'), caseJson('a', []));
      symlinkSync('..', join(suite, 'x', 'up'), 'dir');
      symlinkSync(join(suite, 'q'), join(suite, 'p'), 'dir');
      symlinkSync(join(suite, 'p'), join(suite, 'q'), 'dir');
      symlinkSync('self.litmus.json', join(suite, 'self.litmus.json'));
      writeFileSync(join(suite, 'b.litmus.json'), caseJson('b', ['self.litmus.json#x', 'p/x.tools.json#x']));
      for (const options of [{}, { confineTo: [fileUri(suite)] }]) {
        const { loaded, diagnostics, unresolved } = await load(suite, options);
        assert.deepEqual(loaded.index.cases.map((c) => c.id).sort(), ['a', 'b']);
        assert.match(diagnostics.find((d) => d.uri.endsWith('/self.litmus.json'))!.message, /not a regular file|symbolic links/);
        assert.equal(unresolved.length, 2);
      }
    });

    it('lexical confinement holds without a real file system (no realUri)', async () => {
      const fs = memoryFileSystem({
        'file:///ws/a.litmus.json': caseJson('a', ['../../etc/passwd#root', '/etc/passwd#root', '../ws2/t.tools.json#t', 't.tools.json#t']),
        'file:///ws/t.tools.json': toolsJson('t'),
        'file:///ws2/t.tools.json': toolsJson('t'),
      });
      const spy = spying(fs);
      const loaded = await loadWorkspace(spy.fs, ['file:///ws'], { confineTo: ['file:///ws'] });
      const problems = loaded.index.cases[0].tools.map((t) => t.problem);
      assert.deepEqual(problems, ['outside-workspace', 'outside-workspace', 'outside-workspace', undefined]);
      assert.deepEqual(spy.reads.filter((u) => !isUnder(u, 'file:///ws')), []);
      // Without confinement the sibling folder's file is read, and said to be outside the roots.
      const cli = await loadWorkspace(fs, ['file:///ws']);
      assert.deepEqual(cli.readOutsideRoots, ['file:///ws2/t.tools.json']);
      assert.deepEqual(cli.index.cases[0].tools.map((t) => t.problem), ['missing-file', 'missing-file', undefined, undefined]);
    });
  });
}
