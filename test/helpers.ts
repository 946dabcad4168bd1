import type { FormatContext } from '../src/cli/format/context';
import { applyChanges, lintIndex, loadWorkspace, memoryFileSystem, type FileSystem, type LintDiagnostic, type LintOptions, type LoadOptions } from '../src/core';

export const WS = 'file:///ws';

/** Lints an in-memory workspace given as `{ 'relative/path': text }`, rooted at file:///ws. */
export async function lintFiles(files: Record<string, string>, options: LintOptions & LoadOptions = {}) {
  const fs = memoryFileSystem(Object.fromEntries(Object.entries(files).map(([k, v]) => [`${WS}/${k}`, v])));
  const loaded = await loadWorkspace(fs, [WS], options);
  const result = lintIndex(loaded.index, options);
  return { ...result, ...loaded };
}

/**
 * A file system over a live map of files (URI → text): each call answers from what the map holds
 * then, as a disk does, so a file written, created or deleted between two runs is seen by the
 * second. `links` (URI → target) are followed by reads and stats and answered by `realUri`, as
 * symbolic links on disk.
 */
export function liveFileSystem(files: ReadonlyMap<string, string>, links?: ReadonlyMap<string, string>): FileSystem {
  const now = () => memoryFileSystem(Object.fromEntries(files));
  const follow = (uri: string) => links?.get(uri) ?? uri;
  return {
    readFile: (uri, options) => now().readFile(follow(uri), options),
    readDirectory: (uri) => now().readDirectory(uri),
    stat: (uri) => now().stat(follow(uri)),
    ...(links ? { realUri: async (uri: string) => follow(uri) } : {}),
  };
}

/** A compact, comparable view: `path:line:col code`, 1-based like the CLI. */
export function brief(d: LintDiagnostic): string {
  return `${d.uri.slice(WS.length + 1)}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.code}`;
}

export function codes(ds: LintDiagnostic[], code?: string): LintDiagnostic[] {
  return code ? ds.filter((d) => d.code === code) : ds;
}

/** The text a diagnostic covers. */
export function covered(files: Record<string, string>, d: LintDiagnostic): string {
  const text = files[d.uri.slice(WS.length + 1)];
  return text.slice(d.offset, d.offset + d.length);
}

export const json = (v: unknown) => JSON.stringify(v, null, 2);

export type Case = Record<string, unknown>;
/** A suite file's text holding these cases. */
export const suite = (...cases: Case[]) => json({ suite: 's', cases });
/** A JSONL case file's text, one case per line. */
export const jsonl = (...cases: Case[]) => cases.map((c) => JSON.stringify(c)).join('\n') + '\n';

/** The diagnostics one rule reports over an in-memory workspace. */
export async function lintRule(files: Record<string, string>, rule: string): Promise<LintDiagnostic[]> {
  const { diagnostics } = await lintFiles(files);
  return codes(diagnostics, rule);
}

/** A text with one fix's edits to it applied, as a host would. */
export function applyEdits(text: string, edits: readonly { offset: number; length: number; newText: string }[]): string {
  return applyChanges(text, edits.map((e) => ({ offset: e.offset, length: e.length, content: e.newText })));
}

/** Wraps a file system and records every URI the loader reads or lists, to prove what it never touched. */
export function spying(fs: FileSystem): { fs: FileSystem; reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    fs: {
      readFile: (uri) => (reads.push(uri), fs.readFile(uri)),
      readDirectory: (uri) => (reads.push(uri), fs.readDirectory(uri)),
      stat: (uri) => fs.stat(uri),
      realUri: fs.realUri && ((uri) => fs.realUri!(uri)),
    },
  };
}

/** mulberry32: the same seed gives the same random edits on every machine. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
export type Rng = ReturnType<typeof rng>;

/** A formatter's context over a working directory and the files of a run. */
export function formatContext(cwdUri: string, files: string[], over: Partial<FormatContext> = {}): FormatContext {
  return { cwdUri, files, toolName: 'litmus-lint', toolVersion: '9.9.9', informationUri: 'https://example.org/litmus-lint', color: false, hidden: 0, ...over };
}

/** One placed diagnostic, as formatters receive it: a duplicate id on line 3 unless told otherwise. */
export function testDiagnostic(uri: string, over: Partial<LintDiagnostic> = {}): LintDiagnostic {
  return {
    uri,
    range: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } },
    offset: 30,
    length: 5,
    severity: 'error',
    code: 'duplicate-id',
    message: 'instance_id `x` is also used by 1 other case',
    docsUrl: 'https://example.org/docs/duplicate-id.md',
    related: [],
    fixes: [],
    ...over,
  };
}
