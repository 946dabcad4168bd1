import { dirname, join, resolve } from 'node:path';
import { escapeText, fileUri, isUnder, type LintDiagnostic, lintIndex, type LoadResult, loadWorkspace, normalizeUri, SEVERITY_ORDER, uriToPath } from '../core';
import { findingAnchor } from './anchor';
import { parseCliArgs, UsageError, type CliOptions } from './args';
import { useColor } from './color';
import { planFixes, type AppliedFix } from './fix';
import { relPath, plural, type FormatContext } from './format/context';
import { FORMATTERS } from './format/index';
import { jsonReport } from './format/json';
import { sarifLog } from './format/sarif';
import { jsonChunks } from './format/stream';

/** The formats whose report is a JSON value, which can be written out in pieces when it is huge. */
const STREAMED: Record<string, ((diagnostics: readonly LintDiagnostic[], ctx: FormatContext) => unknown) | undefined> = { json: jsonReport, sarif: sarifLog };
import { keptResults, truncationNotice } from './format/sarif';
import { helpText } from './help';
import type { CliIo } from './io';
import { runImport } from './import';
import { runReport } from './report';
import { INFORMATION_URI, TOOL_NAME, TOOL_VERSION } from './version';

/** `--fix` stops after this many lint-and-fix passes, whatever remains. */
const MAX_FIX_PASSES = 10;

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/** Runs one command line. Never throws: every failure becomes a message and exit status 2. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    if (argv[0] === 'report') return await runReport(argv.slice(1), io);
    if (argv[0] === 'import') return await runImport(argv.slice(1), io);
    return await lintCommand(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      // Option names and paths come from the command line: escape them like any untrusted text.
      io.stderr(`${TOOL_NAME}: ${escapeText(e.message)} (see ${TOOL_NAME} --help)\n`);
    } else {
      const message = e instanceof Error ? e.message : String(e);
      io.stderr(`${TOOL_NAME}: internal error: ${escapeText(message.split('\n')[0])}\n`);
    }
    return EXIT_USAGE;
  }
}

async function lintCommand(argv: string[], io: CliIo): Promise<number> {
  const opts = parseCliArgs(argv);
  if (opts.help) {
    io.stdout(helpText());
    return EXIT_OK;
  }
  if (opts.version) {
    io.stdout(`${TOOL_VERSION}\n`);
    return EXIT_OK;
  }
  if (opts.paths.length === 0) throw new UsageError('no files or folders given');

  const cwdUri = normalizeUri(fileUri(io.cwd));
  const roots: string[] = [];
  for (const p of opts.paths) {
    const uri = normalizeUri(fileUri(resolve(io.cwd, p)));
    if (!(await io.fs.stat(uri).catch(() => undefined))) throw new UsageError(`no such file or folder: ${p}`);
    roots.push(uri);
  }
  let configUri: string | undefined;
  if (opts.config !== undefined) {
    configUri = normalizeUri(fileUri(resolve(io.cwd, opts.config)));
    const st = await io.fs.stat(configUri).catch(() => undefined);
    if (st?.type !== 'file') throw new UsageError(`no such config file: ${opts.config}`);
  }

  const sarif = opts.format === 'sarif';
  const srcRootUri = sarif ? await sourceRoot(io, opts.basePath) : undefined;

  const load = () => loadWorkspace(io.fs, roots, { configUri });
  let loaded = await load();
  let diagnostics = lintIndex(loaded.index).diagnostics;
  if (opts.fix) {
    ({ loaded, diagnostics } = await fixAll(io, opts, roots, cwdUri, loaded, diagnostics, load));
  }
  const notices = printNotices(io, loaded, cwdUri);
  // A mistyped folder in CI would otherwise pass quietly, having checked nothing.
  if (loaded.index.docs.size === 0) notices.push(notice(io, 'warning', 'no LITMUS files found in the given paths'));

  const shown = opts.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
  // --quiet hides warnings from the report, not from the verdict: CI fails on what it was asked to.
  const threshold = SEVERITY_ORDER[opts.failSeverity];
  const status = diagnostics.some((d) => SEVERITY_ORDER[d.severity] >= threshold) ? EXIT_PROBLEMS : EXIT_OK;
  if (sarif) {
    const { dropped } = keptResults(shown);
    if (dropped) io.stderr(`${TOOL_NAME}: warning: ${truncationNotice(dropped)}\n`);
  }
  const ctx: FormatContext = {
    cwdUri,
    files: [...loaded.index.docs.keys()].sort(),
    toolName: TOOL_NAME,
    toolVersion: TOOL_VERSION,
    informationUri: INFORMATION_URI,
    color: opts.output === undefined && useColor(io.env, io.isTTY),
    hidden: diagnostics.length - shown.length,
    ...(sarif
      ? {
          srcRootUri,
          category: opts.category,
          notices,
          exitCode: status,
          anchor: (d) => findingAnchor(loaded.index.docs.get(d.uri), d),
        }
      : {}),
  };
  let text: string | Iterable<string>;
  try {
    text = FORMATTERS[opts.format](shown, ctx);
  } catch (e) {
    // Past the longest string V8 can build: the JSON formats are written out in pieces instead.
    const value = STREAMED[opts.format];
    if (!(e instanceof RangeError) || !value) throw e;
    text = jsonChunks(value(shown, ctx));
  }
  if (opts.output !== undefined) await io.writeFile(resolve(io.cwd, opts.output), text);
  else if (typeof text === 'string') io.stdout(text);
  else for (const chunk of text) io.stdout(chunk);
  return status;
}

/**
 * SARIF's %SRCROOT%: `--base-path`, else the nearest folder up from the working directory that
 * holds `.git` (a folder, or a file in a worktree), else the working directory. Code scanning
 * resolves result paths against the repository root, whatever folder the CLI ran in.
 */
async function sourceRoot(io: CliIo, basePath: string | undefined): Promise<string> {
  if (basePath !== undefined) {
    const uri = normalizeUri(fileUri(resolve(io.cwd, basePath)));
    if ((await io.fs.stat(uri).catch(() => undefined))?.type !== 'directory') throw new UsageError(`--base-path: no such folder: ${basePath}`);
    return uri;
  }
  for (let dir = resolve(io.cwd); ; dir = dirname(dir)) {
    if (await io.fs.stat(normalizeUri(fileUri(join(dir, '.git')))).catch(() => undefined)) return normalizeUri(fileUri(dir));
    if (dirname(dir) === dir) return normalizeUri(fileUri(io.cwd));
  }
}

type Notice = { level: 'note' | 'warning'; text: string };

/** Prints a notice on standard error and returns it for SARIF's tool execution notifications. */
function notice(io: CliIo, level: Notice['level'], text: string): Notice {
  io.stderr(`${TOOL_NAME}: ${level}: ${text}\n`);
  return { level, text };
}

/** Lints, applies the unambiguous fixes, writes the files, and lints again until nothing changes. */
async function fixAll(
  io: CliIo,
  opts: CliOptions,
  roots: string[],
  cwdUri: string,
  first: LoadResult,
  firstDiagnostics: LintDiagnostic[],
  load: () => Promise<LoadResult>,
): Promise<{ loaded: LoadResult; diagnostics: LintDiagnostic[] }> {
  // Fixes only write inside what the user named: a referenced file elsewhere is reported, not
  // edited, and so is a file inside whose symbolic links lead out (the write would land there).
  const realRoots = await Promise.all(roots.map((r) => realUriOf(io, r)));
  const realOf = new Map<string, string | undefined>();
  const writable = (uri: string) => {
    const u = normalizeUri(uri);
    if (!roots.some((r) => isUnder(u, r))) return false;
    const real = realOf.get(u);
    return real === undefined || roots.some((r) => isUnder(real, r)) || realRoots.some((r) => r !== undefined && isUnder(real, r));
  };
  const resolveDocs = async (index: LoadResult['index']) => {
    for (const uri of index.docs.keys()) if (!realOf.has(uri)) realOf.set(uri, await realUriOf(io, uri));
  };
  const done = new Set<string>();
  const applied: AppliedFix[] = [];
  const outside = new Map<string, AppliedFix>();
  const changed = new Set<string>();
  let loaded = first;
  let diagnostics = firstDiagnostics;
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    await resolveDocs(loaded.index);
    const plan = planFixes(loaded.index, diagnostics, writable, done);
    for (const o of plan.outside) outside.set(`${o.uri}:${o.line}:${o.column}:${o.title}`, o);
    if (plan.applied.length === 0) break;
    for (const [uri, text] of plan.texts) {
      await io.writeFile(uriToPath(uri), text);
      changed.add(uri);
    }
    applied.push(...plan.applied);
    loaded = await load();
    diagnostics = lintIndex(loaded.index).diagnostics;
  }
  // Machine-readable formats keep standard output to themselves.
  const say = opts.format === 'stylish' && opts.output === undefined ? io.stdout : io.stderr;
  const where = (f: AppliedFix) => `${escapeText(relPath(f.uri, cwdUri))}:${f.line}:${f.column}`;
  for (const f of applied) say(`fixed ${where(f)}  ${f.title}  (${f.rule})\n`);
  for (const f of outside.values()) io.stderr(`${TOOL_NAME}: not fixed ${where(f)}: the fix edits a file outside the given paths\n`);
  say(applied.length ? `applied ${plural(applied.length, 'fix')} in ${plural(changed.size, 'file')}\n` : 'no fixes to apply\n');
  return { loaded, diagnostics };
}

/** Where a file's symbolic links lead, when the file system knows; undefined when it cannot say. */
async function realUriOf(io: CliIo, uri: string): Promise<string | undefined> {
  if (!io.fs.realUri) return undefined;
  try {
    return normalizeUri(await io.fs.realUri(uri));
  } catch {
    return undefined;
  }
}

/** Says on standard error what was read or skipped beyond the plain lint, so nothing is silent. */
function printNotices(io: CliIo, loaded: LoadResult, cwdUri: string): Notice[] {
  const notices: Notice[] = [];
  const show = (uri: string) => escapeText(relPath(uri, cwdUri));
  const why: Record<string, string> = { config: 'the nearest litmus.config.json', harness: 'the nearest litmus.harness.json' };
  for (const uri of loaded.readOutsideRoots) {
    const kind = loaded.index.docs.get(uri)?.kind ?? 'tools';
    const reason = why[kind] ?? 'referenced by a case';
    notices.push(notice(io, 'note', `also read ${show(uri)} (${reason}), outside the given paths`));
  }
  for (const uri of loaded.linkedOutside ?? []) notices.push(notice(io, 'note', `also read ${show(uri)} through a symbolic link that leads outside the given paths`));
  for (const uri of loaded.refused) notices.push(notice(io, 'note', `not read ${show(uri)}: a symbolic link that leads outside the given paths`));
  for (const uri of loaded.skipped) notices.push(notice(io, 'note', `skipped ${show(uri)}: not a LITMUS file (by name or $schema)`));
  for (const [uri, reason] of loaded.index.readErrors) {
    // Files with a LITMUS kind get a parse-error in place; what is left is a folder or an odd entry.
    if (loaded.index.docs.has(uri)) continue;
    notices.push(notice(io, 'warning', `cannot read ${show(uri)}: ${escapeText(reason)}`));
  }
  return notices;
}
