/**
 * `npm run eval -- <corpus dir> [--misses] [--fps]`: runs the linter's core over an injection
 * corpus with the real file system, scores `injection-payload` results, prints each number beside
 * its target, and exits 1 when a target is missed.
 */
import { promises as fsp } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { lintIndex, loadWorkspace, pathAtOffset, uriToPath, fileUri, escapeText } from '../core';
import { injectionPayload } from '../core/rules/injection-payload';
import { blockingFileSystem } from '../node/fs';
import { countCandidates, pct, score, type BenignFile, type CorpusLabel, type Rate, type Result } from './score';

const SOURCE_TARGET: Record<string, number> = { dvmcp: 95, mcpsecbench: 95, agentnull: 95, bipia: 70, 'bipia-train': 70 };
const FIELD_TARGET = 85;
const HIDDEN_TARGET = 95;
const FP_PER_1K_MAX = 0.5;
const TOOL_FP_MAX = 1;

async function readJsonl(path: string): Promise<CorpusLabel[]> {
  // A folder of benign schemas alone (no labels) still measures false positives.
  const text = await fsp.readFile(path, 'utf8').catch(() => '');
  return text.split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as CorpusLabel);
}

/** Candidate-string counts the corpus publishes per file (its own scorer's denominators), if any. */
async function manifestCounts(dir: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  try {
    const m = JSON.parse(await fsp.readFile(join(dir, 'manifest.json'), 'utf8')) as { files?: { file?: unknown; candidateStrings?: unknown }[] };
    for (const f of m.files ?? []) if (typeof f.file === 'string' && typeof f.candidateStrings === 'number') counts.set(f.file, f.candidateStrings);
  } catch {
    // no manifest: count ourselves
  }
  return counts;
}

async function benignFiles(dir: string): Promise<BenignFile[]> {
  const out: BenignFile[] = [];
  const published = await manifestCounts(dir);
  const walk = async (d: string): Promise<void> => {
    for (const e of await fsp.readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (/\.tools\.jsonc?$/.test(e.name)) {
        let value: { tools?: unknown[] };
        try {
          value = JSON.parse(await fsp.readFile(p, 'utf8')) as { tools?: unknown[] };
        } catch {
          continue;
        }
        const tools = Array.isArray(value.tools) ? value.tools : [];
        const file = relative(dir, p).split(sep).join('/');
        out.push({ file, tools: tools.length, candidateStrings: published.get(file) ?? tools.reduce((a: number, t) => a + countCandidates(t), 0) });
      }
    }
  };
  const benignDir = join(dir, 'benign');
  const st = await fsp.stat(benignDir).catch(() => undefined);
  await walk(st?.isDirectory() ? benignDir : dir);
  return out;
}

function sourceKey(source: string): string {
  return source.replace(/-(train|test|dev)$/, '');
}

function line(name: string, value: string, target: string, ok: boolean): string {
  return `  ${name.padEnd(28)} ${value.padStart(14)}   target ${target.padEnd(8)} ${ok ? 'ok' : 'MISSED'}`;
}

function rateText(r: Rate): string {
  return `${pct(r).toFixed(1)}% (${r.hit}/${r.total})`;
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const dirArg = args.find((a) => !a.startsWith('--'));
  if (!dirArg) {
    console.error('usage: npm run eval -- <corpus dir> [--misses] [--fps]');
    return 2;
  }
  const dir = resolve(dirArg);
  const started = Date.now();
  const { index } = await loadWorkspace(blockingFileSystem, [fileUri(dir)]);
  const { diagnostics } = lintIndex(index, { rules: [injectionPayload] });
  const elapsed = Date.now() - started;

  const results: Result[] = diagnostics.map((d) => {
    const doc = index.docs.get(d.uri);
    const root = doc?.parsed.roots[0]?.node;
    const path = root ? pathAtOffset(root, d.offset) : undefined;
    const tool = path && path[0] === 'tools' && typeof path[1] === 'number' ? path[1] : undefined;
    const signals = Array.isArray(d.data?.signals) ? (d.data.signals as { id: string }[]).map((x) => x.id).join(',') : '';
    return { file: relative(dir, uriToPath(d.uri)).split(sep).join('/'), line: d.range.start.line + 1, tool, message: `[${d.data?.score} ${signals}] ${d.message}` };
  });
  const labels = await readJsonl(join(dir, 'labels.jsonl'));
  const benign = await benignFiles(dir);
  const s = score(labels, results, benign);

  const fpPer1k = s.candidateStrings ? (1000 * s.falsePositives.length) / s.candidateStrings : 0;
  const toolRate = s.benignTools ? (100 * s.flaggedTools) / s.benignTools : 0;
  let failed = 0;
  const out: string[] = [];
  const check = (name: string, value: string, target: string, ok: boolean) => {
    if (!ok) failed++;
    out.push(line(name, value, target, ok));
  };
  out.push(`injection-payload on ${dir} (${elapsed} ms)`);
  out.push(`  ${'recall overall'.padEnd(28)} ${rateText(s.recall).padStart(14)}`);
  out.push('by payload source');
  for (const [k, r] of [...s.bySource].sort()) {
    const t = SOURCE_TARGET[k] ?? SOURCE_TARGET[sourceKey(k)];
    if (t === undefined) out.push(`  ${k.padEnd(28)} ${rateText(r).padStart(14)}`);
    else check(k, rateText(r), `≥ ${t}%`, pct(r) >= t);
  }
  out.push('by field');
  for (const [k, r] of [...s.byField].sort()) check(k, rateText(r), `≥ ${FIELD_TARGET}%`, pct(r) >= FIELD_TARGET);
  out.push('by encoding');
  for (const [k, r] of [...s.byEncoding].sort()) {
    if (k === 'plain') out.push(`  ${k.padEnd(28)} ${rateText(r).padStart(14)}`);
    else check(k, rateText(r), `≥ ${HIDDEN_TARGET}%`, pct(r) >= HIDDEN_TARGET);
  }
  out.push('false positives');
  check('fp per 1k benign strings', `${fpPer1k.toFixed(2)} (${s.falsePositives.length}/${s.candidateStrings})`, `≤ ${FP_PER_1K_MAX}`, fpPer1k <= FP_PER_1K_MAX);
  check('benign tools flagged', `${toolRate.toFixed(2)}% (${s.flaggedTools}/${s.benignTools})`, `≤ ${TOOL_FP_MAX}%`, toolRate <= TOOL_FP_MAX);
  out.push(`  ${'off-target results'.padEnd(28)} ${String(s.offTarget.length).padStart(14)}   (in poisoned files, not counted)`);
  if (args.includes('--misses')) {
    out.push('missed');
    for (const m of s.missed) out.push(`  ${m.file}:${m.line} ${m.field} ${m.encoding} ${m.source}`);
  }
  if (args.includes('--fps')) {
    out.push('false positives');
    for (const r of s.falsePositives) out.push(`  ${r.file}:${r.line} ${escapeText(r.message ?? '', 220)}`);
  }
  out.push(failed ? `${failed} target(s) missed` : 'all targets met');
  console.log(out.join('\n'));
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.stack ?? e.message : String(e));
    process.exit(2);
  },
);
