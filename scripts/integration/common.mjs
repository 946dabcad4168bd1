// Shared by the integration layers (pre-commit, Neovim, Emacs): counted checks, the Debian
// packages a layer needs, and one "N passed, N failed" line that scripts/test.mjs adds up.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function createLayer(name) {
  let passed = 0;
  let failed = 0;
  const tmp = mkdtempSync(join(tmpdir(), `litmus-${name}-`));
  const layer = {
    tmp,
    check(title, ok, detail = '') {
      if (ok) {
        passed++;
        console.log(`PASS ${name}: ${title}`);
      } else {
        failed++;
        console.log(`FAIL ${name}: ${title}${detail ? `\n${String(detail).trimEnd().split('\n').slice(-25).join('\n')}` : ''}`);
      }
      return ok;
    },
    /**
     * Installs the layer's Debian packages (scripts/integration/setup.sh). Where they cannot be
     * installed, says what is needed and ends the layer as skipped (exit 0), unless
     * LITMUS_REQUIRE_LAYERS=1 (CI), where a skipped layer is a failure.
     */
    setup(...layers) {
      const r = spawnSync('bash', [join(ROOT, 'scripts/integration/setup.sh'), ...layers], { encoding: 'utf8' });
      if (r.status === 0) return;
      if (r.status === 77 && process.env.LITMUS_REQUIRE_LAYERS !== '1') {
        console.log(`SKIP ${name}: ${(r.stderr ?? '').trim().split('\n').pop()}`);
        layer.finish();
      }
      layer.check(`setup (${layers.join(', ')})`, false, `${r.stdout ?? ''}${r.stderr ?? ''}`);
      layer.finish();
    },
    finish() {
      if (!process.env.KEEP_STATE) rmSync(tmp, { recursive: true, force: true });
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed === 0 ? 0 : 1);
    },
  };
  return layer;
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: opts.timeout ?? 600_000, ...opts });
  return { status: r.status ?? -1, out: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? `\n${r.error.message}` : ''}` };
}

/** Writes `{ relative path: text }` under `dir`. */
export function writeFiles(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
}

/** A copy of examples/ under `dir`: a suite with known findings, for the editor layers. */
export function copyExamples(dir) {
  cpSync(join(ROOT, 'examples'), dir, { recursive: true });
}

/**
 * What an editor layer starts from, under `tmp`: `bin/litmus-language-server` running this
 * checkout's build (put `bin` first on the editor's PATH), a copy of examples/ as `suite`, and
 * `findingsOf(rel)`, the CLI's diagnostics for each of its files linted in that folder.
 */
export function editorSuite(tmp) {
  const bin = join(tmp, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'litmus-language-server'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist/language-server.js')}" "$@"\n`);
  chmodSync(join(bin, 'litmus-language-server'), 0o755);
  const suite = join(tmp, 'examples');
  copyExamples(suite);
  const cli = JSON.parse(run(process.execPath, [join(ROOT, 'dist/cli.js'), '--format', 'json', '.'], { cwd: suite }).out.replace(/^[^{]*/, ''));
  return { bin, suite, findingsOf: (rel) => cli.files.find((f) => f.path === rel)?.diagnostics ?? [] };
}

/**
 * This checkout as it is now (every file git would see, uncommitted changes included; no
 * node_modules, no build output), copied to `dir`: what a fresh clone of a tag holds.
 */
export function snapshotCheckout(dir) {
  const listed = run('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT });
  for (const rel of listed.out.split('\0').filter(Boolean)) {
    try {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      copyFileSync(join(ROOT, rel), join(dir, rel));
    } catch {
      // Listed but deleted in the working tree: not part of the snapshot.
    }
  }
}
