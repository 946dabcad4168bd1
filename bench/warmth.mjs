// How much of a CLI lint is V8 warming up, and how much is work: one process loads and lints
// generated workspaces of the same size one after another, each with its own content (another
// seed), so no cache keyed on text helps a later run; the last run repeats the first workspace's
// content, which is what the caches can do. Each run is timed beside the same process reading and
// `JSON.parse`-ing the same files (the floor's work, warm too); the lint reads the texts already
// read, so its figure adds that one read.
//
//   node --expose-gc bench/warmth.mjs [cases] [runs]      (defaults: 10000 cases, 4 runs)
//
// With --expose-gc a full collection runs between runs, so no run pays for the garbage of the one
// before it.
//
// Informational, no target: docs/performance.md ("Cold and warm") reads it. The core is bundled
// from src/ with esbuild into a temporary folder, as the CLI bundle holds it.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { generateWorkspace } from './generate.mjs';

const cases = Number(process.argv[2] ?? 10000);
const runs = Math.max(2, Number(process.argv[3] ?? 4));
const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'litmus-warmth-'));

try {
  const bundle = join(work, 'core.cjs');
  await build({ entryPoints: [join(repo, 'src/core/index.ts')], bundle: true, platform: 'node', format: 'cjs', target: 'node20', outfile: bundle, mainFields: ['module', 'main'], logLevel: 'warning' });
  const core = createRequire(import.meta.url)(bundle);
  const seeds = Array.from({ length: runs - 1 }, (_, i) => i + 1);
  const dirs = seeds.map((seed) => generateWorkspace(join(work, `ws-${seed}`), cases, seed).dir);

  /** The files of a folder as an in-memory file system (the reads are timed apart, as the floor's). */
  function readAll(dir, root) {
    const texts = new Map();
    const dirsOf = new Map();
    const walk = (d) => {
      const uri = d === dir ? root : `${root}/${relative(dir, d)}`;
      const entries = [];
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = join(d, e.name);
        entries.push([e.name, e.isDirectory() ? 'directory' : 'file']);
        if (e.isDirectory()) walk(p);
        else texts.set(`${root}/${relative(dir, p)}`, readFileSync(p, 'utf8'));
      }
      dirsOf.set(uri, entries);
    };
    walk(dir);
    const fs = {
      readFile: async (u) => texts.get(u) ?? Promise.reject(Object.assign(new Error('ENOENT'), { code: 'ENOENT' })),
      readDirectory: async (u) => dirsOf.get(u) ?? [],
      stat: async (u) => (texts.has(u) ? { type: 'file', size: texts.get(u).length } : dirsOf.has(u) ? { type: 'directory', size: 0 } : undefined),
    };
    return { texts, fs };
  }

  console.log(`${cases} cases, ${runs} runs in one process (Node ${process.version})\n`);
  console.log('run  content        read + JSON.parse   read + load (parse, index)   rules + placing   lint ÷ floor');
  for (let i = 0; i < runs; i++) {
    const seed = i < seeds.length ? seeds[i] : seeds[0];
    const root = `file:///warmth/run${i}`;
    globalThis.gc?.();
    let t = performance.now();
    const { texts, fs } = readAll(dirs[seeds.indexOf(seed)], root);
    const read = performance.now() - t;
    t = performance.now();
    for (const [uri, text] of texts) {
      if (uri.endsWith('.jsonl')) {
        for (const line of text.split('\n')) if (line.trim()) JSON.parse(line);
      } else {
        try {
          JSON.parse(text);
        } catch {
          // a .jsonc file with comments: the floor reads it, as bench/floor.mjs does with what it cannot parse
        }
      }
    }
    const floor = read + performance.now() - t;
    t = performance.now();
    const loaded = await core.loadWorkspace(fs, [root], {});
    const load = performance.now() - t;
    t = performance.now();
    const { diagnostics } = core.lintIndex(loaded.index);
    const rules = performance.now() - t;
    const what = i === 0 ? `seed ${seed} (cold)` : i < seeds.length ? `seed ${seed} (new)` : `seed ${seed} (again)`;
    console.log(
      `${String(i + 1).padEnd(5)}${what.padEnd(15)}${`${floor.toFixed(0)} ms`.padStart(17)}${`${(read + load).toFixed(0)} ms`.padStart(29)}${`${rules.toFixed(0)} ms`.padStart(18)}${`${((read + load + rules) / floor).toFixed(2)}×`.padStart(15)}   ${diagnostics.length} findings`,
    );
  }
  console.log('\nThe CLI adds start-up (Node, the bundle) and the report to every run; the floor script adds Node.');
} finally {
  rmSync(work, { recursive: true, force: true });
}
