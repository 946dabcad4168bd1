// The Spectral comparison row: Spectral's CLI with a six-rule ruleset (bench/spectral-ruleset.yaml)
// over the same .json files the CLI lints. Spectral is no dependency of the project: the benchmark
// installs the pinned version with npm into a cache folder of its own the first time, and reuses it.
import { existsSync, mkdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const SPECTRAL_VERSION = '6.16.3';

/** `--spectral-cache DIR`, else $LITMUS_BENCH_CACHE, else ~/.cache/litmus-lint-bench (XDG_CACHE_HOME honoured). */
export function defaultCacheDir() {
  return process.env.LITMUS_BENCH_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'litmus-lint-bench');
}

/** The Spectral CLI's script, installed into `cacheDir` when missing; `{ error }` when it cannot be. */
export function ensureSpectral(cacheDir, log) {
  const prefix = join(cacheDir, `spectral-cli-${SPECTRAL_VERSION}`);
  const bin = join(prefix, 'node_modules', '@stoplight', 'spectral-cli', 'dist', 'index.js');
  if (existsSync(bin)) return { bin };
  mkdirSync(prefix, { recursive: true });
  log(`installing @stoplight/spectral-cli@${SPECTRAL_VERSION} into ${prefix} (once)`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `@stoplight/spectral-cli@${SPECTRAL_VERSION}`], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status !== 0 || !existsSync(bin)) {
    const why = (r.stderr || r.error?.message || `npm exited ${r.status}`).trim().split('\n').slice(-2).join(' | ');
    return { error: `cannot install Spectral with npm: ${why}` };
  }
  return { bin };
}

/** The arguments after `node` that lint every .json file under `dir` with the benchmark's ruleset. */
export function spectralArgs(bin, ruleset, dir) {
  return [bin, 'lint', '--ruleset', ruleset, '--format', 'json', '--quiet', `${dir}/**/*.json`];
}
