// Edits of real suites through the language server (`npm run bench -- --imports`): each benchmark
// under ../shared/benchmarks is imported with `litmus-lint import`, and its largest case file that
// pairs cases is edited as the generated workspace's case files are (bench/lsp.mjs: a `paired_with`
// broken and restored, the clock stopped by the publish that shows it). For information, with no
// target: these files hold hundreds of cases that share families with every other case file, the
// layout the generated workspace does not have (docs/performance.md, "Sixth pass").
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { measureServer } from './lsp.mjs';
import { runNode } from './measure.mjs';

/** Import names, as `litmus-lint import` takes them, with the folder names under benchmarks/. */
export const IMPORTS = ['injecagent', 'asb', 'agentdojo', 'agentharm'];

/** Every `*.litmus.json` under `dir`, largest first. */
function caseFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.litmus.json')) out.push({ path: p, bytes: statSync(p).size });
    }
  };
  walk(dir);
  return out.sort((a, b) => b.bytes - a.bytes);
}

/**
 * Imports each benchmark found and times case edits of its largest pairing file. One entry per
 * benchmark: `{ name, file, bytes, case }`, or `{ name, error }` / `{ name, skipped }`.
 */
export async function measureImports({ repo, work, benchmarksDir, serverJs, debounceMs, edits = 20, log = () => {} }) {
  const out = [];
  for (const name of IMPORTS) {
    const source = join(benchmarksDir, name);
    if (!existsSync(source)) {
      out.push({ name, skipped: `no ${source}` });
      continue;
    }
    const dir = join(work, `import-${name}`);
    const imported = await runNode([join(repo, 'dist', 'cli.js'), 'import', name, source, '--out', dir]);
    if (imported.code !== 0) {
      out.push({ name, error: `import exited ${imported.code}: ${imported.stderr.trim().split('\n').slice(0, 2).join(' | ')}` });
      continue;
    }
    const file = caseFiles(dir).find((f) => /"paired_with": "/.test(readFileSync(f.path, 'utf8')));
    if (!file) {
      out.push({ name, skipped: 'no case file pairs cases' });
      continue;
    }
    const rel = relative(dir, file.path);
    log(`language server on the ${name} import: editing ${rel} (${Math.round(file.bytes / 1024)} KB)`);
    try {
      const s = await measureServer(serverJs, { dir, suites: [{ variant: 'json', rel }], toolFiles: [] }, { caseEdits: edits, toolEdits: 0, debounceMs });
      out.push({ name, file: rel, bytes: file.bytes, indexMs: s.indexMs, case: s.case });
    } catch (e) {
      out.push({ name, error: String(e.message ?? e).slice(0, 200) });
    }
  }
  return out;
}
