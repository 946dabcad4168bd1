import assert from 'node:assert/strict';
import { lintIndex, loadWorkspace, memoryFileSystem, type FileSystem } from '../../src/core';
import { codes, covered, json, lintFiles, WS } from '../helpers';

const base = { arm: 'benign', family: 'f', task: 't', correct_resolution_signature: 's' };
const mail = json({ tools: [{ name: 'send_email', description: 'Sends mail.', inputSchema: { type: 'object' } }] });
const caseWith = (tools: unknown[], extra: Record<string, unknown> = {}) => json({ instance_id: 'c1', ...base, tools, ...extra });

describe('tool references across folders', () => {
  it('resolves "../tools/x.tools.json#name" relative to the case file', async () => {
    const files = {
      'cases/mail/one.litmus.json': caseWith(['../../tools/mail.tools.json#send_email']),
      'tools/mail.tools.json': mail,
    };
    const { index, diagnostics } = await lintFiles(files);
    const use = index.cases[0].tools[0];
    assert.equal(use.problem, undefined);
    assert.equal(use.tool?.name, 'send_email');
    assert.equal(use.tool?.uri, `${WS}/tools/mail.tools.json`);
    assert.deepEqual(codes(diagnostics, 'unresolved-reference'), []);
  });

  it('reads a referenced file outside the given folder as a tool-schema file, whatever its name', async () => {
    const fs = memoryFileSystem({
      [`${WS}/suite/a.litmus.json`]: caseWith(['../shared/mail.json#send_email']),
      [`${WS}/shared/mail.json`]: mail,
    });
    const loaded = await loadWorkspace(fs, [`${WS}/suite`]);
    assert.equal(loaded.index.docs.get(`${WS}/shared/mail.json`)?.kind, 'tools');
    assert.deepEqual(loaded.readOutsideRoots, [`${WS}/shared/mail.json`]);
    assert.equal(loaded.index.cases[0].tools[0].tool?.name, 'send_email');
  });

  it('reports a missing file, a missing tool and a malformed reference on the reference string', async () => {
    const files = {
      'cases/a.litmus.json': caseWith(['../tools/nope.tools.json#send_email', '../tools/mail.tools.json#send_mail', 'send_email']),
      'tools/mail.tools.json': mail,
    };
    const { index, diagnostics } = await lintFiles(files);
    assert.deepEqual(
      index.cases[0].tools.map((u) => u.problem),
      ['missing-file', 'missing-tool', 'malformed'],
    );
    const found = codes(diagnostics, 'unresolved-reference');
    assert.deepEqual(
      found.map((d) => covered(files, d)),
      ['"../tools/nope.tools.json#send_email"', '"../tools/mail.tools.json#send_mail"', '"send_email"'],
    );
    assert.match(found[1].message, /no tool named `send_mail`/);
    assert.match(found[1].fixes[0]?.title ?? '', /mail\.tools\.json#send_email\b/, 'suggests the near name');
  });

  it('reports a reference to a file that is not a tool-schema file', async () => {
    const files = { 'a.litmus.json': caseWith(['b.litmus.json#x']), 'b.litmus.json': caseWith([], { instance_id: 'c2' }) };
    const { index, diagnostics } = await lintFiles(files);
    assert.equal(index.cases.find((c) => c.id === 'c1')?.tools[0].problem, 'not-a-tool-file');
    assert.equal(codes(diagnostics, 'unresolved-reference').length, 1);
  });

  it('reports an unreadable target as unreadable, with the reason, on the reference and on the file', async () => {
    const mem = memoryFileSystem({ [`${WS}/a.litmus.json`]: caseWith(['locked.tools.json#send_email']), [`${WS}/locked.tools.json`]: mail });
    const fs: FileSystem = {
      ...mem,
      async readFile(uri) {
        if (uri.endsWith('locked.tools.json')) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
        return mem.readFile(uri);
      },
    };
    const loaded = await loadWorkspace(fs, [WS]);
    const { diagnostics } = lintIndex(loaded.index);
    assert.equal(loaded.index.cases[0].tools[0].problem, 'unreadable');
    const ref = codes(diagnostics, 'unresolved-reference');
    assert.equal(ref.length, 1);
    assert.match(ref[0].message, /permission denied/);
    const parse = codes(diagnostics, 'parse-error');
    assert.deepEqual(
      parse.map((d) => [d.uri, d.message]),
      [[`${WS}/locked.tools.json`, 'cannot read this file: permission denied']],
    );
  });

  it('reports a reference to a folder on the reference only: no parse-error stands in for the folder', async () => {
    const mem = memoryFileSystem({
      [`${WS}/c.litmus.json`]: caseWith(['tools#send_email'], { environment: 'tools' }),
      [`${WS}/tools/mail.tools.json`]: mail,
    });
    const loaded = await loadWorkspace(mem, [WS]);
    const { diagnostics } = lintIndex(loaded.index);
    assert.ok(!loaded.index.docs.has(`${WS}/tools`), 'the folder is no document');
    assert.deepEqual(loaded.folderTargets, [`${WS}/tools`]);
    assert.deepEqual(codes(diagnostics, 'parse-error'), []);
    const refs = codes(diagnostics, 'unresolved-reference').map((d) => d.message);
    assert.equal(refs.length, 2);
    for (const m of refs) assert.match(m, /file `tools` cannot be read \(is a directory\)/);
  });

  it('resolves paired_with and seed_id to cases anywhere in the workspace', async () => {
    const files = {
      'a/one.litmus.json': caseWith([], { instance_id: 'adv', arm: 'adversarial', probe: 'skill_misuse', paired_with: 'ben' }),
      'b/two.litmus.jsonl': JSON.stringify({ instance_id: 'ben', ...base, paired_with: 'adv', seed_id: 'missing-seed' }) + '\n',
    };
    const { diagnostics } = await lintFiles(files);
    const found = codes(diagnostics, 'unresolved-reference');
    assert.deepEqual(
      found.map((d) => covered(files, d)),
      ['"missing-seed"'],
    );
  });

  it('offers a close case id for paired_with and seed_id as a quick fix only: it picks the twin or the seed', async () => {
    const files = {
      'a.litmus.jsonl': [
        JSON.stringify({ instance_id: 'mail-ben-001', ...base, paired_with: 'mail-adv-001' }),
        JSON.stringify({ instance_id: 'mail-adv-001', ...base, arm: 'adversarial', probe: 'skill_misuse', paired_with: 'mail-ben-01', seed_id: 'mail-ben-01' }),
      ].join('\n') + '\n',
      'cases/b.litmus.json': caseWith(['../tools/mail.tools.json#send_mail']),
      'tools/mail.tools.json': mail,
    };
    const found = codes((await lintFiles(files)).diagnostics, 'unresolved-reference');
    assert.deepEqual(
      found.map((d) => [covered(files, d), d.fixes.map((f) => [f.title, f.changesClaim === true])]),
      [
        ['"mail-ben-01"', [['Change to `mail-ben-001`', true]]],
        ['"mail-ben-01"', [['Change to `mail-ben-001`', true]]],
        ['"../tools/mail.tools.json#send_mail"', [['Change to `../tools/mail.tools.json#send_email`', false]]],
      ],
    );
  });
});
