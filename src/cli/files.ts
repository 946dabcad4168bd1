import ignore, { type Ignore } from 'ignore';
import picomatch from 'picomatch';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { type FileSystem, findSuiteRoot, kindFromName, fileUri, normalizeUri, uriToPath, type SuiteRoot } from '../core';
import { UsageError } from './args';

/** The ignore file: gitignore syntax, read from the working directory and from each folder linted. */
export const IGNORE_FILE = '.litmusignore';

/** Gitignore rules that apply below one folder. */
interface IgnoreSource {
  base: string;
  rules: Ignore;
}

interface Glob {
  pattern: string;
  /** The folder the pattern's fixed part names: where its walk starts. */
  base: string;
  match: (relativePath: string) => boolean;
  matched: number;
  /** LITMUS files it matched that an ignore rule left out. */
  ignored: number;
  /** Ignored folders below its base, never walked: its ignored matches may be there. */
  ignoredFolders: string[];
}

/** What the command line asks to lint, with the ignore rules that apply. */
export interface Targets {
  /**
   * What to hand the loader: the suite roots of everything named (walked whole, for context), then
   * the files named (read even when a walk would not list them).
   */
  roots: string[];
  /** The suite each named path is linted in (see findSuiteRoot), outer ones only, in path order. */
  suites: SuiteRoot[];
  /** Those suites that reach beyond the folders named: read for context, and worth a note. */
  widened: SuiteRoot[];
  /** The file system with ignored entries, and files no glob matches, left out of directory listings. */
  fs: FileSystem;
  /** Files named on the command line that an ignore rule matches: warned about, not linted. */
  ignoredExplicit: string[];
  /** Files the user named or that a walk of what they named reaches: only these are reported and fixed. */
  selected(uri: string): boolean;
  /**
   * True when the suite of a file named on its own was guessed (no `litmus.config.json` or `.git`
   * above it: its folder stands in): a twin or seed elsewhere may be missing from what was read.
   */
  guessedContext(uri: string): boolean;
  /** True when an ignore rule matches the path (a folder when `dir`). */
  ignored(uri: string, dir?: boolean): boolean;
  /** Glob patterns that matched no LITMUS file (`ignored`: only ignored ones), for ESLint's usage error. */
  unmatchedGlobs(): Promise<{ pattern: string; ignored: boolean }[]>;
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** `p` relative to `base`, `/`-separated; undefined when `p` is not below `base`. */
function below(base: string, p: string): string | undefined {
  const rel = relative(base, p);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  return toPosix(rel);
}

function under(base: string, p: string): boolean {
  return p === base || below(base, p) !== undefined;
}

/**
 * Whether a glob matches a LITMUS file inside folders an ignore rule kept the walk out of: walked
 * only when the glob matched nothing else, so that the usage error can say its matches are ignored.
 */
async function matchesInside(fs: FileSystem, g: Glob, folders: string[]): Promise<boolean> {
  const todo = [...folders];
  const seen = new Set<string>();
  while (todo.length) {
    const dir = todo.pop()!;
    const uri = normalizeUri(fileUri(dir));
    const real = fs.realUri ? await fs.realUri(uri).catch(() => uri) : uri;
    if (seen.has(real)) continue;
    seen.add(real);
    const entries = await fs.readDirectory(uri).catch(() => [] as [string, unknown][]);
    for (const [name, type] of entries) {
      const abs = resolve(dir, name);
      if (type === 'directory') {
        if (name !== 'node_modules' && name !== '.git') todo.push(abs);
      } else if (candidateName(name)) {
        const rel = below(g.base, abs);
        if (rel !== undefined && g.match(rel)) return true;
      }
    }
  }
  return false;
}

/** True for names the loader reads while walking (the same test as core's walk). */
function candidateName(name: string): boolean {
  return kindFromName(name) !== undefined || /\.jsonc?$/i.test(name);
}

/** A pattern the ignore library cannot compile (a regular expression too large), or undefined. */
function badPattern(pattern: string): string | undefined {
  try {
    const rules = ignore().add(pattern);
    rules.test('a');
    rules.test('a/');
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message.split('\n')[0].slice(0, 80) : String(e);
  }
}

async function readIgnoreFile(fs: FileSystem, folder: string, cwd: string, warn: (text: string) => void): Promise<IgnoreSource | undefined> {
  const path = resolve(folder, IGNORE_FILE);
  let text: string;
  try {
    text = await fs.readFile(fileUri(path));
  } catch {
    return undefined;
  }
  // A line that cannot be compiled is left out, with a warning, rather than failing every lint.
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  const kept = lines.filter((line, i) => {
    const bad = badPattern(line);
    if (bad !== undefined) warn(`${below(cwd, path) ?? path}:${i + 1}: pattern left out (${bad})`);
    return bad === undefined;
  });
  return { base: folder, rules: ignore().add(kept) };
}

export interface TargetOptions {
  cwd: string;
  paths: string[];
  ignorePatterns: string[];
  /** False with `--no-ignore`. */
  ignore: boolean;
  /** Where a problem with an ignore file is said (a pattern left out). */
  warn?: (text: string) => void;
}

/**
 * Sorts the command line's paths into folders, files and globs, finds the suite each belongs to
 * (see findSuiteRoot: the outermost folder with a `litmus.config.json`, else the repository root),
 * and reads the ignore rules: the working directory's `.litmusignore`, then each suite root's and
 * each named folder's (deeper rules win, as in git), then `--ignore-pattern` (relative to the
 * working directory, last word).
 *
 * The loader walks the suite roots whole, so that a file named alone is linted with its twins,
 * seeds and references as in a lint of its suite; only what was named is reported and fixed.
 */
export async function resolveTargets(fs: FileSystem, opts: TargetOptions): Promise<Targets> {
  const folders: string[] = [];
  const files: string[] = [];
  const globs: Glob[] = [];
  for (const p of opts.paths) {
    const abs = resolve(opts.cwd, p);
    const st = await fs.stat(normalizeUri(fileUri(abs))).catch(() => undefined);
    // A path that exists is that path, even with glob characters in its name (as in ESLint).
    if (st?.type === 'directory') folders.push(abs);
    else if (st) files.push(abs);
    else if (picomatch.scan(toPosix(p)).isGlob) {
      const glob = compileGlob(opts.cwd, p);
      const base = await fs.stat(normalizeUri(fileUri(glob.base))).catch(() => undefined);
      if (base?.type !== 'directory') throw new UsageError(`no LITMUS files match the pattern '${p}'`);
      globs.push(glob);
    }
    else throw new UsageError(`no such file or folder: ${p}`);
  }

  // Each named path's suite (see findSuiteRoot), whose `.litmusignore` applies too.
  const found: { path: string; from: 'folder' | 'file' | 'glob'; suite: SuiteRoot }[] = [];
  for (const [path, from] of [...folders.map((f) => [f, 'folder'] as const), ...files.map((f) => [f, 'file'] as const), ...globs.map((g) => [g.base, 'glob'] as const)]) {
    found.push({ path, from, suite: await findSuiteRoot(fs, normalizeUri(fileUri(path)), from !== 'file') });
  }

  const sources: IgnoreSource[] = [];
  if (opts.ignore) {
    const folderBases = [opts.cwd, ...found.map((f) => uriToPath(f.suite.uri)), ...folders, ...globs.map((g) => g.base)];
    const seen = new Set<string>();
    // Outer folders first, so a deeper file's rules (and negations) come later and win.
    for (const folder of folderBases.sort((a, b) => a.length - b.length)) {
      if (seen.has(folder)) continue;
      seen.add(folder);
      const source = await readIgnoreFile(fs, folder, opts.cwd, opts.warn ?? (() => undefined));
      if (source) sources.push(source);
    }
    for (const p of opts.ignorePatterns) {
      const bad = badPattern(p);
      if (bad !== undefined) throw new UsageError(`--ignore-pattern: cannot use the pattern (${bad})`);
    }
    if (opts.ignorePatterns.length) sources.push({ base: opts.cwd, rules: ignore().add(opts.ignorePatterns) });
  }

  /**
   * One level's verdict: each source's own match on the path (a match inherited from an ignored
   * parent is that parent's verdict, decided a level up), the last source with one winning.
   */
  const levelVerdict = (abs: string, dir: boolean): boolean | undefined => {
    let verdict: boolean | undefined;
    for (const s of sources) {
      const rel = below(s.base, abs);
      if (rel === undefined) continue;
      const r = s.rules.test(dir ? rel + '/' : rel);
      const slash = rel.lastIndexOf('/');
      const inherited = r.ignored && slash > 0 && s.rules.test(rel.slice(0, slash) + '/').ignored;
      if (r.ignored && !inherited) verdict = true;
      else if (r.unignored) verdict = false;
    }
    return verdict;
  };
  // As in git, nothing inside an ignored folder comes back: each folder on the way down is checked.
  // A folder's answer is kept: the files of one folder share every level above them.
  const ignoredFolders = new Map<string, boolean>();
  const ignoredFolder = (folder: string): boolean => {
    let known = ignoredFolders.get(folder);
    if (known === undefined) {
      const parent = dirname(folder);
      known = (parent !== folder && ignoredFolder(parent)) || levelVerdict(folder, true) === true;
      ignoredFolders.set(folder, known);
    }
    return known;
  };
  const ignoredPath = (abs: string, dir: boolean): boolean => {
    if (sources.length === 0) return false;
    const parent = dirname(abs);
    if (parent !== abs && ignoredFolder(parent)) return true;
    return levelVerdict(abs, dir) === true;
  };

  const ignoredExplicit = files.filter((f) => ignoredPath(f, false));
  const explicit = new Set(files.filter((f) => !ignoredExplicit.includes(f)));
  // The suites to walk: those of what is linted (an ignored file named alone brings none), outer
  // ones only, since a suite inside another is walked as part of it.
  const live = found.filter((f) => f.from !== 'file' || explicit.has(f.path));
  // Folders of files named alone that stand in for a suite no marker shows. Such a folder is read
  // one level deep: with nothing to mark the suite, walking all below it could mean a home folder
  // or /tmp. It walks no deeper suite either: that one is walked from its own root.
  const guessed = live.filter((f) => f.from === 'file' && !f.suite.marker).map((f) => uriToPath(f.suite.uri));
  const shallow = (dir: string) => guessed.includes(dir) && !folders.some((f) => under(f, dir)) && !globs.some((g) => under(g.base, dir));
  const suites: SuiteRoot[] = [];
  for (const { suite } of [...live].sort((a, b) => a.suite.uri.length - b.suite.uri.length)) {
    const path = uriToPath(suite.uri);
    const covered = suites.some((o) => {
      const outer = uriToPath(o.uri);
      return outer === path || (under(outer, path) && !shallow(outer));
    });
    if (!covered) suites.push(suite);
  }
  suites.sort((a, b) => live.findIndex((f) => f.suite.uri === a.uri) - live.findIndex((f) => f.suite.uri === b.uri));
  const suitePaths = suites.map((s) => uriToPath(s.uri));
  // A subfolder of a shallow folder is still walked when it holds something named (a folder, a
  // glob's base, another suite).
  const leadsTo = (abs: string) => [...folders, ...globs.map((g) => g.base), ...suitePaths].some((f) => under(abs, f));
  const globMatch = (abs: string, count?: 'matched' | 'ignored'): boolean => {
    let hit = false;
    for (const g of globs) {
      const rel = below(g.base, abs);
      if (rel !== undefined && g.match(rel)) {
        hit = true;
        if (count) g[count]++;
      }
    }
    return hit;
  };
  const selectedPath = (abs: string): boolean =>
    explicit.has(abs) || (!ignoredPath(abs, false) && (folders.some((f) => under(f, abs)) || globMatch(abs)));

  const filtered: FileSystem = {
    readFile: (uri) => fs.readFile(uri),
    stat: (uri) => fs.stat(uri),
    ...(fs.realUri ? { realUri: fs.realUri.bind(fs) } : {}),
    async readDirectory(uri) {
      const dir = uriToPath(uri);
      const entries = await fs.readDirectory(uri);
      return entries.filter(([name, type]) => {
        const abs = resolve(dir, name);
        // A folder that stands in for a lone file's suite is read one level deep: with nothing to
        // mark the suite, walking all below it could mean a home folder or /tmp.
        if (type === 'directory') {
          if (!ignoredPath(abs, true)) return !shallow(dir) || leadsTo(abs);
          for (const g of globs) if (below(g.base, abs) !== undefined) g.ignoredFolders.push(abs);
          return false;
        }
        if (ignoredPath(abs, false)) {
          if (candidateName(name)) globMatch(abs, 'ignored');
          return false;
        }
        const matched = globMatch(abs, candidateName(name) ? 'matched' : undefined);
        // The rest of a named path's suite is read too, as context.
        return matched || folders.some((f) => under(f, abs)) || suitePaths.some((f) => under(f, abs));
      });
    },
  };

  return {
    roots: [...suitePaths, ...explicit].map((p) => normalizeUri(fileUri(p))),
    suites,
    widened: suites.filter((s) => !folders.includes(uriToPath(s.uri))),
    // With nothing to leave out, listings go straight through: a large suite pays nothing per entry.
    fs: sources.length === 0 && globs.length === 0 && guessed.length === 0 ? fs : filtered,
    ignoredExplicit: ignoredExplicit.map((p) => normalizeUri(fileUri(p))),
    selected: (uri) => selectedPath(uriToPath(uri)),
    guessedContext: (uri) => {
      const abs = uriToPath(uri);
      // Folders and globs named are the suite as far as the user said; a lone file's folder is not.
      if (folders.some((f) => under(f, abs)) || globMatch(abs)) return false;
      // The innermost suite that holds the file decides: a marked suite below a guessed folder is not a guess.
      let inner: (typeof live)[number] | undefined;
      for (const f of live) {
        const root = uriToPath(f.suite.uri);
        if (under(root, abs) && (!inner || root.length > uriToPath(inner.suite.uri).length)) inner = f;
      }
      return inner !== undefined && !inner.suite.marker && guessed.includes(uriToPath(inner.suite.uri));
    },
    ignored: (uri, dir = false) => ignoredPath(uriToPath(uri), dir),
    unmatchedGlobs: async () => {
      const unmatched: { pattern: string; ignored: boolean }[] = [];
      for (const g of globs.filter((x) => x.matched === 0)) {
        unmatched.push({ pattern: g.pattern, ignored: g.ignored > 0 || (await matchesInside(fs, g, g.ignoredFolders)) });
      }
      return unmatched;
    },
  };
}

function compileGlob(cwd: string, pattern: string): Glob {
  const scan = picomatch.scan(toPosix(pattern));
  const base = resolve(cwd, scan.base || '.');
  let match: (path: string) => boolean;
  try {
    match = picomatch(scan.glob, { dot: false });
    match('a');
  } catch (e) {
    throw new UsageError(`cannot use the glob pattern (${e instanceof Error ? e.message.split('\n')[0].slice(0, 80) : String(e)})`);
  }
  return { pattern, base, match, matched: 0, ignored: 0, ignoredFolders: [] };
}
