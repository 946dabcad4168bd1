import { join, resolve } from 'node:path';
import { fileUri, isJsonObject, isNotUtf8, kindFromName, SEVERITY_ORDER, SKIPPED_DIRS, type DirEntry, type FileSystem, type Fix, type LintDiagnostic, type SeveritySetting, type WorkspaceIndex } from '../core';
import type { CliIo } from './io';
import { TOOL_VERSION } from './version';
import { sha256 } from './hash';
import type { FindingAnchor } from './anchor';

/** Where `--cache` keeps results unless `--cache-location` says otherwise (under the working directory). */
export const DEFAULT_CACHE_DIR = 'node_modules/.cache/litmus-lint';
const CACHE_FILE = 'lint-cache.json';
/** Results of this many distinct workspaces are kept: switching branches back finds its answer. */
const MAX_ENTRIES = 8;
/**
 * And only while the file stays this small: every run reads it whole, and a 10,000-case suite's
 * result is 2 MB (eight of them made a hit cost 800 ms instead of 430). The newest result is
 * always kept, whatever its size.
 */
export const MAX_CACHE_CHARS = 6_000_000;
/** 3: the file system's `realUri` answers join the read log, and entries keep what a run reported beside its findings. */
const FORMAT_VERSION = 3;

/** A notice the run printed beside its findings (a file skipped, read outside the paths). */
export interface StoredNotice {
  level: 'note' | 'warning';
  text: string;
}

/**
 * What a later run needs to answer without loading anything: the command line it was made for,
 * every question the load asked the file system with its answer, and what the report said besides
 * the findings. Only a plain run (no fix, baseline or --stdin) keeps one.
 */
export interface StoredRun {
  /** The command line's part: working folder, paths, ignore patterns, config, rule options. */
  context: string;
  reads: [string, string][];
  /** Every document the load held (the report names those the paths select). */
  files: string[];
  notices: StoredNotice[];
  inputSize: number;
  /** Each diagnostic's place by case and JSON path, in order, when a SARIF or GitLab report needed them. */
  anchors?: FindingAnchor[];
}

interface StoredEntry {
  key: string;
  diagnostics: LintDiagnostic[];
  run?: StoredRun;
}

interface StoredCache {
  version: number;
  entries: StoredEntry[];
}

/**
 * The key of one lint: the linter's version, the command line's rule severities, the roots, and
 * every document the load read (suite, tool, environment, config and harness files alike, each by
 * kind and content hash), with the read errors. A lint reads nothing else, so an edit to any file a
 * result depends on, a referenced tool file included, gives another key: a stale result is never served.
 */
export function cacheKey(index: WorkspaceIndex, rules: Record<string, SeveritySetting>, reads: Recorded = { log: new Map(), texts: new Map() }, inlineConfig = true): string {
  // A document whose text is the one the load read is in the key by the log's hash of it; only a
  // text that did not come from the file system (a --fix pass's) is hashed here.
  const docs = [...index.docs.values()].map((d) => [d.uri, d.kind, reads.texts.get(d.uri) === d.text ? 'read' : sha256(d.text)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const errors = [...index.readErrors].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const rulePairs = Object.entries(rules).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const log = [...reads.log].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return sha256(JSON.stringify([FORMAT_VERSION, TOOL_VERSION, [...index.roots].sort(), rulePairs, inlineConfig, docs, errors, log]));
}

/** What a load asked the file system and what it answered, by call and URI (texts by hash). */
export type ReadLog = Map<string, string>;

/** A load's read log, and the texts it read by URI. */
export interface Recorded {
  log: ReadLog;
  texts: Map<string, string>;
}

/** A call that failed, as the log keeps it: its error code. */
const errorAnswer = (e: unknown) => `error ${(e as { code?: string })?.code ?? ''}`;

/** The answer a read gives, as the log keeps it: the text by hash, or why it failed. */
function readAnswer(read: Promise<string>): Promise<{ answer: string; text?: string; error?: unknown }> {
  return read.then(
    (text) => ({ answer: sha256(text), text }),
    // A file that is not UTF-8 is still shown (its lossy text, where the bad byte is): key on both.
    (e: unknown) => ({ answer: isNotUtf8(e) ? `error EILSEQ ${sha256(e.reason + '\u0000' + e.text)}` : errorAnswer(e), error: e }),
  );
}

/** A listing as the log keeps it: only what a walk can take (a report or cache folder appearing beside the suite does not count). */
function listAnswer(entries: DirEntry[]): string {
  const relevant = entries.filter(([name, type]) => (type === 'directory' ? !SKIPPED_DIRS.has(name) : kindFromName(name) !== undefined || /\.jsonc?$/i.test(name)));
  return sha256(JSON.stringify(relevant.sort((a, b) => (a[0] < b[0] ? -1 : 1))));
}

/**
 * The file system with every answer recorded. The key then covers whatever the loader reads, in
 * whatever way a file kind is read (a tool, an environment, a config up the tree), and whatever
 * it looked for and did not find: a file that appears changes a listing or a stat, so the key;
 * a symbolic link pointed elsewhere changes a `realUri` answer.
 */
export function recordingFileSystem(fs: FileSystem): Recorded & { fs: FileSystem } {
  const log: ReadLog = new Map();
  const texts = new Map<string, string>();
  const note = (call: string, uri: string, answer: string) => log.set(`${call} ${uri}`, answer);
  const realUri = fs.realUri?.bind(fs);
  return {
    log,
    texts,
    fs: {
      async readFile(uri, options) {
        const read = await readAnswer(fs.readFile(uri, options));
        note('read', uri, read.answer);
        if (read.text === undefined) throw read.error;
        texts.set(uri, read.text);
        return read.text;
      },
      async readDirectory(uri) {
        try {
          const entries = await fs.readDirectory(uri);
          note('list', uri, listAnswer(entries));
          return entries;
        } catch (e) {
          note('list', uri, errorAnswer(e));
          throw e;
        }
      },
      async stat(uri) {
        const st = await fs.stat(uri);
        note('stat', uri, st ? st.type : 'none');
        return st;
      },
      ...(realUri
        ? {
            async realUri(uri: string) {
              try {
                const real = await realUri(uri);
                note('real', uri, real);
                return real;
              } catch (e) {
                note('real', uri, errorAnswer(e));
                throw e;
              }
            },
          }
        : {}),
    },
  };
}

/**
 * Asks the file system each question of a stored log again, in its order, and says whether every
 * answer is the same: then a load would read exactly what it read then, and its lint would say
 * what it said. Stops at the first answer that differs; `answers` carries answers between stored
 * runs. The texts are hashed and dropped: kept for the load after a miss, they cost a hit more in
 * collection (35 ms at 10k) than they save a miss.
 */
async function answersStill(fs: FileSystem, reads: readonly [string, string][], answers: Map<string, string>): Promise<boolean> {
  for (const [question, stored] of reads) {
    let now = answers.get(question);
    if (now === undefined) answers.set(question, (now = await answerNow(fs, question)));
    if (now !== stored) return false;
  }
  return true;
}

async function answerNow(fs: FileSystem, question: string): Promise<string> {
  const space = question.indexOf(' ');
  const call = question.slice(0, space);
  const uri = question.slice(space + 1);
  try {
    if (call === 'read') return (await readAnswer(fs.readFile(uri))).answer;
    if (call === 'list') return await fs.readDirectory(uri).then((entries) => listAnswer(entries), errorAnswer);
    if (call === 'stat') return (await fs.stat(uri))?.type ?? 'none';
    if (call === 'real' && fs.realUri) return await fs.realUri(uri).then((real) => real, errorAnswer);
  } catch {
    // A stat that throws, or a question this version does not ask: no stored answer can match it.
  }
  return '\u0000unanswered';
}

/**
 * A diagnostic as plain data: fixes' edits (computed when first read) are materialised. A fix that
 * changes a claim keeps saying so, or a cached run's `--fix` would apply it (FORMAT §10).
 */
function plain(d: LintDiagnostic): LintDiagnostic {
  const fixes: Fix[] = d.fixes.map((f) => ({ title: f.title, unambiguous: f.unambiguous, ...(f.changesClaim ? { changesClaim: true } : {}), edits: f.edits }));
  return { ...d, fixes };
}

export interface LintCache {
  /**
   * The stored run made for this command line (`context`) whose every question to the file system
   * is answered as it was, found before anything is parsed; undefined when none is.
   * `needAnchors`: only a run that kept its findings' anchors answers a SARIF or GitLab report.
   */
  recall(fs: FileSystem, context: string, needAnchors: boolean): Promise<{ diagnostics: LintDiagnostic[]; run: StoredRun } | undefined>;
  /** The cached diagnostics for this workspace, or runs `lint` and remembers its answer. */
  lint(index: WorkspaceIndex, lint: () => LintDiagnostic[], reads?: Recorded): LintDiagnostic[];
  /**
   * Keeps what the report says beside the last lint's findings, with that lint's read log, so that
   * `recall` can answer the same command line later; `anchorOf` places each finding for SARIF and GitLab.
   */
  keepRun(context: string, report: Pick<StoredRun, 'files' | 'notices' | 'inputSize'>, anchorOf?: (d: LintDiagnostic) => FindingAnchor): void;
  /** Writes the cache file when something was added; a failure is a warning, never the run's. */
  save(): Promise<void>;
  readonly hits: number;
}

/** The cache file `--cache-location` names: a folder (existing, or written with a trailing `/`) or a file. */
export async function cacheFilePath(io: CliIo, location: string | undefined): Promise<string> {
  if (location === undefined) return resolve(io.cwd, DEFAULT_CACHE_DIR, CACHE_FILE);
  const abs = resolve(io.cwd, location);
  if (/[\\/]$/.test(location)) return join(abs, CACHE_FILE);
  const st = await io.fs.stat(fileUri(abs)).catch(() => undefined);
  return st?.type === 'directory' ? join(abs, CACHE_FILE) : abs;
}

const isPosition = (p: unknown): boolean => isJsonObject(p) && typeof p.line === 'number' && typeof p.character === 'number';

/** A stored diagnostic has what the report reads of it: a hand-edited cache must not crash a run it answers. */
function storedDiagnostic(d: unknown): boolean {
  return (
    isJsonObject(d) &&
    typeof d.uri === 'string' &&
    typeof d.code === 'string' &&
    typeof d.message === 'string' &&
    typeof d.docsUrl === 'string' &&
    typeof d.severity === 'string' &&
    Object.prototype.hasOwnProperty.call(SEVERITY_ORDER, d.severity) &&
    typeof d.offset === 'number' &&
    typeof d.length === 'number' &&
    isJsonObject(d.range) &&
    isPosition(d.range.start) &&
    isPosition(d.range.end) &&
    Array.isArray(d.related) &&
    Array.isArray(d.fixes)
  );
}

/** A stored run as this version writes it, checked field by field: a hand edit or a torn write is no run. */
function storedRun(r: unknown, diagnostics: number): StoredRun | undefined {
  if (!r || typeof r !== 'object') return undefined;
  const run = r as Partial<StoredRun>;
  const strings = (xs: unknown): boolean => Array.isArray(xs) && xs.every((x) => typeof x === 'string');
  const ok =
    typeof run.context === 'string' &&
    Array.isArray(run.reads) &&
    run.reads.every((pair) => Array.isArray(pair) && pair.length === 2 && strings(pair)) &&
    strings(run.files) &&
    Array.isArray(run.notices) &&
    run.notices.every((n) => n && (n.level === 'note' || n.level === 'warning') && typeof n.text === 'string') &&
    typeof run.inputSize === 'number' &&
    (run.anchors === undefined || (Array.isArray(run.anchors) && run.anchors.length === diagnostics && run.anchors.every((a) => a && Array.isArray(a.path))));
  return ok ? (run as StoredRun) : undefined;
}

/**
 * `inlineConfig`: false with `--no-inline-config`, which changes what a lint returns, so the key.
 * `maxChars`: the bound on the file's size (MAX_CACHE_CHARS; tests give a small one).
 */
export async function openCache(io: CliIo, path: string, rules: Record<string, SeveritySetting>, warn: (text: string) => void, inlineConfig = true, maxChars = MAX_CACHE_CHARS): Promise<LintCache> {
  let stored: StoredCache = { version: FORMAT_VERSION, entries: [] };
  try {
    const parsed = JSON.parse(await io.fs.readFile(fileUri(path))) as StoredCache;
    // Anything unexpected (another version, a hand edit, a torn write) is an empty cache, not an error.
    if (parsed && parsed.version === FORMAT_VERSION && Array.isArray(parsed.entries)) {
      const entries = parsed.entries.filter((e) => e && typeof e.key === 'string' && Array.isArray(e.diagnostics) && e.diagnostics.every(storedDiagnostic));
      for (const e of entries) if (e.run !== undefined && !(e.run = storedRun(e.run, e.diagnostics.length))) delete e.run;
      stored = { version: FORMAT_VERSION, entries };
    }
  } catch {
    // no cache yet
  }
  // What the command line adds to a run's context here: the linter, the rule options, inline config.
  const fullContext = (context: string) => JSON.stringify([TOOL_VERSION, Object.entries(rules).sort((a, b) => (a[0] < b[0] ? -1 : 1)), inlineConfig, context]);
  let dirty = false;
  let hits = 0;
  let last: { entry: StoredEntry; reads?: [string, string][] } | undefined;
  const toFront = (found: number): StoredEntry => {
    const [entry] = stored.entries.splice(found, 1);
    if (found > 0) dirty = true;
    stored.entries.unshift(entry);
    return entry;
  };
  return {
    get hits() {
      return hits;
    },
    async recall(fs, context, needAnchors) {
      const full = fullContext(context);
      const answers = new Map<string, string>();
      for (let i = 0; i < stored.entries.length; i++) {
        const run = stored.entries[i].run;
        if (!run || run.context !== full || (needAnchors && !run.anchors)) continue;
        if (await answersStill(fs, run.reads, answers)) {
          hits++;
          const entry = toFront(i);
          return { diagnostics: entry.diagnostics, run };
        }
      }
      return undefined;
    },
    lint(index, lint, reads) {
      const key = cacheKey(index, rules, reads, inlineConfig);
      const found = stored.entries.findIndex((e) => e.key === key);
      let entry: StoredEntry;
      let diagnostics: LintDiagnostic[];
      if (found >= 0) {
        hits++;
        entry = toFront(found);
        diagnostics = entry.diagnostics;
      } else {
        diagnostics = lint();
        entry = { key, diagnostics: diagnostics.map(plain) };
        stored.entries.unshift(entry);
        stored.entries.length = Math.min(stored.entries.length, MAX_ENTRIES);
        dirty = true;
      }
      // Reads last: every cheaper answer (listings, files looked for, links) is compared before any file is read.
      last = { entry, reads: reads && [...reads.log].sort((a, b) => Number(a[0].startsWith('read ')) - Number(b[0].startsWith('read '))) };
      return diagnostics;
    },
    keepRun(context, report, anchorOf) {
      if (!last?.reads) return;
      const { entry, reads } = last;
      const run: StoredRun = { context: fullContext(context), reads, ...report };
      const before = entry.run;
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
      const anchors = anchorOf ? entry.diagnostics.map(anchorOf) : before && before.context === run.context && same(before.reads, reads) ? before.anchors : undefined;
      if (anchors) run.anchors = anchors;
      if (before && same(before, run)) return;
      entry.run = run;
      dirty = true;
    },
    async save() {
      if (!dirty) return;
      // Newest first: older entries go once the file would outgrow the bound.
      const kept: string[] = [];
      let size = 0;
      for (const entry of stored.entries) {
        const text = JSON.stringify(entry);
        if (kept.length > 0 && size + text.length > maxChars) break;
        kept.push(text);
        size += text.length + 1;
      }
      stored.entries.length = kept.length;
      try {
        await io.writeFile(path, `{"version":${FORMAT_VERSION},"entries":[${kept.join(',')}]}`);
      } catch (e) {
        warn(`cannot write the cache ${path}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    },
  };
}
