import { createTwoFilesPatch } from 'diff';
import { dirname, join, resolve } from 'node:path';
import {
  basenameUri,
  dirnameUri,
  escapeText,
  fileUri,
  isNotUtf8,
  findSuiteRoot,
  holdGuessedRenames,
  isUnder,
  isUnsafeCodePoint,
  joinUri,
  lintIndex,
  loadWorkspace,
  neutraliseWorkflowCommands,
  neutraliseWorkflowCommandsInJson,
  normalizeUri,
  ALL_RULES,
  configDocuments,
  pluginEntries,
  RULE_IDS,
  RULES,
  SEVERITY_ORDER,
  uriToPath,
  type FileSystem,
  type LintDiagnostic,
  type LoadResult,
  type SeveritySetting,
  type SuiteRoot,
} from '../core';
import { findingAnchor, type FindingAnchor } from './anchor';
import { parseCliArgs, UsageError, type CliOptions, type FormatTarget } from './args';
import { applyBaseline, baselineEntries, mergeEntries, parseBaseline, serializeBaseline, type Baseline } from './baseline';
import { cacheFilePath, openCache, recordingFileSystem, type LintCache, type Recorded, type StoredRun } from './cache';
import { useColor } from './color';
import { resolveTargets, type Targets } from './files';
import { planFixes, type AppliedFix } from './fix';
import { relPath, plural, type FormatContext } from './format/context';
import { githubPieces } from './format/github';
import { gitlabIssues, gitlabPieces } from './format/gitlab';
import { FORMATTERS } from './format/index';
import { jsonPieces, jsonReport } from './format/json';
import { junitPieces } from './format/junit';
import { sarifLog, sarifPieces } from './format/sarif';
import { inChunks, jsonChunks } from './format/stream';
import { stylishChunks } from './format/stylish';
import { keptResults, sarifFindings, truncationNotice } from './format/sarif';
import { helpText } from './help';
import { runInit } from './init';
import type { CliIo } from './io';
import { runImport } from './import';
import { runReport } from './report';
import { applyRuleOptions, parseRuleOptions } from './rule-options';
import { terminalWidth } from './terminal';
import { startTimes, timingRows, timingTable } from './timing';
import { INFORMATION_URI, TOOL_NAME, TOOL_VERSION } from './version';
import { loadPlugins, pluginScope, type LoadedPlugins } from '../node/plugins';

/**
 * The formats whose report is a JSON value, which can be written out in pieces when it is huge
 * (SARIF compact, JSON pretty-printed, as each is written whole).
 */
const STREAMED: Record<string, { value: (diagnostics: readonly LintDiagnostic[], ctx: FormatContext) => unknown; pretty: boolean } | undefined> = {
  json: { value: jsonReport, pretty: true },
  sarif: { value: sarifLog, pretty: false },
  gitlab: { value: gitlabIssues, pretty: true },
};

/**
 * The formats written as they are made, each fitted to the output budget, in chunks of about 32 K
 * characters (a JUnit test case or a GitHub annotation alone would be a write each).
 */
const PIECES: Record<string, ((diagnostics: readonly LintDiagnostic[], ctx: FormatContext) => Iterable<string>) | undefined> = {
  json: jsonPieces,
  sarif: sarifPieces,
  gitlab: gitlabPieces,
  junit: (diagnostics, ctx) => inChunks(junitPieces(diagnostics, ctx)),
  github: (diagnostics, ctx) => inChunks(githubPieces(diagnostics, ctx)),
};

/** Formats for people; every other is read by a program (and keeps every finding: hints, suppressed ones). */
const HUMAN_FORMATS = new Set(['stylish']);

/** `--fix` stops after this many lint-and-fix passes, whatever remains. */
const MAX_FIX_PASSES = 10;

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

/**
 * Runs one command line. Never throws: every failure becomes a message and exit status 2. Messages
 * on standard error quote suite text (file names, ids): none may read as a GitHub Actions workflow
 * command in a CI log, so the commands get a `stderr` that neutralises them (src/core/text/workflow.ts).
 */
export async function runCli(argv: string[], raw: CliIo): Promise<number> {
  const io: CliIo = { ...raw, stderr: (text) => raw.stderr(neutraliseWorkflowCommands(text)), reportStderr: raw.reportStderr ?? raw.stderr };
  try {
    if (argv[0] === 'report') return await runReport(argv.slice(1), io);
    if (argv[0] === 'init') return await runInit(argv.slice(1), io);
    if (argv[0] === 'import') return await runImport(argv.slice(1), io);
    return await lintCommand(argv, io);
  } catch (e) {
    if (e instanceof WriteError || e instanceof InputError) {
      io.stderr(`${TOOL_NAME}: ${escapeText(e.message)}\n`);
    } else if (e instanceof PluginError) {
      // Each line was escaped as it was built; the module's own message may carry suite text.
      io.stderr(`${TOOL_NAME}: ${e.message}\n`);
    } else if (e instanceof UsageError) {
      // Option names and paths come from the command line: escape them like any untrusted text.
      io.stderr(`${TOOL_NAME}: ${escapeText(e.message)} (see ${TOOL_NAME} --help)\n`);
    } else {
      const message = e instanceof Error ? e.message : String(e);
      io.stderr(`${TOOL_NAME}: internal error: ${escapeText(message.split('\n')[0])}\n`);
    }
    return EXIT_USAGE;
  }
}

/** A file the run was asked to write could not be: one line, exit status 2. */
class WriteError extends Error {}
/** Input the run cannot take as it is (standard input that is not UTF-8): one line, exit status 2. */
class InputError extends Error {}

async function writeOut(io: CliIo, path: string, text: string | Iterable<string>, what: string): Promise<void> {
  try {
    await io.writeFile(path, text);
  } catch (e) {
    throw writeError(e, what, path);
  }
}

function writeError(e: unknown, what: string, path: string): WriteError {
  const code = (e as { code?: string })?.code;
  return new WriteError(`cannot write ${what} ${path}: ${code ?? (e instanceof Error ? e.message.split('\n')[0] : String(e))}`);
}

/**
 * Writes the fixed files, each only if it still holds the text the fixes were made from. A file an
 * editor saved while the lint ran keeps that save: it is named, and returned, so the report shows
 * it as it is on disk. Anything else that stops a write ends the run (exit status 2).
 */
async function writeFixed(io: CliIo, outcome: FixOutcome): Promise<Map<string, string>> {
  const kept = new Map<string, string>();
  for (const [uri, text] of outcome.texts) {
    const path = uriToPath(uri);
    try {
      await io.writeFile(path, text, { expect: outcome.originals.get(uri) });
    } catch (e) {
      if ((e as { code?: string })?.code !== 'ECHANGED') throw writeError(e, 'the fixed file', path);
      const why = (e as { why?: string }).why ?? 'changed on disk while the lint ran';
      kept.set(uri, why);
    }
  }
  return kept;
}

/** What one lint reads and may change, whether the files come from disk or from standard input. */
interface Session {
  fs: FileSystem;
  roots: string[];
  /** Files a fix may write (or, with --stdin, the one buffer). */
  writable: (uri: string) => boolean;
  /** Files whose findings are reported: what was named, not the rest of its suite. */
  reports: (uri: string) => boolean;
  /** Files read in a suite that was guessed (see Targets.guessedContext). */
  guessed: (uri: string) => boolean;
  /** Suites read beyond the folders named, said in a note. */
  widened: SuiteRoot[];
  /** --stdin: the buffer's URI, the one file reported. */
  stdinUri?: string;
  stdinText?: string;
  /** Checks what can only be known once the files are read (a glob that matched nothing). */
  afterLoad?: () => Promise<void>;
}

/**
 * A question about a file asked once per file: the session asks it of every finding (thousands in
 * one file), and each answer walks the named folders and globs.
 */
function perUri(answer: (uri: string) => boolean): (uri: string) => boolean {
  const known = new Map<string, boolean>();
  return (uri) => {
    let a = known.get(uri);
    if (a === undefined) known.set(uri, (a = answer(uri)));
    return a;
  };
}

/** What the reports need beyond the diagnostics, decided before anything is linted. */
interface ReportSetup {
  /** SARIF's %SRCROOT%, when a SARIF report is asked for. */
  srcRootUri?: string;
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
  const ruleOptions = parseRuleOptions(opts.rules);
  const cwdUri = normalizeUri(fileUri(io.cwd));
  let configUri: string | undefined;
  if (opts.config !== undefined) {
    configUri = normalizeUri(fileUri(resolve(io.cwd, opts.config)));
    const st = await io.fs.stat(configUri).catch(() => undefined);
    if (st?.type !== 'file') throw new UsageError(`no such config file: ${opts.config}`);
  }
  if (opts.printConfig !== undefined) return printConfig(io, opts.printConfig, configUri, ruleOptions, cwdUri);
  const warn = (text: string) => io.stderr(`${TOOL_NAME}: warning: ${text}\n`);
  const show = (uri: string) => escapeText(relPath(uri, cwdUri));
  // A bad --base-path is a usage error before anything is read or fixed.
  const setup: ReportSetup = { srcRootUri: opts.formats.some((t) => t.format === 'sarif') ? await sourceRoot(io, opts.basePath) : undefined };

  let session: Session;
  if (opts.stdin) {
    if (opts.stdinFilename === undefined) throw new UsageError('--stdin needs --stdin-filename PATH: the name decides the file\'s kind and which config applies');
    const stdinUri = normalizeUri(fileUri(resolve(io.cwd, opts.stdinFilename)));
    const text = (await readStdin(io)).replace(/^\ufeff/, '');
    // The buffer is linted in its suite, as the file on disk would be.
    const suite = await findSuiteRoot(io.fs, stdinUri, false);
    const suiteThere = (await io.fs.stat(suite.uri).catch(() => undefined))?.type === 'directory';
    const targets = await resolveTargets(io.fs, { cwd: io.cwd, paths: suiteThere ? [uriToPath(suite.uri)] : [], ignorePatterns: opts.ignorePatterns, ignore: opts.ignore, warn });
    if (targets.ignored(stdinUri)) {
      warn(`${show(stdinUri)}: File ignored because of a matching ignore pattern; use --no-ignore to lint it`);
      // An editor that pipes a buffer through --fix gets it back unchanged, never nothing.
      if (opts.fix) io.stdout(text);
      return EXIT_OK;
    }
    session = {
      fs: withBuffer(targets.fs, stdinUri, text),
      roots: suiteThere ? targets.roots : [stdinUri],
      writable: (uri) => normalizeUri(uri) === stdinUri,
      reports: (uri) => uri === stdinUri,
      guessed: () => !suite.marker,
      widened: [],
      stdinUri,
      stdinText: text,
    };
  } else {
    if (opts.paths.length === 0) throw new UsageError('no files or folders given');
    const targets: Targets = await resolveTargets(io.fs, { cwd: io.cwd, paths: opts.paths, ignorePatterns: opts.ignorePatterns, ignore: opts.ignore, warn });
    for (const uri of targets.ignoredExplicit) warn(`${show(uri)}: File ignored because of a matching ignore pattern; use --no-ignore to lint it`);
    session = {
      fs: targets.fs,
      roots: targets.roots,
      writable: (uri) => targets.selected(normalizeUri(uri)),
      // A --config file was named too: a broken one must not pass in silence.
      reports: perUri((uri) => targets.selected(uri) || uri === configUri),
      guessed: perUri((uri) => targets.guessedContext(uri)),
      widened: targets.widened,
    };
    if (session.roots.length === 0) {
      // Every path named was ignored: nothing to read, and nothing to fail on.
      const ctx = emptyContext(cwdUri, []);
      ctx.notices = [nothingFound(io)];
      return finishReports(io, opts, [], ctx, setup);
    }
    session.afterLoad = async () => {
      const [first] = await targets.unmatchedGlobs();
      if (first?.ignored) throw new UsageError(`all LITMUS files matching the pattern '${first.pattern}' are ignored (use --no-ignore to lint them)`);
      if (first) throw new UsageError(`no LITMUS files match the pattern '${first.pattern}'`);
    };
  }
  return lintSession(io, opts, session, cwdUri, ruleOptions, configUri, setup);
}

/**
 * Standard input as text. Bytes that are not UTF-8 stop the run: read lossily, an editor piping a
 * buffer through --fix would get every bad byte back as U+FFFD.
 */
async function readStdin(io: CliIo): Promise<string> {
  try {
    return (await io.readStdin?.()) ?? '';
  } catch (e) {
    if (isNotUtf8(e)) throw new InputError(`standard input is ${e.reason}; nothing was linted or fixed (LITMUS files are UTF-8)`);
    throw e;
  }
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

/** Prints a notice on standard error (a note not with `--quiet`) and returns it for SARIF's tool execution notifications. */
function notice(io: CliIo, level: Notice['level'], text: string, quiet = false): Notice {
  if (!(quiet && level === 'note')) io.stderr(`${TOOL_NAME}: ${level}: ${text}\n`);
  return { level, text };
}

/** The file system with one file's text replaced by (or, when it is not on disk, added as) a buffer. */
function withBuffer(fs: FileSystem, uri: string, text: string): FileSystem {
  const folder = normalizeUri(dirnameUri(uri));
  const name = basenameUri(uri);
  return {
    readFile: async (u) => (normalizeUri(u) === uri ? text : fs.readFile(u)),
    stat: async (u) => (normalizeUri(u) === uri ? { type: 'file', size: text.length } : fs.stat(u)),
    ...(fs.realUri ? { realUri: fs.realUri.bind(fs) } : {}),
    async readDirectory(u) {
      const entries = await fs.readDirectory(u);
      if (normalizeUri(u) !== folder || entries.some(([n]) => n === name)) return entries;
      return [...entries, [name, 'file']];
    },
  };
}

async function lintSession(
  io: CliIo,
  opts: CliOptions,
  session: Session,
  cwdUri: string,
  ruleOptions: Record<string, SeveritySetting>,
  configUri: string | undefined,
  setup: ReportSetup,
): Promise<number> {
  // Fixed texts between --fix passes: they win over the files, which are written once at the end.
  const overlays = new Map<string, { text: string }>();
  const warn = (text: string) => io.stderr(`${TOOL_NAME}: warning: ${text}\n`);
  const baseline = opts.baseline === undefined ? undefined : await readBaseline(io, opts.baseline);
  let cache: LintCache | undefined;
  let reads: Recorded | undefined;
  // `TIMING` (as ESLint's): each rule's time over every lint of this run, on standard error at the end.
  const timingRowCount = timingRows(io.env.TIMING);
  const times = timingRowCount === undefined ? undefined : startTimes();
  const printTimes = (code: number) => {
    if (times && timingRowCount !== undefined) io.stderr(timingTable(times, timingRowCount, cache?.hits ? 'the cache answered' : undefined));
    return code;
  };
  // A plain run (no fix, no baseline, no buffer) may be answered from the cache before anything is parsed.
  const plainRun = !opts.fix && !opts.fixDryRun && opts.baseline === undefined && opts.writeBaseline === undefined && !session.stdinUri;
  const context = JSON.stringify([cwdUri, opts.paths, opts.ignorePatterns, opts.ignore, configUri ?? null]);
  const needAnchors = opts.formats.some((t) => t.format === 'sarif' || t.format === 'gitlab');
  if (opts.cache) {
    cache = await openCache(io, await cacheFilePath(io, opts.cacheLocation), ruleOptions, warn, opts.inlineConfig);
    const recalled = plainRun ? await cache.recall(session.fs, context, needAnchors) : undefined;
    if (recalled) return printTimes(await reportRecalled(io, opts, session, cwdUri, setup, cache, recalled));
    const recording = recordingFileSystem(session.fs);
    session.fs = recording.fs;
    reads = recording;
  }
  const load = async () => {
    reads?.log.clear();
    reads?.texts.clear();
    const loaded = await loadWorkspace(session.fs, session.roots, { configUri, overlays });
    applyRuleOptions(loaded.index, ruleOptions);
    return loaded;
  };
  // Findings in-source suppressions accept come back marked (to be shown as such, never counted);
  // those of the last lint are kept here, beside what counts, which is all the rest of the run sees.
  let suppressed: LintDiagnostic[] = [];
  // Custom rules from the configs' `plugins` (docs/plugins.md), loaded once the configs are read.
  let plugins: LoadedPlugins | undefined;
  const lint = (loaded: LoadResult) => {
    const extra = plugins?.rules.length ? plugins : undefined;
    const run = () => {
      const diagnostics = lintIndex(loaded.index, { keepSuppressed: true, inlineConfig: opts.inlineConfig, times, ...(extra ? { rules: [...ALL_RULES, ...extra.rules] } : {}) }).diagnostics;
      return extra ? diagnostics.filter(pluginScope(extra, loaded.index)) : diagnostics;
    };
    // A plugin's result depends on code the cache cannot see: such runs are never stored.
    const all = (cache && !extra ? cache.lint(loaded.index, run, reads) : run()).map((d) => (session.guessed(d.uri) ? holdGuessedRenames(d) : d));
    suppressed = all.filter((d) => d.suppressions);
    return suppressed.length ? all.filter((d) => !d.suppressions) : all;
  };

  let loaded = await load();
  await session.afterLoad?.();
  plugins = await settlePlugins(io, opts, loaded, cwdUri);
  if (session.stdinUri && !loaded.index.docs.has(session.stdinUri)) {
    notice(io, 'note', `skipped ${escapeText(relPath(session.stdinUri, cwdUri))}: not a LITMUS file (by name or $schema)`, opts.quiet);
  }
  let diagnostics = lint(loaded);
  let fixed: Map<string, string> | undefined;
  if (opts.fix || opts.fixDryRun) {
    const outcome = await fixLoop(loaded, diagnostics, load, lint, overlays, session.writable, io, session.roots);
    ({ loaded, diagnostics } = outcome);
    const settled = await settleFixes(io, opts, session, cwdUri, outcome);
    fixed = settled.shown;
    if (settled.kept.size) {
      // What the report says of a file left as it is must be what is on disk now, not the fixed text.
      for (const uri of settled.kept.keys()) overlays.delete(uri);
      loaded = await load();
      diagnostics = lint(loaded);
    }
  }
  const notices = printNotices(io, loaded, cwdUri, session.stdinUri !== undefined, opts.quiet);
  const files = [...loaded.index.docs.keys()];
  let inputSize = 0;
  for (const doc of loaded.index.docs.values()) inputSize += doc.text.length;
  // Where each finding sits by case and JSON path: SARIF's and GitLab's fingerprints.
  const index = loaded.index;
  const anchor = (d: LintDiagnostic) => findingAnchor(index.docs.get(d.uri), d);
  // Plugins' notes are printed as they load, so a run that names any is never answered from the cache.
  if (plainRun && !configDocuments(index).some((d) => pluginEntries(d).length)) {
    cache?.keepRun(context, { files, notices: [...notices], inputSize }, needAnchors ? anchor : undefined);
  }
  const settle = async (reported: LintDiagnostic[]): Promise<LintDiagnostic[]> => {
    if (opts.writeBaseline !== undefined) {
      const path = resolve(io.cwd, opts.writeBaseline);
      const uri = normalizeUri(fileUri(path));
      const fresh = baselineEntries(index, reported, uri);
      const { entries, kept } = mergeEntries(fresh, await earlierBaseline(io, uri, opts.writeBaseline, warn), uri, session.reports);
      await writeOut(io, path, serializeBaseline(entries), 'the baseline');
      const also = kept ? ` (and kept ${plural(kept, 'entry', 'entries')} of files not linted)` : '';
      io.stderr(`${TOOL_NAME}: wrote ${plural(fresh.length, 'finding')} to the baseline ${escapeText(relPath(fileUri(path), cwdUri))}${also}\n`);
      return [];
    }
    if (!baseline) return reported;
    const result = applyBaseline(index, reported, baseline.value, baseline.uri, session.reports);
    const parts = [`${plural(result.accepted, 'finding')} accepted by the baseline`];
    if (result.unmatched) parts.push(`${plural(result.unmatched, 'entry', 'entries')} of it no longer ${result.unmatched === 1 ? 'matches' : 'match'} (rewrite it with --write-baseline)`);
    // Not stale, only not looked at: rewriting the baseline for them would be wrong advice.
    if (result.unchecked) parts.push(`${plural(result.unchecked, 'entry', 'entries')} of files not linted ${result.unchecked === 1 ? 'was' : 'were'} not checked`);
    notice(io, 'note', parts.join('; '), opts.quiet);
    return result.kept;
  };
  const code = await finishSession(io, opts, session, cwdUri, setup, cache, {
    files,
    notices,
    diagnostics,
    suppressed,
    fixed,
    inputSize,
    anchor,
    extraRules: plugins?.rules.map((r) => r.meta),
    settle,
  });
  return printTimes(code);
}

/** What a lint (or the cache) hands the report. */
interface SessionOutcome {
  /** Every document the lint held; the report names those the paths select. */
  files: string[];
  /** Notices printed so far, for SARIF's tool execution notifications. */
  notices: Notice[];
  /** The findings that count, and those in-source suppressions accept. */
  diagnostics: LintDiagnostic[];
  suppressed: LintDiagnostic[];
  fixed?: Map<string, string>;
  inputSize: number;
  anchor: FormatContext['anchor'];
  extraRules?: FormatContext['extraRules'];
  /** Baselines: written (nothing is left to report) or applied (what it accepts is not). */
  settle?: (reported: LintDiagnostic[]) => Promise<LintDiagnostic[]>;
}

async function finishSession(io: CliIo, opts: CliOptions, session: Session, cwdUri: string, setup: ReportSetup, cache: LintCache | undefined, outcome: SessionOutcome): Promise<number> {
  const notices = outcome.notices;
  for (const suite of session.widened) notices.push(notice(io, 'note', suiteNote(suite, cwdUri), opts.quiet));
  // Reported: the files named (or reached by walking what was named), never the rest of the suite.
  const files = outcome.files.filter((u) => session.reports(u)).sort();
  // A mistyped folder in CI would otherwise pass quietly, having checked nothing.
  if ((session.stdinUri ? outcome.files.length : files.length) === 0) notices.push(nothingFound(io));

  const reported = outcome.diagnostics.filter((d) => session.reports(d.uri));
  const kept = outcome.settle ? await outcome.settle(reported) : reported;
  await cache?.save();

  const ctx = emptyContext(cwdUri, files);
  ctx.fixed = outcome.fixed;
  ctx.notices = notices;
  ctx.suppressed = opts.writeBaseline !== undefined ? [] : outcome.suppressed.filter((d) => session.reports(d.uri));
  ctx.inputSize = outcome.inputSize;
  ctx.anchor = outcome.anchor;
  ctx.extraRules = outcome.extraRules;
  return finishReports(io, opts, kept, ctx, setup);
}

/**
 * A run the cache answered: the stored findings and notices, reported as a lint would report
 * them. Only plain runs get here, so there is no fix, baseline or buffer to settle.
 */
function reportRecalled(io: CliIo, opts: CliOptions, session: Session, cwdUri: string, setup: ReportSetup, cache: LintCache, recalled: { diagnostics: LintDiagnostic[]; run: StoredRun }): Promise<number> {
  const { run } = recalled;
  const all = recalled.diagnostics.map((d) => (session.guessed(d.uri) ? holdGuessedRenames(d) : d));
  const anchors = new Map<LintDiagnostic, FindingAnchor>();
  if (run.anchors) all.forEach((d, i) => anchors.set(d, run.anchors![i]));
  return finishSession(io, opts, session, cwdUri, setup, cache, {
    files: run.files,
    notices: run.notices.map((n) => notice(io, n.level, n.text, opts.quiet)),
    diagnostics: all.filter((d) => !d.suppressions),
    suppressed: all.filter((d) => d.suppressions),
    inputSize: run.inputSize,
    anchor: (d) => anchors.get(d) ?? { path: [], line: d.range.start.line },
  });
}

/** A plugin that cannot be loaded: the run stops (status 2), as ESLint stops on a missing plugin. */
class PluginError extends Error {}

/**
 * Loads the plugins the configs name, unless `--no-plugins` (then says which were not loaded). A
 * plugin that cannot be loaded, or exports something that is not a rule, stops the run: findings
 * without the rules a suite asked for would pass CI for the wrong reason.
 */
async function settlePlugins(io: CliIo, opts: CliOptions, loaded: LoadResult, cwdUri: string): Promise<LoadedPlugins | undefined> {
  const named = configDocuments(loaded.index).filter((d) => pluginEntries(d).length);
  if (!named.length) return undefined;
  const show = (uri: string) => escapeText(relPath(uri, cwdUri));
  if (!opts.plugins) {
    for (const d of named) io.stderr(`${TOOL_NAME}: note: plugins named in ${show(d.uri)} not loaded (--no-plugins): ${pluginEntries(d).map((e) => escapeText(e.specifier)).join(', ')}\n`);
    return undefined;
  }
  const plugins = await loadPlugins(loaded.index);
  if (plugins.problems.length) {
    throw new PluginError(plugins.problems.map((p) => `${show(p.configUri)}: plugins[${p.index}]: ${escapeText(p.message, 300)}`).join(`\n${TOOL_NAME}: `));
  }
  return plugins;
}

/**
 * Does what the fix mode asks with the fixed texts (writes the files, prints the buffer, or
 * keeps them for the report), then says what was fixed. Returns the texts `--fix-dry-run` shows.
 */
async function settleFixes(
  io: CliIo,
  opts: CliOptions,
  session: Session,
  cwdUri: string,
  outcome: FixOutcome,
): Promise<{ shown?: Map<string, string>; kept: Map<string, string> }> {
  const dryRun = opts.fixDryRun;
  const kept = !dryRun && !session.stdinUri ? await writeFixed(io, outcome) : new Map<string, string>();
  // Machine-readable formats (and, with --stdin --fix, the fixed text) keep standard output to themselves.
  const toStdout = opts.formats.find((t) => t.output === undefined)?.format === 'stylish' && !(opts.stdin && opts.fix);
  // These lines quote suite text (file names, fix titles, diff lines): none may read as a workflow command.
  const say = toStdout ? (text: string) => io.stdout(neutraliseWorkflowCommands(text)) : io.stderr;
  const where = (f: AppliedFix) => `${escapeText(relPath(f.uri, cwdUri))}:${f.line}:${f.column}`;
  const applied = outcome.applied.filter((f) => !kept.has(f.uri));
  if (!dryRun || toStdout) for (const f of applied) say(`${dryRun ? 'would fix' : 'fixed'} ${where(f)}  ${f.title}  (${f.rule})\n`);
  for (const f of outcome.outside) io.stderr(`${TOOL_NAME}: not fixed ${where(f)}: the fix edits a file outside the given paths\n`);
  for (const [uri, why] of kept) {
    const n = outcome.applied.filter((f) => f.uri === uri).length;
    io.stderr(`${TOOL_NAME}: warning: not fixed ${escapeText(relPath(uri, cwdUri))}: it ${escapeText(why)}, so it was left as it is now (${plural(n, 'fix')} not applied); run --fix again\n`);
  }
  if (dryRun && toStdout) {
    for (const [uri, text] of outcome.texts) say(unifiedDiff(relPath(uri, cwdUri), outcome.originals.get(uri) ?? '', text));
  }
  const files = plural(outcome.texts.size - kept.size, 'file');
  const fixes = plural(applied.length, 'fix');
  if (applied.length || !kept.size) say(!applied.length ? 'no fixes to apply\n' : dryRun ? `would apply ${fixes} in ${files} (nothing written: --fix-dry-run)\n` : `applied ${fixes} in ${files}\n`);
  if (dryRun) return { shown: outcome.texts, kept };
  if (session.stdinUri) io.stdout(outcome.texts.get(session.stdinUri) ?? session.stdinText ?? '');
  return { kept };
}

/** The `--baseline` file, read before anything is linted: a bad one is a usage error. */
async function readBaseline(io: CliIo, file: string): Promise<{ uri: string; value: Baseline }> {
  const uri = normalizeUri(fileUri(resolve(io.cwd, file)));
  let text: string;
  try {
    text = await io.fs.readFile(uri);
  } catch {
    throw new UsageError(`no such baseline file: ${file} (write one with --write-baseline)`);
  }
  const value = parseBaseline(text);
  if (typeof value === 'string') throw new UsageError(`--baseline ${file}: ${value}`);
  return { uri, value };
}

/**
 * The baseline `--write-baseline` replaces, whose entries for files this run does not lint are
 * kept. None when there is no such file; one that is not a baseline is written anew, with a warning.
 */
async function earlierBaseline(io: CliIo, uri: string, file: string, warn: (text: string) => void): Promise<Baseline | undefined> {
  let text: string;
  try {
    text = await io.fs.readFile(uri);
  } catch {
    return undefined;
  }
  const value = parseBaseline(text);
  if (typeof value !== 'string') return value;
  warn(`--write-baseline ${escapeText(file)}: the file there is not a baseline (${value}); writing it anew`);
  return undefined;
}

function emptyContext(cwdUri: string, files: string[]): FormatContext {
  return { cwdUri, files, toolName: TOOL_NAME, toolVersion: TOOL_VERSION, informationUri: INFORMATION_URI, color: false, hidden: 0 };
}

/** Says that a suite was read beyond what was named, and why there: the rule users can predict. */
function suiteNote(suite: SuiteRoot, cwdUri: string): string {
  const where = escapeText(relPath(suite.uri, cwdUri) || '.');
  const why =
    suite.marker === 'litmus.config.json' ? 'the outermost folder with a litmus.config.json'
    : suite.marker === '.git' ? 'the repository root: no litmus.config.json on the way up'
    : 'no litmus.config.json or .git above it';
  return `linted with its suite in ${where}/ (${why}); findings are reported for the given paths only`;
}

function nothingFound(io: CliIo): Notice {
  return notice(io, 'warning', 'no LITMUS files found in the given paths');
}

/** Writes every requested report, then decides the exit status. */
async function finishReports(io: CliIo, opts: CliOptions, diagnostics: LintDiagnostic[], base: FormatContext, setup: ReportSetup): Promise<number> {
  const shown = opts.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
  if (opts.quiet && base.suppressed?.length) base = { ...base, suppressed: base.suppressed.filter((d) => d.severity === 'error') };
  // --quiet hides warnings from the report, not from the verdict: CI fails on what it was asked to.
  const threshold = SEVERITY_ORDER[opts.failSeverity];
  let status = diagnostics.some((d) => SEVERITY_ORDER[d.severity] >= threshold) ? EXIT_PROBLEMS : EXIT_OK;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  const tooMany = opts.maxWarnings !== undefined && warnings > opts.maxWarnings;
  if (tooMany) status = EXIT_PROBLEMS;
  // Decided before any report is written, so a report can carry the run's exit status.
  const colour = opts.color ?? useColor(io.env, io.isTTY);
  // A formatter may be run twice (a report too long for one string is streamed): say each thing once.
  const said = new Set<string>();
  const warn = (text: string) => {
    if (!said.has(text)) io.stderr(`${TOOL_NAME}: warning: ${text}\n`);
    said.add(text);
  };
  for (const target of opts.formats) {
    const toTerminal = target.output === undefined;
    const ctx: FormatContext = {
      ...base,
      color: toTerminal && colour,
      hidden: diagnostics.length - shown.length,
      // A file or a pipe is laid out for COLUMNS or 80 columns; a terminal for its own width.
      width: terminalWidth(io.env, toTerminal && io.isTTY ? io.columns : undefined),
      showHints: opts.hints,
      warn,
    };
    if (target.format === 'sarif') {
      Object.assign(ctx, { srcRootUri: setup.srcRootUri, category: opts.category, exitCode: status });
      const { dropped } = keptResults(sarifFindings(shown, ctx));
      if (dropped) warn(truncationNotice(dropped));
    }
    let text: string | Iterable<string>;
    if (HUMAN_FORMATS.has(target.format)) {
      // Written as it is made: a `--hints` run over a million hints never builds one string.
      text = stylishChunks(shown, ctx);
    } else {
      try {
        // Every machine format is written in pieces: a report of 100,000 files never becomes one string.
        const pieces = PIECES[target.format];
        text = pieces ? begun(pieces(shown, ctx)) : FORMATTERS[target.format](shown, ctx);
      } catch (e) {
        // Past the longest string V8 can build: the JSON formats are written out in pieces instead.
        const streamed = STREAMED[target.format];
        if (!(e instanceof RangeError) || !streamed) throw e;
        text = mapChunks(jsonChunks(streamed.value(shown, ctx), streamed.pretty), neutraliseWorkflowCommandsInJson);
      }
    }
    await emit(io, opts, target, text);
  }
  if (tooMany) io.stderr(`${TOOL_NAME}: too many warnings (${warnings}); the maximum is ${opts.maxWarnings} (--max-warnings)\n`);
  return status;
}

/**
 * The pieces, the first of them made now: a report is measured whole before its first piece comes,
 * so one that cannot be made fails here, where the rendering falls back, not halfway through writing.
 */
function begun(pieces: Iterable<string>): Iterable<string> {
  const rest = pieces[Symbol.iterator]();
  const first = rest.next();
  return (function* () {
    if (first.done) return;
    yield first.value;
    for (let next = rest.next(); !next.done; next = rest.next()) yield next.value;
  })();
}

function* mapChunks(chunks: Iterable<string>, f: (chunk: string) => string): Generator<string> {
  for (const chunk of chunks) yield f(chunk);
}

async function emit(io: CliIo, opts: CliOptions, target: FormatTarget, text: string | Iterable<string>): Promise<void> {
  if (target.output !== undefined) return writeOut(io, resolve(io.cwd, target.output), text, `the ${target.format} report`);
  // With --stdin --fix, standard output carries the fixed text; the report goes beside it, as it is.
  const out = opts.stdin && opts.fix ? (io.reportStderr ?? io.stderr) : io.stdout;
  // A piece waits only when the one before it was queued (CliIo.stdout).
  if (typeof text === 'string') await out(text);
  else for (const chunk of text) await out(chunk);
}

function unifiedDiff(path: string, before: string, after: string): string {
  const name = escapeText(path);
  const patch = createTwoFilesPatch(`a/${name}`, `b/${name}`, before, after, '', '', { context: 3 });
  // The lines are the suite's own text: a hostile one must not drive the terminal (tabs stay, and a
  // CRLF file's line ends are dropped, not shown).
  return patch
    .replace(/^=+\n/, '')
    .replace(/\t\n/g, '\n')
    .split('\n')
    .map((line) => terminalSafe(line.replace(/\r$/, '')))
    .join('\n');
}

function terminalSafe(line: string): string {
  let out = '';
  for (const ch of line) {
    const cp = ch.codePointAt(0)!;
    out += cp !== 9 && isUnsafeCodePoint(cp) ? `\\u{${cp.toString(16).toUpperCase()}}` : ch;
  }
  return out;
}

interface FixOutcome {
  loaded: LoadResult;
  diagnostics: LintDiagnostic[];
  applied: AppliedFix[];
  outside: AppliedFix[];
  /** The final text of every file a fix changed. */
  texts: Map<string, string>;
  /** Their texts before the first fix. */
  originals: Map<string, string>;
}

/**
 * Lints, applies the unambiguous fixes in memory, and lints again until nothing changes. Nothing is
 * written here: `--fix` writes the final texts, `--fix-dry-run` shows them, `--stdin` prints one.
 */
async function fixLoop(
  first: LoadResult,
  firstDiagnostics: LintDiagnostic[],
  load: () => Promise<LoadResult>,
  lint: (loaded: LoadResult) => LintDiagnostic[],
  overlays: Map<string, { text: string }>,
  selected: (uri: string) => boolean,
  io: CliIo,
  roots: string[],
): Promise<FixOutcome> {
  // Fixes only write inside what the user selected, and not into a file there whose symbolic
  // links lead out (the write would land outside): a referenced file elsewhere is reported instead.
  const realRoots = await Promise.all(roots.map((r) => realUriOf(io, r)));
  const realOf = new Map<string, string | undefined>();
  const writable = (uri: string) => {
    const u = normalizeUri(uri);
    if (!selected(u)) return false;
    const real = realOf.get(u);
    return real === undefined || roots.some((r) => isUnder(real, r)) || realRoots.some((r) => r !== undefined && isUnder(real, r));
  };
  const resolveDocs = async (index: LoadResult['index']) => {
    for (const uri of index.docs.keys()) if (!realOf.has(uri)) realOf.set(uri, await realUriOf(io, uri));
  };
  const done = new Set<string>();
  const applied: AppliedFix[] = [];
  const outside = new Map<string, AppliedFix>();
  const texts = new Map<string, string>();
  const originals = new Map<string, string>();
  let loaded = first;
  let diagnostics = firstDiagnostics;
  for (let pass = 0; pass < MAX_FIX_PASSES; pass++) {
    await resolveDocs(loaded.index);
    await resolveDocs(loaded.index);
    const plan = planFixes(loaded.index, diagnostics, writable, done);
    for (const o of plan.outside) outside.set(`${o.uri}:${o.line}:${o.column}:${o.title}`, o);
    if (plan.applied.length === 0) break;
    for (const [uri, text] of plan.texts) {
      if (!originals.has(uri)) originals.set(uri, loaded.index.docs.get(uri)?.text ?? '');
      texts.set(uri, text);
      overlays.set(uri, { text });
    }
    for (const change of plan.applied) applied.push(change);
    loaded = await load();
    diagnostics = lint(loaded);
  }
  for (const [uri, text] of [...texts]) if (originals.get(uri) === text) texts.delete(uri);
  return { loaded, diagnostics, applied, outside: [...outside.values()], texts, originals };
}

/**
 * `--print-config FILE`: the config that applies to FILE (the nearest litmus.config.json, or
 * --config, with --rule on top), every rule's severity spelled out, as JSON. FILE need not exist.
 */
async function printConfig(io: CliIo, file: string, configUri: string | undefined, ruleOptions: Record<string, SeveritySetting>, cwdUri: string): Promise<number> {
  const target = normalizeUri(fileUri(resolve(io.cwd, file)));
  // Config is found up the tree from the files loaded: one stand-in file beside FILE is enough.
  const probe = normalizeUri(joinUri(dirnameUri(target), '.litmus-print-config.litmus.json'));
  const fs: FileSystem = {
    readFile: async (u) => (normalizeUri(u) === probe ? '{}' : io.fs.readFile(u)),
    stat: async (u) => (normalizeUri(u) === probe ? { type: 'file', size: 2 } : io.fs.stat(u)),
    readDirectory: (u) => io.fs.readDirectory(u),
  };
  const loaded = await loadWorkspace(fs, [probe], { configUri });
  applyRuleOptions(loaded.index, ruleOptions);
  const config = loaded.index.configFor(target);
  const rules: Record<string, SeveritySetting> = {};
  for (const id of RULE_IDS) rules[id] = config.rules[id] ?? RULES.get(id)!.defaultSeverity;
  for (const [id, sev] of Object.entries(config.rules)) if (!(id in rules)) rules[id] = sev;
  const out = { ...config, rules, source: config.source ? relPath(config.source, cwdUri) : null };
  // A config that does not parse applies nothing: without a word, `"source": null` would read as
  // "no config here" rather than "your config is broken".
  const applying = configUri ?? nearestConfig(loaded.index, target);
  const broken = applying === undefined ? undefined : loaded.index.docs.get(applying);
  if (applying !== undefined && (loaded.index.readErrors.has(applying) || (broken?.parsed.issues.length ?? 0) > 0)) {
    io.stderr(`${TOOL_NAME}: warning: ${escapeText(relPath(applying, cwdUri))} cannot be read as JSON, so none of its settings apply; lint it to see why\n`);
  }
  io.stdout(JSON.stringify(out, null, 2) + '\n');
  return EXIT_OK;
}

/** The litmus.config.json nearest above `uri` that the load read, if any. */
function nearestConfig(index: LoadResult['index'], uri: string): string | undefined {
  let dir = normalizeUri(dirnameUri(uri));
  for (;;) {
    const candidate = normalizeUri(joinUri(dir, 'litmus.config.json'));
    if (index.docs.get(candidate)?.kind === 'config' || index.readErrors.has(candidate)) return candidate;
    const parent = normalizeUri(dirnameUri(dir));
    if (parent === dir) return undefined;
    dir = parent;
  }
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

/** Says on standard error what was read or skipped beyond the plain lint, so nothing is silent (notes not with `--quiet`). */
function printNotices(io: CliIo, loaded: LoadResult, cwdUri: string, fromStdin: boolean, quiet: boolean): Notice[] {
  const notices: Notice[] = [];
  const show = (uri: string) => escapeText(relPath(uri, cwdUri) || '.');
  const why: Record<string, string> = { config: 'the nearest litmus.config.json', harness: 'the nearest litmus.harness.json' };
  // With --stdin the user named no paths: what the buffer's workspace reads is no news.
  for (const uri of fromStdin ? [] : loaded.readOutsideRoots) {
    const kind = loaded.index.docs.get(uri)?.kind ?? 'tools';
    const reason = why[kind] ?? 'referenced by a case';
    notices.push(notice(io, 'note', `also read ${show(uri)} (${reason}), outside the given paths`, quiet));
  }
  for (const uri of loaded.linkedOutside ?? []) notices.push(notice(io, 'note', `also read ${show(uri)} through a symbolic link that leads outside the given paths`, quiet));
  for (const uri of loaded.refused) notices.push(notice(io, 'note', `not read ${show(uri)}: a symbolic link that leads outside the given paths`, quiet));
  for (const uri of loaded.skipped) notices.push(notice(io, 'note', `skipped ${show(uri)}: not a LITMUS file (by name or $schema)`, quiet));
  const folderTargets = new Set(loaded.folderTargets);
  for (const [uri, reason] of loaded.index.readErrors) {
    // Files with a LITMUS kind get a parse-error in place, and a folder a case references its
    // unresolved-reference; what is left is a folder walked or an odd entry.
    if (loaded.index.docs.has(uri) || folderTargets.has(uri)) continue;
    notices.push(notice(io, 'warning', `cannot read ${show(uri)}: ${escapeText(reason)}`));
  }
  return notices;
}
