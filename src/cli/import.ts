import { lstatSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { escapeText } from '../core';
import { BENCHMARKS, IMPORTERS, LAYOUTS, locateSource, type EntryKind, type OutputFile } from '../importers/index';
import { benchmarkReader, SourceReadFailure } from '../node/source-reader';
import { IMPORT_MCP_USAGE_LINE, runImportMcp } from './import-mcp';
import { walkImportArgs, type CommonImportArgs } from './import-args';
import type { CliIo } from './io';
import { randomHex } from './hash';

export const IMPORT_USAGE = `Usage: litmus-lint import <${BENCHMARKS.join('|')}> <source> --out <dir> [options]
       ${IMPORT_MCP_USAGE_LINE}

Converts a published benchmark into LITMUS files a suite author keeps and edits: case files grouped
as the benchmark groups its tasks, tool-schema files in the dialect it sends, shared environment
files, a litmus.config.json and a README.md saying where every field came from (docs/import.md).
\`import mcp\` lists the tools of a live MCP server into a tools file (litmus-lint import mcp --help).

  <source>              the benchmark's folder, the folder that holds its main file, or that file:
                        agentdojo export.json; injecagent data/ or data/tools.json;
                        agentharm benchmark/; asb data/ or data/agent_task.jsonl
  -o, --out <dir>       where to write; created if missing
      --suite <name>    the suite name and instance_id prefix (default: the benchmark's name)
      --force           overwrite files that already exist in --out
      --dry-run         print what would be written, write nothing
  -h, --help            show this help

Exit status: 0 imported, 2 usage error or bad source data (one line on standard error, nothing written).
`;

interface ImportArgs extends CommonImportArgs {
  benchmark?: string;
  source?: string;
  suite?: string;
}

class ImportFailure extends Error {}

/** Parses the subcommand's own options; a string is a one-line usage error. */
export function parseImportArgs(args: readonly string[]): ImportArgs | string {
  const opts: ImportArgs = { force: false, dryRun: false, help: false };
  const positional: string[] = [];
  const problem = walkImportArgs(args, opts, {
    own(name, value) {
      if (name !== '--suite') return false;
      const v = value();
      if (!v) return '--suite needs a name';
      if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(v)) return `--suite ${JSON.stringify(v)}: use letters, digits, '.', '_' and '-' (it prefixes every instance_id)`;
      opts.suite = v;
      return undefined;
    },
    other(arg) {
      if (arg.startsWith('-') && arg !== '-') return `unknown option ${JSON.stringify(arg)}`;
      positional.push(arg);
      return undefined;
    },
    rest: (more) => positional.push(...more),
  });
  if (problem) return problem;
  if (opts.help) return opts;
  if (positional.length === 0) return `name a benchmark: ${BENCHMARKS.join(', ')}`;
  const [benchmark, source, ...extra] = positional;
  if (!BENCHMARKS.includes(benchmark)) return `unknown benchmark ${JSON.stringify(benchmark)}; use one of ${BENCHMARKS.join(', ')}`;
  if (source === undefined) return 'name the benchmark\'s source folder or main file';
  if (extra.length) return `unexpected argument ${JSON.stringify(extra[0])}`;
  if (opts.out === undefined) return '--out <dir> is required';
  return { ...opts, benchmark, source };
}

/** `litmus-lint import <benchmark> <source> --out <dir>`. */
export async function runImport(args: readonly string[], io: CliIo): Promise<number> {
  if (args[0] === 'mcp') return runImportMcp(args.slice(1), io);
  const say = (line: string) => io.stderr(`litmus-lint import: ${escapeText(line)}\n`);
  const opts = parseImportArgs(args);
  if (typeof opts === 'string') {
    say(`${opts} (see litmus-lint import --help)`);
    return 2;
  }
  if (opts.help) {
    io.stdout(IMPORT_USAGE);
    return 0;
  }
  try {
    const out = resolve(io.cwd, opts.out!);
    const located = locateSource(LAYOUTS[opts.benchmark!], resolve(io.cwd, opts.source!), probe);
    if (!located.ok) throw new ImportFailure(located.error);
    const reader = benchmarkReader(located.root);
    const started = Date.now();
    const result = IMPORTERS[opts.benchmark!](reader, {
      suite: opts.suite,
      // Only long imports talk: a fast one prints its summary and nothing else.
      progress: (m) => (Date.now() - started > 500 ? say(m) : undefined),
    });
    if (!result.ok) throw new ImportFailure(result.error);
    for (const f of result.files) checkRelative(f.path);
    const { summary } = result;
    const line = `${summary.cases} cases (${summary.adversarial} adversarial, ${summary.benign} benign${summary.derived ? `, ${summary.derived} of them derived` : ''}) in ${result.files.length} files`;
    // A dry run refuses what the write would (existing files, links out of --out), so its exit
    // status says whether the real import would go through.
    checkOut(out, result.files, opts.force);
    if (opts.dryRun) {
      // Paths hold names from the benchmark's data: printed escaped, as every other output is.
      for (const f of result.files) io.stdout(`${escapeText(join(opts.out!, f.path))}  ${Buffer.byteLength(f.text)} bytes\n`);
      printWarnings(result.warnings, say);
      say(`dry run: would write ${line} to ${opts.out}`);
      return 0;
    }
    write(out, result.files, opts.force);
    printWarnings(result.warnings, say);
    say(`wrote ${line} to ${opts.out}`);
    return 0;
  } catch (e) {
    if (e instanceof ImportFailure || e instanceof SourceReadFailure) {
      say(e.message);
      return 2;
    }
    const err = e as NodeJS.ErrnoException;
    say(`${err.code ? `${err.code}: ` : 'internal error: '}${(err.message ?? String(e)).split('\n')[0]}`);
    return 2;
  }
}

function printWarnings(warnings: readonly string[], say: (l: string) => void): void {
  const shown = warnings.slice(0, 20);
  for (const w of shown) say(`warning: ${w}`);
  if (warnings.length > shown.length) say(`warning: ... and ${warnings.length - shown.length} more (listed in the README.md written)`);
}

/** What a path is, following links (a link to nothing is nothing). */
function probe(path: string): EntryKind | undefined {
  const st = statSync(path, { throwIfNoEntry: false });
  return st === undefined ? undefined : st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
}

function checkRelative(p: string): void {
  if (p === '' || isAbsolute(p) || p.split('/').some((s) => s === '..' || s === '.' || s === '') || p.includes('\\')) {
    throw new ImportFailure(`refusing to write ${JSON.stringify(p)}: outside --out`);
  }
}

/** Refuses an --out the import cannot write: not a folder, existing files without --force, links out of it. */
function checkOut(out: string, files: readonly OutputFile[], force: boolean): void {
  const existing = statSync(out, { throwIfNoEntry: false });
  if (existing && !existing.isDirectory()) throw new ImportFailure(`--out ${out} exists and is not a folder`);
  if (existing) {
    const realOut = realpathSync(out);
    const clashes: string[] = [];
    for (const f of files) {
      const target = join(out, ...f.path.split('/'));
      const parent = nearestExisting(dirname(target));
      const realParent = realpathSync(parent);
      if (realParent !== realOut && !realParent.startsWith(realOut + sep)) throw new ImportFailure(`refusing to write ${f.path}: ${relative(out, parent)} leads outside --out`);
      const st = lstatSync(target, { throwIfNoEntry: false });
      if (st?.isSymbolicLink()) throw new ImportFailure(`refusing to write ${f.path}: it is a symbolic link in --out`);
      if (st?.isDirectory()) throw new ImportFailure(`cannot write ${f.path}: a folder of that name exists in --out`);
      if (st) clashes.push(f.path);
    }
    if (clashes.length && !force) {
      throw new ImportFailure(`${clashes.length} file${clashes.length === 1 ? '' : 's'} already exist in ${out} (first: ${clashes[0]}); pass --force to overwrite`);
    }
  }
}

/**
 * Writes every file into a fresh folder beside --out, then moves it into place: a failure on the
 * way leaves --out as it was. Existing files are never overwritten without --force, and nothing is
 * written through a link that leads out of --out.
 */
function write(out: string, files: readonly OutputFile[], force: boolean): void {
  checkOut(out, files, force);
  const existing = statSync(out, { throwIfNoEntry: false });
  const tmp = join(dirname(out), `.${basename(out)}.import-${process.pid}-${randomHex(4)}`);
  try {
    for (const f of files) {
      const target = join(tmp, ...f.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, f.text, 'utf8');
    }
    if (!existing) {
      mkdirSync(dirname(out), { recursive: true });
      renameSync(tmp, out);
      return;
    }
    for (const f of files) {
      const target = join(out, ...f.path.split('/'));
      mkdirSync(dirname(target), { recursive: true });
      renameSync(join(tmp, ...f.path.split('/')), target);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function nearestExisting(dir: string): string {
  let d = dir;
  while (!statSync(d, { throwIfNoEntry: false })) {
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  return d;
}
