/**
 * `npm run eval -- <corpus dir> [--misses] [--fps] [--half 0|1]` runs the linter's core over an
 * injection corpus with the real file system, scores `injection-payload` results, prints each number
 * beside its target, the misses and false alarms by kind, and exits 1 when a target is missed.
 * `--half N` keeps every other payload source and benign file (a split for checking that a change
 * generalises). `npm run eval -- --benchmarks <dir>` measures the detector's `data` slot on the
 * benchmarks' clean and attacked tool outputs and environments (see benchmarks.ts).
 */
import { promises as fsp } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { lintIndex, loadWorkspace, rootPathAt, uriToPath, fileUri, escapeText, formatPointer, allowMatcher } from '../core';
import { detectText, isPayload, judgeTool } from '../core/injection';
import { loadBenchmarks } from './benchmarks';
import { importedBenchmarks } from './cases';
import { kinds, signalKind, type Judged } from './kinds';
import { injectionPayload } from '../core/rules/injection-payload';
import { blockingFileSystem } from '../node/fs';
import { countCandidates, pct, score, variantKey, type BenignFile, type CorpusLabel, type Rate, type Result } from './score';

const SOURCE_TARGET: Record<string, number> = { dvmcp: 95, mcpsecbench: 95, agentnull: 95, bipia: 70, 'bipia-train': 70 };
// The targets of issue 21, on corpora the detector has never seen: every figure is printed beside its own.
const OVERALL_TARGET = 95;
const FIELD_TARGET = 90;
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

/** Descriptions (read as documentation) against value slots (read as data): the surfaces of a tool schema. */
const SURFACE_OF: Record<string, string> = { tool_description: 'description', param_description: 'description', default: 'value', examples: 'value', const: 'value', enum: 'value' };

function bySurface(labels: CorpusLabel[], missed: CorpusLabel[]): Map<string, Rate> {
  const out = new Map<string, Rate>();
  for (const l of labels) {
    const k = SURFACE_OF[l.field] ?? l.field;
    const r = out.get(k) ?? { hit: 0, total: 0 };
    r.total++;
    if (!missed.includes(l)) r.hit++;
    out.set(k, r);
  }
  return out;
}

/** False positives by benign source: the folder under benign/ (mcp, openapi, aws, …). */
function fpBySource(benign: BenignFile[], fps: Result[]): Map<string, { fps: number; strings: number; per1k: number; tools: number; flagged: number; toolRate: number }> {
  const out = new Map<string, { fps: number; strings: number; per1k: number; tools: number; flagged: number; toolRate: number }>();
  const sourceOf = (file: string) => file.replace(/^benign\//, '').split('/')[0] ?? file;
  const flagged = new Map<string, Set<string>>();
  for (const r of fps) {
    const k = sourceOf(r.file);
    const set = flagged.get(k) ?? new Set<string>();
    set.add(`${r.file}#${r.tool ?? -1}`);
    flagged.set(k, set);
  }
  for (const b of benign) {
    const k = sourceOf(b.file);
    const e = out.get(k) ?? { fps: 0, strings: 0, per1k: 0, tools: 0, flagged: 0, toolRate: 0 };
    e.strings += b.candidateStrings;
    e.tools += b.tools;
    e.fps += fps.filter((r) => r.file === b.file).length;
    out.set(k, e);
  }
  for (const [k, e] of out) {
    e.per1k = e.strings ? (1000 * e.fps) / e.strings : 0;
    e.flagged = flagged.get(k)?.size ?? 0;
    e.toolRate = e.tools ? (100 * e.flagged) / e.tools : 0;
  }
  return out;
}

/** Every other item of a sorted key list, for a two-way split that needs no randomness. */
function inHalf(keys: string[], half: number | undefined): (key: string) => boolean {
  if (half === undefined) return () => true;
  const sorted = [...new Set(keys)].sort();
  const keep = new Set(sorted.filter((_, i) => i % 2 === half));
  return (k) => keep.has(k);
}

/**
 * A folder given on the command line, relative to where the user ran the command (npm runs scripts
 * in the package folder and says where it was started in INIT_CWD); undefined when it is not a folder.
 */
async function folderArg(arg: string): Promise<string | undefined> {
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), arg);
  const st = await fsp.stat(dir).catch(() => undefined);
  return st?.isDirectory() ? dir : undefined;
}

function noFolder(what: string, arg: string): number {
  console.error(`${what} ${arg}: no such folder (relative paths are read from ${process.env.INIT_CWD ?? process.cwd()}). The shared corpora and benchmarks sit beside a checkout as ../shared/; in another clone, give their path.`);
  return 2;
}

async function corpus(dirArg: string, args: string[]): Promise<number> {
  const dir = await folderArg(dirArg);
  if (!dir) return noFolder('corpus', dirArg);
  const halfArg = args.indexOf('--half');
  const half = halfArg >= 0 ? Number(args[halfArg + 1]) : undefined;
  const started = Date.now();
  const { index } = await loadWorkspace(blockingFileSystem, [fileUri(dir)]);
  const { diagnostics } = lintIndex(index, { rules: [injectionPayload] });
  const elapsed = Date.now() - started;
  const rel = (uri: string) => relative(dir, uriToPath(uri)).split(sep).join('/');

  const results: Result[] = diagnostics.map((d) => {
    const doc = index.docs.get(d.uri);
    const root = doc?.parsed.roots[0];
    const path = root ? rootPathAt(root, d.offset) : undefined;
    const tool = path && path[0] === 'tools' && typeof path[1] === 'number' ? path[1] : undefined;
    const signals = Array.isArray(d.data?.signals) ? (d.data.signals as { id: string }[]).map((x) => x.id).join(',') : '';
    return { file: rel(d.uri), line: d.range.start.line + 1, tool, message: `[${d.data?.score} ${signals}] ${d.message}` };
  });
  const sourceOk = inHalf((await readJsonl(join(dir, 'labels.jsonl'))).map((l) => l.source), half);
  const labels = (await readJsonl(join(dir, 'labels.jsonl'))).filter((l) => sourceOk(l.source));
  const allBenign = await benignFiles(dir);
  const fileOk = inHalf(allBenign.map((b) => b.file), half);
  const benign = allBenign.filter((b) => fileOk(b.file));
  if (!labels.length && !benign.length) {
    console.error(`corpus ${dirArg}: no labels.jsonl and no benign tool files (*.tools.json) under ${dir}: not a corpus folder (docs/injection.md, Evaluation)`);
    return 2;
  }
  const s = score(labels, results, benign);

  // Verdicts of every string, to say of each miss what the detector saw and of each false alarm its field.
  const verdictAt = new Map<string, Judged>();
  for (const [uri, file] of index.toolFiles) {
    const config = index.configFor(uri);
    const opts = { scanDescriptions: config.injection.scanDescriptions, allowed: allowMatcher(config.injection.allow) };
    file.tools.forEach((tool) => {
      for (const j of judgeTool(tool, opts)) verdictAt.set(`${rel(uri)}#${formatPointer(j.path)}`, { field: j.slot, score: j.verdict.score, signals: j.verdict.signals });
    });
  }
  const missedKinds = s.missed.map((m) => ({ ...(verdictAt.get(`${m.file}#${m.pointer ?? ''}`) ?? { score: 0, signals: [] }), field: m.field }));
  const fpKinds: Judged[] = s.falsePositives.map((r) => {
    const ids = /^\[[0-9.]+ ([^\]]*)\]/.exec(r.message ?? '')?.[1] ?? '';
    const field = /injection payload in ([a-z]+)/.exec(r.message ?? '')?.[1] ?? '?';
    return { field, score: 1, signals: ids.split(',').filter(Boolean).map((id, i) => ({ id, weight: -i, explanation: '' })) };
  });

  const fpPer1k = s.candidateStrings ? (1000 * s.falsePositives.length) / s.candidateStrings : 0;
  const toolRate = s.benignTools ? (100 * s.flaggedTools) / s.benignTools : 0;
  let failed = 0;
  const out: string[] = [];
  const check = (name: string, value: string, target: string, ok: boolean) => {
    if (!ok) failed++;
    out.push(line(name, value, target, ok));
  };
  out.push(`injection-payload on ${dir}${half === undefined ? '' : ` (half ${half})`} (${elapsed} ms)`);
  check('recall overall', rateText(s.recall), `≥ ${OVERALL_TARGET}%`, pct(s.recall) >= OVERALL_TARGET);
  out.push('by payload source');
  for (const [k, r] of [...s.bySource].sort()) {
    const t = SOURCE_TARGET[k] ?? SOURCE_TARGET[sourceKey(k)];
    if (t === undefined) out.push(`  ${k.padEnd(28)} ${rateText(r).padStart(14)}`);
    else check(k, rateText(r), `≥ ${t}%`, pct(r) >= t);
  }
  out.push('by field');
  for (const [k, r] of [...s.byField].sort()) check(k, rateText(r), `≥ ${FIELD_TARGET}%`, pct(r) >= FIELD_TARGET);
  out.push('by surface (where the payload sits)');
  for (const [k, r] of [...bySurface(labels, s.missed)].sort()) out.push(`  ${k.padEnd(28)} ${rateText(r).padStart(14)}`);
  out.push('by encoding');
  for (const [k, r] of [...s.byEncoding].sort()) {
    if (k === 'plain') out.push(`  ${k.padEnd(28)} ${rateText(r).padStart(14)}`);
    else check(k, rateText(r), `≥ ${HIDDEN_TARGET}%`, pct(r) >= HIDDEN_TARGET);
  }
  if (s.byVariant.size > 1) {
    out.push('by payload style (variant; rows of 3+ payloads, lowest first)');
    const rows = [...s.byVariant].filter(([, r]) => r.total >= 3).sort((a, b) => pct(a[1]) - pct(b[1]) || a[0].localeCompare(b[0]));
    for (const [k, r] of rows) out.push(`  ${k.slice(0, 28).padEnd(28)} ${rateText(r).padStart(14)}`);
    const languages = new Map<string, Rate>();
    for (const l of labels) {
      const cut = (l.variant ?? '').lastIndexOf('/');
      if (cut <= 0 || (l.variant ?? '').startsWith('table/')) continue;
      const lang = (l.variant ?? '').slice(0, cut);
      const r = languages.get(lang) ?? { hit: 0, total: 0 };
      r.total++;
      if (!s.missed.includes(l)) r.hit++;
      languages.set(lang, r);
    }
    if (languages.size) {
      out.push('by language (translated sources)');
      for (const [k, r] of [...languages].sort((a, b) => pct(a[1]) - pct(b[1]) || a[0].localeCompare(b[0]))) out.push(`  ${k.slice(0, 28).padEnd(28)} ${rateText(r).padStart(14)}`);
    }
  }
  out.push('false positives');
  for (const [k, f] of [...fpBySource(benign, s.falsePositives)].sort()) {
    out.push(`  ${`source ${k}`.slice(0, 28).padEnd(28)} ${`${f.per1k.toFixed(2)} per 1k (${f.fps}/${f.strings})`.padStart(24)}  tools ${f.toolRate.toFixed(2)}% (${f.flagged}/${f.tools})`);
  }
  check('fp per 1k benign strings', `${fpPer1k.toFixed(2)} (${s.falsePositives.length}/${s.candidateStrings})`, `≤ ${FP_PER_1K_MAX}`, fpPer1k <= FP_PER_1K_MAX);
  check('benign tools flagged', `${toolRate.toFixed(2)}% (${s.flaggedTools}/${s.benignTools})`, `≤ ${TOOL_FP_MAX}%`, toolRate <= TOOL_FP_MAX);
  out.push(`  ${'off-target results'.padEnd(28)} ${String(s.offTarget.length).padStart(14)}   (in poisoned files, not counted)`);
  if (missedKinds.length) {
    out.push('worst misses by kind (field · strongest signals seen: count, mean score)');
    for (const k of kinds(missedKinds, 10)) out.push(`  ${k.key.padEnd(60)} ${String(k.count).padStart(4)}  ${k.meanScore.toFixed(2)}`);
  }
  if (fpKinds.length) {
    out.push('false alarms by kind (field · signals: count)');
    for (const k of kinds(fpKinds, 10)) out.push(`  ${k.key.padEnd(60)} ${String(k.count).padStart(4)}`);
  }
  if (args.includes('--misses')) {
    out.push('missed');
    for (const m of s.missed) {
      const v = verdictAt.get(`${m.file}#${m.pointer ?? ''}`);
      out.push(`  ${m.file}:${m.line} ${m.field} ${m.encoding} ${m.source} ${variantKey(m)} [${v ? `${v.score} ${signalKind(v.signals, 4)}` : '?'}]`);
    }
  }
  if (args.includes('--fps')) {
    out.push('false positives');
    for (const r of s.falsePositives) out.push(`  ${r.file}:${r.line} ${escapeText(r.message ?? '', 220)}`);
  }
  out.push(failed ? `${failed} target(s) missed` : 'all targets met');
  console.log(out.join('\n'));
  return failed ? 1 : 0;
}

/** The data slot over the benchmarks' clean and attacked tool outputs and environments. */
async function benchmarks(dirArg: string, args: string[]): Promise<number> {
  const dir = await folderArg(dirArg);
  if (!dir) return noFolder('benchmarks', dirArg);
  const { sets, missing } = await loadBenchmarks(dir);
  const out: string[] = [`data slot (detectText(text, { slot: 'data', tools })) on ${dir}; AgentDojo strings with their suite's tools, the others alone (their tools are measured through the imported suites below)`];
  let failed = 0;
  const findings: Judged[] = [];
  for (const set of sets) {
    const t0 = Date.now();
    let clean = 0;
    for (const c of set.clean) {
      const v = detectText(c.text, { slot: 'data', tools: c.tools });
      if (isPayload(v)) {
        clean++;
        findings.push({ field: `${set.benchmark} ${c.group}`, score: v.score, signals: v.signals });
        if (args.includes('--fps')) out.push(`    finding: ${set.benchmark} ${c.group} [${v.score} ${signalKind(v.signals, 4)}] ${escapeText(c.text, 160)}`);
      }
    }
    const byGroup = new Map<string, Rate>();
    const missedKinds: Judged[] = [];
    for (const a of set.attacked) {
      const v = detectText(a.text, { slot: 'data', tools: a.tools });
      const r = byGroup.get(a.group) ?? { hit: 0, total: 0 };
      r.total++;
      if (isPayload(v)) r.hit++;
      else missedKinds.push({ field: a.group, score: v.score, signals: v.signals });
      byGroup.set(a.group, r);
    }
    const all = [...byGroup.values()].reduce((acc, r) => ({ hit: acc.hit + r.hit, total: acc.total + r.total }), { hit: 0, total: 0 });
    out.push(`${set.benchmark} (${Date.now() - t0} ms)`);
    const ok = clean === 0;
    if (!ok) failed++;
    out.push(line('clean strings with findings', `${clean}/${set.clean.length}`, '0', ok));
    out.push(`  ${'attacked: recall'.padEnd(28)} ${rateText(all).padStart(14)}`);
    for (const [k, r] of [...byGroup].sort()) out.push(`    ${k.slice(0, 40).padEnd(40)} ${rateText(r).padStart(14)}`);
    if (missedKinds.length) {
      out.push('  misses by kind (attack · strongest signals: count, mean score)');
      for (const k of kinds(missedKinds, 6)) out.push(`    ${k.key.padEnd(60)} ${String(k.count).padStart(4)}  ${k.meanScore.toFixed(2)}`);
    }
    for (const n of set.notes) out.push(`  note: ${n}`);
  }
  if (findings.length) {
    out.push('findings on clean data by kind');
    for (const k of kinds(findings, 10)) out.push(`  ${k.key.padEnd(60)} ${String(k.count).padStart(4)}`);
  }
  for (const m of missing) out.push(`${m}: not found under ${dir} (skipped)`);
  if (!sets.length) failed++;
  failed += await importedSection(dir, out);
  out.push(failed ? `${failed} target(s) missed` : 'all targets met');
  console.log(out.join('\n'));
  return failed ? 1 : 0;
}

/** Rows of the imported-suite figures (cases.ts), each beside its target. */
async function importedSection(dir: string, out: string[]): Promise<number> {
  const figures = await importedBenchmarks(dir);
  let failed = 0;
  out.push('benchmarks imported as suites and linted (benign-contamination, injection-payload; cases.ts)');
  for (const f of figures) {
    out.push(`${f.benchmark} (${f.ms} ms)`);
    const sharedOk = f.sharedFindings === 0;
    if (!sharedOk) failed++;
    out.push(line('shared clean files: findings', `${f.sharedFindings} in ${f.sharedFiles} files`, '0', sharedOk));
    for (const [k, r] of [...f.clean].sort()) {
      const ok = r.hit === 0;
      if (!ok) failed++;
      out.push(line(`clean: ${k}`.slice(0, 28), `${r.hit}/${r.total}`, '0', ok));
    }
    if (f.surfaces.size) out.push(`  ${'reported copies by surface'.padEnd(28)} ${[...f.surfaces].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
    for (const [k, r] of [...f.attacked].sort()) {
      const target = ATTACK_COPY_TARGET[`${f.benchmark} ${k}`];
      if (target === undefined) out.push(`  ${`copied attack: ${k}`.slice(0, 40).padEnd(40)} ${rateText(r).padStart(14)}`);
      else {
        const ok = pct(r) >= target;
        if (!ok) failed++;
        out.push(line(`copied: ${k}`.slice(0, 28), rateText(r), `≥ ${target}%`, ok));
      }
    }
  }
  return failed;
}

/** Attacks copied into a benign case that benign-contamination must report (issue 21). */
const ATTACK_COPY_TARGET: Record<string, number> = {
  'injecagent dh base': 80,
  'injecagent ds base': 80,
  'injecagent dh enhanced': 95,
  'injecagent ds enhanced': 95,
};

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const benchAt = args.indexOf('--benchmarks');
  const benchDir = benchAt >= 0 ? args[benchAt + 1] : undefined;
  const dirArg = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--benchmarks' && args[i - 1] !== '--half');
  if (!dirArg && !benchDir) {
    console.error('usage: npm run eval -- <corpus dir> [--misses] [--fps] [--half 0|1] | --benchmarks <dir> [--fps]');
    return 2;
  }
  let code = 0;
  if (dirArg) code = Math.max(code, await corpus(dirArg, args));
  if (benchDir) code = Math.max(code, await benchmarks(benchDir, args));
  return code;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e instanceof Error ? e.stack ?? e.message : String(e));
    process.exit(2);
  },
);
