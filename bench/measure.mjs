// Small measuring helpers shared by the benchmark's parts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

/**
 * Runs `node <args>` to completion and reports its wall-clock time (spawn to exit, start-up
 * included), its output, and its peak resident set (KB), CPU time (all of it, and the system's part)
 * and minor page faults read through bench/maxrss.cjs. CPU time is what a shared, busy machine
 * distorts least.
 */
export function runNode(args, { cwd, env } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'litmus-rss-'));
  const rssFile = join(scratch, 'rss');
  const preload = new URL('./maxrss.cjs', import.meta.url).pathname;
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(process.execPath, ['--require', preload, ...args], {
      cwd,
      env: { ...process.env, ...env, LITMUS_BENCH_RSS_OUT: rssFile, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = [];
    const err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      let rssKb = NaN;
      let cpuMs = NaN;
      let sysMs = NaN;
      let faults = NaN;
      try {
        const usage = JSON.parse(readFileSync(rssFile, 'utf8'));
        rssKb = usage.maxRSS;
        cpuMs = (usage.user + usage.system) / 1000;
        sysMs = usage.system / 1000;
        faults = usage.faults ?? NaN;
      } catch {
        // the child died before its exit hook ran: no figure rather than a made-up one
      }
      rmSync(scratch, { recursive: true, force: true });
      resolve({ ms, cpuMs, sysMs, faults, code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), rssKb });
    });
  });
}

export function fmt(n, unit) {
  if (n === undefined || Number.isNaN(n)) return '—';
  const v = Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
  return unit ? `${v} ${unit}` : v;
}
