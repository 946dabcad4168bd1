import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../src/cli/io';
import { runCli } from '../../src/cli/run';
import { writeFileAtomic } from '../../src/cli/write';
import { fileUri, lintIndex, loadWorkspace } from '../../src/core';
import { blockingFileSystem, nodeFileSystem } from '../../src/node/fs';
import { decodeUtf8, firstBadByte, notUtf8Error } from '../../src/node/utf8';

/**
 * Issue 22, items 2–4: writes that must not lose anything. `--fix` over a file an editor saved
 * while the lint ran, `--fix` over a file that is not UTF-8, `init --force` into a folder whose
 * files are symbolic links that lead out.
 */
function realIo(cwd: string, writeFile: CliIo['writeFile'] = writeFileAtomic): { io: CliIo; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    io: { fs: blockingFileSystem, cwd, env: {}, isTTY: false, stdout: (t) => void (out += t), stderr: (t) => void (err += t), writeFile },
    out: () => out,
    err: () => err,
  };
}

const TOOLS = JSON.stringify({ tools: [{ name: 'send_email', description: 'Send an email.', inputSchema: { type: 'object' } }] }, null, 2);
const benign = (id: string, tool: string) => ({ instance_id: id, arm: 'benign', family: 'f', task: 't', resolution: 'comply', correct_resolution_signature: `s-${id}`, tools: [tool] });

describe('unlucky writes (issue 22)', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'litmus-unlucky-'));
    writeFileSync(join(dir, 'mail.tools.json'), TOOLS);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  describe('a file saved while --fix ran (item 2)', () => {
    it('keeps the save: nothing is written over it, the user is told, and the report shows the file as it is now', async () => {
      const path = join(dir, 'a.litmus.json');
      writeFileSync(path, JSON.stringify({ suite: 's', cases: [benign('b1', 'mail.tools.json#send_mial')] }, null, 2));
      // What an editor saves between the lint's read and its write: the author's own edit, typo and all.
      const saved = JSON.stringify({ suite: 's', cases: [benign('b1', 'mail.tools.json#send_mial'), benign('b2', 'mail.tools.json#send_email')] }, null, 2);
      const r = realIo(dir, async (p, text, options) => {
        if (p === path) writeFileSync(path, saved);
        return writeFileAtomic(p, text, options);
      });
      const status = await runCli(['--fix', '.'], r.io);
      assert.equal(readFileSync(path, 'utf8'), saved, 'the save is kept');
      assert.match(r.err(), /not fixed a\.litmus\.json: it changed on disk while the lint ran, so it was left as it is now \(1 fix not applied\); run --fix again/);
      assert.doesNotMatch(r.out(), /^fixed a\.litmus\.json/m);
      assert.doesNotMatch(r.out(), /applied 1 fix/);
      // The report is of the file on disk: the typo is still there.
      assert.match(r.out(), /unresolved-reference/);
      assert.equal(status, 1);
      assert.deepEqual(readdirSync(dir).sort(), ['a.litmus.json', 'mail.tools.json'], 'no temporary file is left behind');
    });

    it('other files of the run are still fixed', async () => {
      writeFileSync(join(dir, 'a.litmus.json'), JSON.stringify(benign('a1', 'mail.tools.json#send_mial'), null, 2));
      writeFileSync(join(dir, 'b.litmus.json'), JSON.stringify(benign('b1', 'mail.tools.json#send_mial'), null, 2));
      const r = realIo(dir, async (p, text, options) => {
        if (p.endsWith('a.litmus.json')) writeFileSync(p, JSON.stringify(benign('a1', 'mail.tools.json#send_email')));
        return writeFileAtomic(p, text, options);
      });
      await runCli(['--fix', '.'], r.io);
      assert.match(readFileSync(join(dir, 'b.litmus.json'), 'utf8'), /#send_email/);
      assert.equal(readFileSync(join(dir, 'a.litmus.json'), 'utf8'), JSON.stringify(benign('a1', 'mail.tools.json#send_email')));
      assert.match(r.out(), /applied 1 fix in 1 file/);
      assert.match(r.err(), /not fixed a\.litmus\.json: it changed on disk/);
    });

    it('writeFileAtomic checks the file just before the rename', async () => {
      const path = join(dir, 'x.litmus.json');
      writeFileSync(path, '\ufeff{"a": 1}');
      // The text as read (the BOM is not part of it) is still there: written, BOM kept.
      await writeFileAtomic(path, '{"a": 2}', { expect: '{"a": 1}' });
      assert.equal(readFileSync(path, 'utf8'), '\ufeff{"a": 2}');
      await assert.rejects(writeFileAtomic(path, '{"a": 3}', { expect: '{"a": 1}' }), (e: { code?: string }) => e.code === 'ECHANGED');
      assert.equal(readFileSync(path, 'utf8'), '\ufeff{"a": 2}');
      rmSync(path);
      await assert.rejects(writeFileAtomic(path, '{"a": 3}', { expect: '{"a": 2}' }), /is gone/);
      assert.equal(existsSync(path), false, 'a file deleted meanwhile is not brought back');
      assert.deepEqual(readdirSync(dir).sort(), ['mail.tools.json']);
    });
  });

  describe('a file that is not UTF-8 (item 3)', () => {
    // Latin-1 "é" (0xE9) inside a string, as a file saved in the wrong encoding has it.
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    const caseText = JSON.stringify(benign('b1', 'mail.tools.json#send_mial'), null, 2).replace('"t"', '"caf\u00e9"');

    it('is reported at its first bad byte and never rewritten by --fix', async () => {
      const path = join(dir, 'a.litmus.json');
      const bytes = latin1(caseText);
      writeFileSync(path, bytes);
      const r = realIo(dir);
      const status = await runCli(['--fix', '.'], r.io);
      assert.deepEqual(readFileSync(path), bytes, 'not a byte changed');
      const at = bytes.indexOf(0xe9);
      const line = caseText.slice(0, caseText.indexOf('\u00e9')).split('\n').length;
      const column = caseText.indexOf('\u00e9') - caseText.lastIndexOf('\n', caseText.indexOf('\u00e9'));
      assert.match(r.out(), new RegExp(`a\\.litmus\\.json\\n  ${line}:${column}  error  not valid UTF-8 at byte ${at} \\(0xE9\\)`));
      assert.match(r.out(), /no fixes to apply/);
      assert.equal(status, 1);
    });

    it('gets one parse-error in place and nothing else, in the CLI and the server alike', async () => {
      writeFileSync(join(dir, 'a.litmus.json'), latin1(caseText));
      for (const fs of [blockingFileSystem, nodeFileSystem]) {
        const loaded = await loadWorkspace(fs, [fileUri(dir)]);
        const ds = lintIndex(loaded.index).diagnostics.filter((d) => d.uri.endsWith('a.litmus.json'));
        assert.deepEqual(ds.map((d) => d.code), ['parse-error']);
        assert.equal(ds[0].fixes.length, 0);
        const doc = loaded.index.docs.get(ds[0].uri)!;
        assert.equal(doc.text.slice(ds[0].offset, ds[0].offset + 1), '\ufffd', 'the range covers the bad byte');
      }
    });

    it('standard input that is not UTF-8 stops the run with exit status 2; nothing is printed as fixed', async () => {
      const r = realIo(dir);
      const bytes = latin1(caseText);
      r.io.readStdin = async () => {
        const d = decodeUtf8(bytes);
        if (!d.ok) throw notUtf8Error('standard input', d);
        return d.text;
      };
      const status = await runCli(['--stdin', '--stdin-filename', 'a.litmus.json', '--fix'], r.io);
      assert.equal(status, 2);
      assert.equal(r.out(), '');
      assert.match(r.err(), /standard input is not valid UTF-8 at byte \d+ \(0xE9\); nothing was linted or fixed/);
    });

    it('firstBadByte follows RFC 3629: overlong forms, surrogates, cut sequences and bytes past U+10FFFF are bad', () => {
      const cases: [number[], number][] = [
        [[0x61, 0x62], 2],
        [[0xc3, 0xa9], 2],
        [[0x61, 0xc0, 0xaf], 1],
        [[0xe0, 0x80, 0xaf], 0],
        [[0xed, 0xa0, 0x80], 0],
        [[0xf4, 0x90, 0x80, 0x80], 0],
        [[0xf0, 0x9f, 0x98, 0x80, 0x61], 5],
        [[0x61, 0xe2, 0x82], 1],
        [[0x61, 0xe2, 0x82, 0x41], 1],
        [[0xff], 0],
      ];
      for (const [bytes, at] of cases) {
        const b = Uint8Array.from(bytes);
        assert.equal(firstBadByte(b), at, bytes.map((x) => x.toString(16)).join(' '));
        assert.equal(decodeUtf8(b).ok, at === bytes.length);
      }
    });

    it('decodeUtf8 accepts exactly the well-formed bytes, its own U+FFFD and a byte-order mark among them (random bytes)', () => {
      let seed = 7;
      const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
      // Mostly ASCII and continuation bytes, with lead bytes and U+FFFD's own encoding: the sequences that go wrong.
      const pieces = [[0x61], [0xa0], [0xc3, 0xa9], [0xef, 0xbf, 0xbd], [0xef, 0xbb, 0xbf], [0xed, 0xa0, 0x80], [0xf4, 0x90], [0xe2, 0x82], [0xc0], [0xff]];
      for (let n = 0; n < 20000; n++) {
        const bytes: number[] = [];
        const len = 1 + Math.floor(next() * 8);
        for (let k = 0; k < len; k++) bytes.push(...(next() < 0.3 ? [Math.floor(next() * 256)] : pieces[Math.floor(next() * pieces.length)]));
        const b = Uint8Array.from(bytes);
        const d = decodeUtf8(b);
        assert.equal(d.ok, firstBadByte(b) === b.length, bytes.map((x) => x.toString(16)).join(' '));
        if (d.ok) assert.equal(d.text, new TextDecoder('utf-8').decode(b));
      }
    });
  });

  describe('init --force and symbolic links (item 4)', () => {
    let outside: string;
    beforeEach(() => {
      outside = mkdtempSync(join(tmpdir(), 'litmus-home-'));
    });
    afterEach(() => rmSync(outside, { recursive: true, force: true }));

    it('does not write through a litmus.config.json linked to a file outside the folder', async () => {
      const bashrc = join(outside, '.bashrc');
      writeFileSync(bashrc, 'export PATH=$HOME/bin:$PATH\n');
      const target = join(dir, 'starter');
      mkdirSync(target);
      symlinkSync(bashrc, join(target, 'litmus.config.json'));
      const r = realIo(dir);
      assert.equal(await runCli(['init', '--force', 'starter'], r.io), 2);
      assert.equal(readFileSync(bashrc, 'utf8'), 'export PATH=$HOME/bin:$PATH\n');
      assert.match(r.err(), /litmus\.config\.json is a symbolic link .*leads outside starter.*nothing was written/);
      assert.deepEqual(readdirSync(target), ['litmus.config.json'], 'no other file was written either');
    });

    it('does not write into a linked folder that leads outside (tools/ -> elsewhere)', async () => {
      const target = join(dir, 'starter');
      mkdirSync(target);
      symlinkSync(outside, join(target, 'tools'));
      const r = realIo(dir);
      assert.equal(await runCli(['init', '--force', 'starter'], r.io), 2);
      assert.deepEqual(readdirSync(outside), []);
      assert.match(r.err(), /tools\/notes\.tools\.json is a symbolic link/);
    });

    it('writes through a link that stays inside the folder, and replaces a link that points nowhere', async () => {
      const target = join(dir, 'starter');
      mkdirSync(join(target, 'real'), { recursive: true });
      symlinkSync(join(target, 'real'), join(target, 'tools'));
      symlinkSync(join(outside, 'nothing-here'), join(target, 'litmus.config.json'));
      const r = realIo(dir);
      const status = await runCli(['init', '--force', 'starter'], r.io);
      assert.equal(status, 0, r.err());
      assert.match(readFileSync(join(target, 'real/notes.tools.json'), 'utf8'), /share_note/);
      assert.match(readFileSync(join(target, 'litmus.config.json'), 'utf8'), /maxMutationDepth/);
      assert.deepEqual(readdirSync(outside), [], 'the dangling link is not followed out');
    });
  });
});
