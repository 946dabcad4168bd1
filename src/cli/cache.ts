import { join, resolve } from 'node:path';
import { fileUri, isNotUtf8, kindFromName, SKIPPED_DIRS, type FileSystem, type Fix, type LintDiagnostic, type SeveritySetting, type WorkspaceIndex } from '../core';
import type { CliIo } from './io';
import { TOOL_VERSION } from './version';
import { sha256 } from './hash';

/** Where `--cache` keeps results unless `--cache-location` says otherwise (under the working directory). */
export const DEFAULT_CACHE_DIR = 'node_modules/.cache/litmus-lint';
const CACHE_FILE = 'lint-cache.json';
/** Results of this many distinct workspaces are kept: switching branches back finds its answer. */
const MAX_ENTRIES = 8;
/** 2: entries hold suppressed findings too (marked), and a fix's `changesClaim`. */
const FORMAT_VERSION = 2;

interface StoredEntry {
  key: string;
  diagnostics: LintDiagnostic[];
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
export function cacheKey(index: WorkspaceIndex, rules: Record<string, SeveritySetting>, reads: ReadLog = new Map(), inlineConfig = true): string {
  const docs = [...index.docs.values()].map((d) => [d.uri, d.kind, sha256(d.text)]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const errors = [...index.readErrors].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const rulePairs = Object.entries(rules).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  const log = [...reads].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return sha256(JSON.stringify([FORMAT_VERSION, TOOL_VERSION, [...index.roots].sort(), rulePairs, inlineConfig, docs, errors, log]));
}

/** What a load asked the file system and what it answered, by call and URI (texts by hash). */
export type ReadLog = Map<string, string>;

/**
 * The file system with every answer recorded. The key then covers whatever the loader reads, in
 * whatever way a file kind is read (a tool, an environment, a config up the tree), and whatever
 * it looked for and did not find: a file that appears changes a listing or a stat, so the key.
 */
export function recordingFileSystem(fs: FileSystem): { fs: FileSystem; log: ReadLog } {
  const log: ReadLog = new Map();
  const note = (call: string, uri: string, answer: string) => log.set(`${call} ${uri}`, answer);
  return {
    log,
    fs: {
      async readFile(uri) {
        try {
          const text = await fs.readFile(uri);
          note('read', uri, sha256(text));
          return text;
        } catch (e) {
          // A file that is not UTF-8 is still shown (its lossy text, where the bad byte is): key on both.
          note('read', uri, isNotUtf8(e) ? `error EILSEQ ${sha256(e.reason + '\u0000' + e.text)}` : `error ${(e as { code?: string })?.code ?? ''}`);
          throw e;
        }
      },
      async readDirectory(uri) {
        try {
          const entries = await fs.readDirectory(uri);
          // Only what a walk can take matters: a report or a cache folder appearing beside the suite does not.
          const relevant = entries.filter(([name, type]) => (type === 'directory' ? !SKIPPED_DIRS.has(name) : kindFromName(name) !== undefined || /\.jsonc?$/i.test(name)));
          note('list', uri, sha256(JSON.stringify(relevant.sort((a, b) => (a[0] < b[0] ? -1 : 1)))));
          return entries;
        } catch (e) {
          note('list', uri, `error ${(e as { code?: string })?.code ?? ''}`);
          throw e;
        }
      },
      async stat(uri) {
        const st = await fs.stat(uri);
        note('stat', uri, st ? st.type : 'none');
        return st;
      },
      ...(fs.realUri ? { realUri: fs.realUri.bind(fs) } : {}),
    },
  };
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
  /** The cached diagnostics for this workspace, or runs `lint` and remembers its answer. */
  lint(index: WorkspaceIndex, lint: () => LintDiagnostic[], reads?: ReadLog): LintDiagnostic[];
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

/** `inlineConfig`: false with `--no-inline-config`, which changes what a lint returns, so the key. */
export async function openCache(io: CliIo, path: string, rules: Record<string, SeveritySetting>, warn: (text: string) => void, inlineConfig = true): Promise<LintCache> {
  let stored: StoredCache = { version: FORMAT_VERSION, entries: [] };
  try {
    const parsed = JSON.parse(await io.fs.readFile(fileUri(path))) as StoredCache;
    // Anything unexpected (another version, a hand edit, a torn write) is an empty cache, not an error.
    if (parsed && parsed.version === FORMAT_VERSION && Array.isArray(parsed.entries)) {
      stored = { version: FORMAT_VERSION, entries: parsed.entries.filter((e) => e && typeof e.key === 'string' && Array.isArray(e.diagnostics)) };
    }
  } catch {
    // no cache yet
  }
  let dirty = false;
  let hits = 0;
  return {
    get hits() {
      return hits;
    },
    lint(index, lint, reads) {
      const key = cacheKey(index, rules, reads, inlineConfig);
      const found = stored.entries.findIndex((e) => e.key === key);
      if (found >= 0) {
        hits++;
        const [entry] = stored.entries.splice(found, 1);
        if (found > 0) dirty = true;
        stored.entries.unshift(entry);
        return entry.diagnostics;
      }
      const diagnostics = lint();
      stored.entries.unshift({ key, diagnostics: diagnostics.map(plain) });
      stored.entries.length = Math.min(stored.entries.length, MAX_ENTRIES);
      dirty = true;
      return diagnostics;
    },
    async save() {
      if (!dirty) return;
      try {
        await io.writeFile(path, JSON.stringify(stored));
      } catch (e) {
        warn(`cannot write the cache ${path}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
      }
    },
  };
}
