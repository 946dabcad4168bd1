import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { flushed } from '../../src/cli/flushed';

// The CLI ends its process itself once the report is out (src/cli/main.ts): these hold it to
// writing every byte first, to a reader that lags as a pipe into another program does.
const CLI = join(__dirname, '../../../dist/cli.js');

/** A suite of `n` benign cases whose `paired_with` names no case: one error each, a report of about 1 KB a case. */
function suite(n: number): string {
  const cases = Array.from({ length: n }, (_, i) => ({
    instance_id: `c${i}`,
    arm: 'benign',
    family: `f${i}`,
    task: `Summarise report ${i}.`,
    correct_resolution_signature: { summary: `r${i}` },
    paired_with: `missing-${i}`,
  }));
  return JSON.stringify({ suite: 's', cases }, null, 2);
}

/** Runs the CLI with its standard output and error read only after `lagMs`, as a slow reader would. */
function runLagging(args: string[], cwd: string, lagMs: number, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CLI, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    proc.stdout.pause();
    proc.stderr.pause();
    setTimeout(() => {
      proc.stdout.on('data', (b: Buffer) => out.push(b));
      proc.stderr.on('data', (b: Buffer) => err.push(b));
      // Explicitly paused streams stay paused when a listener comes.
      proc.stdout.resume();
      proc.stderr.resume();
    }, lagMs);
    proc.on('error', reject);
    proc.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

describe('CLI process exit (dist/cli.js)', function () {
  this.timeout(60000);
  let tmp = '';
  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'litmus-exit-'));
    writeFileSync(join(tmp, 'big.litmus.json'), suite(2000));
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes a report far larger than a pipe holds in full to a reader that lags, with its exit status', async () => {
    const r = await runLagging(['--format', 'json', '--rule', 'missing-arm:off', '.'], tmp, 500);
    assert.equal(r.code, 1);
    assert.ok(r.stdout.length > 1_000_000, `a report of ${r.stdout.length} characters is too small to fill a pipe`);
    const report = JSON.parse(r.stdout) as { files: { diagnostics: { ruleId: string }[] }[]; summary: { errors: number } };
    const unresolved = report.files.flatMap((f) => f.diagnostics).filter((m) => m.ruleId === 'unresolved-reference');
    assert.equal(unresolved.length, 2000);
    assert.equal(report.summary.errors, 2000);
  });

  it('writes what goes to standard error after the report too (TIMING)', async () => {
    const r = await runLagging(['--format', 'json', '--rule', 'missing-arm:off', '.'], tmp, 500, { ...process.env, TIMING: 'all' });
    assert.equal(r.code, 1);
    JSON.parse(r.stdout);
    const rows = r.stderr.trimEnd().split('\n');
    assert.match(rows[0], /^Rule\s+\| Time \(ms\)/);
    // Every rule that ran has its row: the table is not cut off.
    assert.ok(rows.some((l) => l.startsWith('unresolved-reference ')), r.stderr);
    assert.ok(rows.length > 10, r.stderr);
  });

  it('exits 0 on a clean folder at once, with nothing queued', async () => {
    const clean = mkdtempSync(join(tmpdir(), 'litmus-exit-clean-'));
    try {
      const r = await runLagging(['--format', 'json', '.'], clean, 0);
      assert.equal(r.code, 0);
      assert.deepEqual((JSON.parse(r.stdout) as { files: unknown[] }).files, []);
    } finally {
      rmSync(clean, { recursive: true, force: true });
    }
  });
});

describe('flushed: what the CLI waits for before it exits', () => {
  /** A stream that takes each write only when `release` is called, as a full pipe does. */
  function slowStream() {
    const taken: string[] = [];
    const waiting: (() => void)[] = [];
    const stream = new Writable({
      highWaterMark: 4,
      write(chunk: Buffer, _enc, done) {
        // Nothing to take: a pipe takes an empty write at once, once the writes before it are taken.
        if (chunk.length === 0) return done();
        waiting.push(() => {
          taken.push(chunk.toString());
          done();
        });
      },
    });
    const release = () => waiting.splice(0).forEach((f) => f());
    return { stream, taken, release };
  }
  const settled = async (p: Promise<void>) => {
    let done = false;
    void p.then(() => (done = true));
    await new Promise((r) => setImmediate(r));
    return done;
  };

  it('settles only after every write queued before it has been taken', async () => {
    const { stream, taken, release } = slowStream();
    stream.write('a');
    stream.write('b'); // past the high-water mark: queued behind the first
    const p = flushed(stream);
    assert.equal(await settled(p), false);
    release(); // 'a' taken; 'b' now waits
    assert.equal(await settled(p), false);
    assert.deepEqual(taken, ['a']);
    release();
    await p;
    assert.deepEqual(taken, ['a', 'b']);
  });

  it('settles at once for a stream with nothing queued, a destroyed one and an ended one', async () => {
    const idle = slowStream();
    const p = flushed(idle.stream);
    idle.release();
    await p;
    const destroyed = slowStream().stream;
    destroyed.destroy();
    assert.equal(await settled(flushed(destroyed)), true);
    const ended = new Writable({ write: (_c, _e, done) => done() });
    ended.end();
    assert.equal(await settled(flushed(ended)), true);
  });

  it('settles when the stream fails (a reader that went away), without hiding the error from its handler', async () => {
    const errors: Error[] = [];
    const failing = new Writable({ write: (_c, _e, done) => done(Object.assign(new Error('EPIPE'), { code: 'EPIPE' })) });
    failing.on('error', (e) => errors.push(e));
    failing.write('x');
    await flushed(failing);
    await new Promise((r) => setImmediate(r));
    assert.equal(errors.length, 1);
  });
});
