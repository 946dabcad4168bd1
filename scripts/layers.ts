// The house rules of src/, checked over the import graph (docs/architecture.md draws them):
// - src/core goes by stage, text → model → injection, schema → trajectory → rules → lint → index.ts, and a
//   module imports only from its own stage or a lower one, never up and never across (injection and
//   schema stand side by side and do not import each other);
// - the adapters (cli, server, client, importers, node) reach core only through src/core/index.ts,
//   and never each other except where listed in ADAPTER_IMPORTS;
// - no import cycle anywhere in src/.
// `npm test` runs it through test/unit/layers.test.ts; `node out/scripts/layers.js` prints it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/** The stages of src/core, lowest first. Stages of equal rank may not import each other. */
export const CORE_STAGES: Readonly<Record<string, number>> = { text: 0, model: 1, injection: 2, schema: 2, trajectory: 3, rules: 4, lint: 5 };

/** Which adapter may import which other part of src/ (a part, or one file), besides core's index. */
export const ADAPTER_IMPORTS: Readonly<Record<string, readonly string[]>> = {
  cli: ['importers', 'node'],
  server: ['node'],
  // The protocol's message names and shapes are the one thing the two ends must share.
  client: ['src/server/protocol.ts'],
  importers: [],
  node: [],
  // The measurement harness reads the detector's internals on purpose, and imports the benchmarks
  // as suite authors do (src/eval/cases.ts); it ships in no product.
  eval: ['core-internals', 'node', 'importers'],
};

export interface ImportEdge {
  from: string;
  to: string;
}

export interface Violation {
  from: string;
  to: string;
  why: string;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]*)['"]|(?:^|[\s;(])import\s*\(\s*['"](\.[^'"]*)['"]\s*\)|(?:^|[\s;])import\s*['"](\.[^'"]*)['"]/g;

function stripComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"\\])\/\/.*$/gm, '$1');
}

function resolveImport(fromFile: string, spec: string): string | undefined {
  const base = resolve(dirname(fromFile), spec);
  for (const candidate of [base + '.ts', join(base, 'index.ts'), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return name === 'generated' ? [] : tsFiles(p);
      return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [p] : [];
    });
}

/** Every relative import between files of `src/`, as repository-relative paths with '/'. */
export function importGraph(repo: string): ImportEdge[] {
  const src = join(repo, 'src');
  const edges: ImportEdge[] = [];
  for (const file of tsFiles(src)) {
    const text = stripComments(readFileSync(file, 'utf8'));
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      const target = resolveImport(file, spec);
      if (!target) continue;
      edges.push({ from: toRepoPath(repo, file), to: toRepoPath(repo, target) });
    }
  }
  return edges;
}

function toRepoPath(repo: string, file: string): string {
  return relative(repo, file).split(sep).join('/');
}

/** `src/core/<stage>/…` → stage; `src/core/index.ts` → 'index'; `src/<part>/…` → part; else undefined. */
function placeOf(path: string): { part: string; stage?: string } | undefined {
  const m = /^src\/([^/]+)\/(?:([^/]+)\/)?/.exec(path);
  if (!m) return undefined;
  if (m[1] !== 'core') return { part: m[1] };
  if (path === 'src/core/index.ts') return { part: 'core', stage: 'index' };
  return { part: 'core', stage: m[2] ?? 'loose' };
}

/** What breaks the house rules in a list of edges (pure, so it can be tested on made-up graphs). */
export function checkEdges(edges: readonly ImportEdge[]): Violation[] {
  const out: Violation[] = [];
  for (const { from, to } of edges) {
    const a = placeOf(from);
    const b = placeOf(to);
    if (!a || !b) continue;
    if (a.part === 'core') {
      if (b.part !== 'core') {
        out.push({ from, to, why: `core imports ${b.part}: core is pure and knows no adapter` });
        continue;
      }
      if (a.stage === 'loose' || b.stage === 'loose') {
        out.push({ from, to, why: 'every core module belongs to a stage folder (text, model, injection, schema, trajectory, rules, lint)' });
        continue;
      }
      if (a.stage === 'index' || a.stage === b.stage) continue;
      if (b.stage === 'index') {
        out.push({ from, to, why: `${a.stage}/ imports core's index: import the module itself` });
        continue;
      }
      const ra = CORE_STAGES[a.stage!];
      const rb = CORE_STAGES[b.stage!];
      if (ra === undefined || rb === undefined) {
        out.push({ from, to, why: `unknown core stage ${ra === undefined ? a.stage : b.stage}` });
      } else if (rb > ra) {
        out.push({ from, to, why: `${a.stage}/ imports ${b.stage}/, a later stage: move what both need down` });
      } else if (rb === ra) {
        out.push({ from, to, why: `${a.stage}/ imports ${b.stage}/, a stage beside it: move what both need down` });
      }
      continue;
    }
    if (a.part === b.part) continue;
    const allowed = ADAPTER_IMPORTS[a.part] ?? [];
    if (b.part === 'core') {
      if (b.stage === 'index' || allowed.includes('core-internals')) continue;
      out.push({ from, to, why: `${a.part} imports core/${b.stage}/ directly: go through src/core/index.ts, core's one public face` });
    } else if (!allowed.includes(b.part) && !allowed.includes(to)) {
      out.push({ from, to, why: `${a.part} imports ${b.part}, which it may not` });
    }
  }
  return out;
}

/** Each import cycle once, as the list of files around it. */
export function findCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const list = next.get(e.from);
    if (list) list.push(e.to);
    else next.set(e.from, [e.to]);
  }
  // Tarjan's strongly connected components, iteratively: a deep chain must not overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const top = work[work.length - 1];
      const succ = next.get(top.node) ?? [];
      if (top.i < succ.length) {
        const w = succ[top.i++];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          component.push(w);
        } while (w !== top.node);
        const selfLoop = (next.get(top.node) ?? []).includes(top.node);
        if (component.length > 1 || selfLoop) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

if (require.main === module) {
  const repo = resolve(__dirname, '..', '..');
  const edges = importGraph(repo);
  const violations = checkEdges(edges);
  const cycles = findCycles(edges);
  for (const v of violations) console.log(`${v.from} → ${v.to}: ${v.why}`);
  for (const c of cycles) console.log(`import cycle: ${c.join(' → ')}`);
  console.log(`${edges.length} imports, ${violations.length} layer violations, ${cycles.length} cycles`);
  process.exitCode = violations.length || cycles.length ? 1 : 0;
}
