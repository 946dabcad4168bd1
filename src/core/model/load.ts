import { readConfig, type ConfigOverrides } from './config';
import { createDocument, forgetDocument, unreadableDocument, type SuiteDocument } from './document';
import { forgetTools } from './stable-tools';
import { isNotUtf8, type DirEntry, type FileSystem, type NotUtf8 } from './fs';
import { detectKind, kindFromName, type FileKind } from './kinds';
import { LineIndex } from '../text/lines';
import { NUL_MESSAGE } from '../text/parse';
import { compareCodePoints, comparePathOrder, dirnameUri, isUnder, joinUri, normalizeUri } from './uri';
import { buildIndex, reindex, referencedBy, referencedEnvironmentFiles, referencedToolFiles, type IndexOptions, type WorkspaceIndex } from './workspace';

/** Folders never walked into. */
export const SKIPPED_DIRS = new Set(['node_modules', '.git']);

export interface LoadOptions {
  /** Host defaults (editor settings), under any config file. */
  baseConfig?: ConfigOverrides;
  /** A config file that replaces discovery (the CLI's `--config`). */
  configUri?: string;
  /** Texts that win over the file system (open editor buffers), with their versions. */
  overlays?: Map<string, { text: string; version?: number }>;
  /** Workspace roots that referenced files may not leave (the editor). Unset: no restriction. */
  confineTo?: string[];
  /** Stops walking when it returns true (a cancelled editor request). */
  isCancelled?: () => boolean;
  /**
   * Files larger than this many bytes (an open buffer: characters) are not parsed; they get one
   * `parse-error` naming the limit instead. Unset: no limit (the CLI). The editor passes
   * `litmus.maxFileSize` (default 5 MB).
   */
  maxFileSize?: number;
  /**
   * The last load of the same roots: the index is updated from its index when only the contents
   * of some files changed (see buildIndex).
   */
  previous?: LoadResult;
}

export interface LoadResult {
  index: WorkspaceIndex;
  /**
   * Files read outside the given roots: tool files that cases reference, and config or harness
   * files found up the tree. The CLI says so, since the user did not name them.
   */
  readOutsideRoots: string[];
  /**
   * What was not read because it leaves the confinement roots (`confineTo`), lexically or through
   * a symbolic link: referenced files, and linked folders or files met while walking.
   */
  refused: string[];
  /** Files given by name that are no LITMUS file kind (by name or `$schema`). */
  skipped: string[];
  /** Files above `maxFileSize`, not parsed (those with a LITMUS kind get a `parse-error`). */
  oversized: string[];
  /**
   * Files met while walking a given folder whose symbolic links lead outside the given paths: read
   * (the CLI says so), unless `confineTo` refuses them. Folders linked out are never walked: they
   * are in `refused`.
   */
  linkedOutside?: string[];
  /**
   * Referenced paths that are folders (`"tools": ["tools#send_email"]` beside a `tools/` folder):
   * their cases' `unresolved-reference` says so, and no document stands in for them.
   */
  folderTargets?: string[];
}

/** How a load read its files, so that `reloadFiles` can read some of them again the same way. */
interface LoadMemory {
  /** The options that shape what is read, as text. */
  key: string;
  roots: string[];
  /** The kind each document was read as (undefined: by name, else by `$schema`). */
  readAs: Map<string, FileKind | undefined>;
  /** Files named directly, and referenced files: statted before they are read. */
  statFirst: Set<string>;
  referenced: Set<string>;
  indexOptions: IndexOptions;
}

const memories = new WeakMap<LoadResult, LoadMemory>();

function optionsKey(roots: string[], options: LoadOptions): string {
  return JSON.stringify([roots, options.baseConfig ?? null, options.configUri ?? null, options.confineTo ?? null, options.maxFileSize ?? null]);
}

/** The setting that sets `maxFileSize` in the editor; named in the notice so the user can find it. */
export const MAX_FILE_SIZE_SETTING = 'litmus.maxFileSize';

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** Stands in for a file too large to lint: one notice at its start, nothing parsed. */
export function oversizedDocument(uri: string, kind: FileKind, size: number, limit: number, text = '', version?: number): SuiteDocument {
  return {
    uri,
    kind,
    text,
    version,
    lines: new LineIndex(text),
    parsed: {
      roots: [],
      issues: [
        {
          offset: 0,
          length: 0,
          message: `file is ${formatSize(size)}, above the ${formatSize(limit)} limit, so it is not linted; raise the setting ${MAX_FILE_SIZE_SETTING} to lint it`,
        },
      ],
    },
  };
}

/**
 * A file whose bytes are not UTF-8: shown as decoded (U+FFFD for each bad sequence) so the one
 * `parse-error` sits on the first bad byte, as it does on a NUL; nothing is parsed, so no rule reads
 * it and no fix edits it.
 */
function notUtf8Document(uri: string, kind: FileKind, bad: NotUtf8): SuiteDocument {
  // A binary file (an image saved under a suite name) is named as one, at its first NUL, as it is when it happens to be UTF-8.
  const nul = bad.text.indexOf('\u0000');
  const issue = nul >= 0 ? { offset: nul, length: 1, message: NUL_MESSAGE } : { offset: bad.charOffset, length: 1, message: `${bad.reason}: this file is not UTF-8 text, so it is not linted or fixed; save it as UTF-8` };
  return { uri, kind, text: bad.text, lines: new LineIndex(bad.text), parsed: { roots: [], issues: [issue] } };
}

/**
 * The last stand-in built per file (over the size limit, or unreadable). Loads after an edit give
 * the same object back while nothing about the file changed, so the index and the incremental
 * linter see it as unchanged, as they do a document whose text is unchanged.
 */
const standIns = new Map<string, { key: string; doc: SuiteDocument }>();

function standIn(uri: string, key: string, text: string, build: () => SuiteDocument): SuiteDocument {
  const last = standIns.get(uri);
  if (last?.key === key && last.doc.text === text) return last.doc;
  const doc = build();
  standIns.set(uri, { key, doc });
  return doc;
}

/**
 * Forgets what is kept per file across loads (the last document, its tool models, its stand-in)
 * for a file whose editor buffer closed. Kept, an unsaved buffer's text would outlive it: a server
 * that opens and closes a thousand buffers would hold a thousand texts.
 */
export function forgetFile(uri: string): void {
  const u = normalizeUri(uri);
  for (const key of new Set([uri, u])) {
    forgetDocument(key);
    forgetTools(key);
    standIns.delete(key);
  }
}

/** Where reading may go: everywhere (the CLI), or only inside the confinement roots (the editor). */
interface Reader {
  fs: FileSystem;
  options: LoadOptions;
  errors: Map<string, string>;
  oversized: string[];
  refused: string[];
  /**
   * Referenced paths that are folders: their read error is the reference's to report, and they
   * get no stand-in document, since there is no file to show a `parse-error` in.
   */
  folders: Set<string>;
  /** Real (link-resolved) confinement roots, computed once. */
  realRoots?: string[];
  /** Real (link-resolved) given roots, when the host resolves links: the walk does not leave them. */
  givenReal?: string[];
  linkedOutside: string[];
}

/** True when `real` (a link-resolved URI) lies under one of the given roots, as written or resolved. */
function insideGiven(reader: Reader, real: string, roots: readonly string[]): boolean {
  return (reader.givenReal ?? []).some((r) => isUnder(real, r)) || roots.some((r) => isUnder(real, r));
}

async function realOf(fs: FileSystem, uri: string): Promise<string | undefined> {
  if (!fs.realUri) return undefined;
  try {
    return normalizeUri(await fs.realUri(uri));
  } catch {
    return undefined;
  }
}

/**
 * True when `uri` may be read: no confinement, or it lies inside a confinement root both as
 * written and, when the host resolves links, where its symbolic links lead. `knownReal` is its real
 * path when the caller has it already (a file that is no link, in a folder whose real path is known).
 */
async function allowed(reader: Reader, uri: string, knownReal?: string): Promise<boolean> {
  const roots = reader.options.confineTo;
  if (!roots) return true;
  if (!roots.some((r) => isUnder(uri, normalizeUri(r)))) return false;
  const real = knownReal ?? (await realOf(reader.fs, uri));
  if (real === undefined) return true;
  return (reader.realRoots ?? []).some((r) => isUnder(real, r)) || roots.some((r) => isUnder(real, normalizeUri(r)));
}

/** True for names that could be suite files; plain `.json` files are read to check `$schema`. */
function candidate(name: string): boolean {
  return kindFromName(name) !== undefined || /\.jsonc?$/i.test(name);
}

async function walk(reader: Reader, dir: string, out: string[], seen: Set<string>, roots: readonly string[]): Promise<void> {
  const { fs, errors } = reader;
  const isCancelled = reader.options.isCancelled;
  const resolved = await realOf(fs, dir);
  const real = resolved ?? dir;
  // A symbolic link back up the tree would otherwise be walked forever.
  if (seen.has(real)) return;
  seen.add(real);
  // A linked folder that leads out of the given paths is never walked (a link to `/` would walk
  // the whole file system); a given root is walked wherever it resolves.
  if (resolved !== undefined && !roots.includes(dir) && !insideGiven(reader, resolved, roots)) {
    reader.refused.push(normalizeUri(dir));
    return;
  }
  // A linked folder that leads out of the workspace is not read in the editor.
  if (!(await allowed(reader, dir))) {
    reader.refused.push(normalizeUri(dir));
    return;
  }
  let entries: DirEntry[];
  try {
    entries = await fs.readDirectory(dir);
  } catch (e) {
    errors.set(dir, errorText(e));
    return;
  }
  // By code point, as path order compares names: a walk lists a folder's files in path order.
  entries.sort((a, b) => compareCodePoints(a[0], b[0]));
  for (const [name, type, link] of entries) {
    if (isCancelled?.()) return;
    const uri = joinUri(dir, name);
    if (type === 'directory') {
      if (!SKIPPED_DIRS.has(name)) await walk(reader, uri, out, seen, roots);
    } else if (type === 'file' && candidate(name)) {
      // A file the host says is no link lies where its folder really is: one real-path lookup per
      // folder, not one per file.
      const needReal = reader.options.confineTo !== undefined || reader.givenReal !== undefined;
      const fileReal = !needReal ? undefined : link === false && resolved !== undefined ? normalizeUri(joinUri(resolved, name)) : await realOf(fs, uri);
      if (reader.options.confineTo && !(await allowed(reader, uri, fileReal))) reader.refused.push(normalizeUri(uri));
      else {
        out.push(normalizeUri(uri));
        // A file linked from outside is read, and said: the user did not name it.
        if (reader.givenReal && fileReal !== undefined && !insideGiven(reader, fileReal, roots)) reader.linkedOutside.push(normalizeUri(uri));
      }
    } else if (type === 'other' && name.includes('\uFFFD')) {
      // The host lists a name whose bytes are not UTF-8 under a lossy spelling: it cannot be
      // opened by that name, so say so rather than skip it in silence.
      errors.set(normalizeUri(uri), 'its name is not valid UTF-8, so it cannot be read; rename it');
    } else if (type === 'other' && kindFromName(name)) {
      // A link that points nowhere, a socket, a device: named like a suite file, so say why it is skipped.
      errors.set(normalizeUri(uri), 'not a regular file (a broken link?)');
    }
  }
}

export function errorText(e: unknown): string {
  const err = e as { code?: string; message?: string };
  if (isNotUtf8(e)) return e.reason;
  if (err && typeof err.code === 'string') {
    const what: Record<string, string> = {
      ENOENT: 'no such file',
      EACCES: 'permission denied',
      EISDIR: 'is a directory',
      ELOOP: 'too many levels of symbolic links',
      EPERM: 'operation not permitted',
      ENOTFILE: 'not a regular file',
      ESPECIALFS: 'on a pseudo file system (procfs, sysfs, ...), not a data file',
      EFBIG: 'larger than the read limit',
    };
    return what[err.code] ?? err.code;
  }
  return err?.message ?? String(e);
}

/** Records a file over the limit; a reference to it then says why it was not read. */
function tooBig(reader: Reader, uri: string, kind: FileKind | undefined, limit: number): FileKind | undefined {
  reader.oversized.push(uri);
  const k = kind ?? kindFromName(uri);
  if (k) reader.errors.set(uri, `larger than the ${formatSize(limit)} limit (setting ${MAX_FILE_SIZE_SETTING})`);
  return k;
}

/**
 * Reads one file into a document. `checkFirst` stats it before reading: referenced paths are
 * written by suite authors and may name a device, a pipe or a huge file; walked files were typed
 * by the directory listing already, so they are statted only when a size limit applies.
 */
async function readDoc(reader: Reader, uri: string, kind: FileKind | undefined, checkFirst = false): Promise<SuiteDocument | undefined> {
  const { fs, options, errors } = reader;
  const limit = options.maxFileSize;
  const overlay = options.overlays?.get(uri);
  if (overlay) {
    if (limit !== undefined && overlay.text.length > limit) {
      const k = tooBig(reader, uri, kind, limit);
      const key = JSON.stringify(['oversized', k, overlay.text.length, limit, overlay.version ?? null]);
      return k ? standIn(uri, key, overlay.text, () => oversizedDocument(uri, k, overlay.text.length, limit, overlay.text, overlay.version)) : undefined;
    }
    return createDocument(uri, overlay.text, kind, overlay.version);
  }
  try {
    if (checkFirst || limit !== undefined) {
      const st = await fs.stat(uri);
      if (!st) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
      if (st.type === 'directory') {
        reader.folders.add(uri);
        throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
      }
      if (st.type !== 'file') throw Object.assign(new Error('not a regular file'), { code: 'ENOTFILE' });
      if (limit !== undefined && st.size > limit) {
        const k = tooBig(reader, uri, kind, limit);
        return k ? standIn(uri, JSON.stringify(['oversized', k, st.size, limit]), '', () => oversizedDocument(uri, k, st.size, limit)) : undefined;
      }
    }
    // The limit bounds the read itself: a size on record of 0 (procfs) or a file that grew since
    // the stat cannot make the read run past it.
    let text: string;
    try {
      text = await fs.readFile(uri, limit !== undefined ? { maxBytes: limit } : undefined);
    } catch (e) {
      if (limit === undefined || (e as { code?: string })?.code !== 'EFBIG') throw e;
      const k = tooBig(reader, uri, kind, limit);
      return k ? standIn(uri, JSON.stringify(['oversized', k, limit + 1, limit]), '', () => oversizedDocument(uri, k, limit + 1, limit)) : undefined;
    }
    return createDocument(uri, text, kind);
  } catch (e) {
    if (isNotUtf8(e)) {
      const k = kind ?? detectKind(uri, e.text);
      if (k) return standIn(uri, JSON.stringify(['not-utf8', k, e.reason]), e.text, () => notUtf8Document(uri, k, e));
    }
    // Nothing there is not a read error: `unresolved-reference` reports a missing target.
    const missing = (e as { code?: string })?.code === 'ENOENT';
    if (!missing && (kind || kindFromName(uri))) errors.set(uri, errorText(e));
    return undefined;
  }
}

/** Reads in flight at once: enough to keep the disk busy while the CPU parses what has arrived. */
const READ_CONCURRENCY = 16;

/** `work` over every item, a few at a time; results in the items' order, whatever order they finish in. */
async function inParallel<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, items.length) }, worker));
  return out;
}

/**
 * Reads every suite file under the given roots (folders or files), then the tool files their cases
 * reference, then the config and harness files up the tree, and indexes them.
 */
export async function loadWorkspace(fs: FileSystem, roots: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const readErrors = new Map<string, string>();
  const reader: Reader = { fs, options, errors: readErrors, oversized: [], refused: [], folders: new Set(), linkedOutside: [] };
  if (options.confineTo) {
    const real = await Promise.all(options.confineTo.map((r) => realOf(fs, normalizeUri(r))));
    reader.realRoots = real.filter((r): r is string => r !== undefined);
  }
  const normRoots = roots.map(normalizeUri);
  if (fs.realUri) {
    const real = await Promise.all(normRoots.map((r) => realOf(fs, r)));
    reader.givenReal = real.filter((r): r is string => r !== undefined);
  }
  const files: string[] = [];
  const seenDirs = new Set<string>();
  const explicit = new Set<string>();
  const skipped: string[] = [];
  for (const root of normRoots) {
    const st = await fs.stat(root).catch(() => undefined);
    if (!st) {
      readErrors.set(root, 'no such file or folder');
    } else if (st.type === 'directory') {
      await walk(reader, root, files, seenDirs, normRoots);
    } else {
      files.push(root);
      explicit.add(root);
    }
  }

  const docs = new Map<string, SuiteDocument>();
  const unique = [...new Set(files)];
  const read = await inParallel(unique, (uri) => readDoc(reader, uri, kindFromName(uri), explicit.has(uri)));
  const readAs = new Map<string, FileKind | undefined>();
  unique.forEach((uri, i) => {
    const doc = read[i];
    if (doc) {
      docs.set(uri, doc);
      readAs.set(uri, kindFromName(uri));
    } else if (explicit.has(uri) && !readErrors.has(uri) && !reader.oversized.includes(uri)) skipped.push(uri);
  });

  const statFirst = new Set(explicit);
  // Referenced files: read as tool-schema (or environment) files whatever their name, since a case
  // names them so; a name that says its kind wins.
  const readOutsideRoots: string[] = [];
  const refusedTargets = new Set<string>();
  const referenced = referencedToolFiles(docs.values());
  const environments = referencedEnvironmentFiles(docs.values());
  const referencedKind = (uri: string): FileKind => kindFromName(uri) ?? (environments.has(uri) ? 'environment' : 'tools');
  // In path order, not in the order cases name them: a reload after an edit that reorders the
  // references keeps the documents where a fresh load puts them.
  for (const target of [...referenced].sort(comparePathOrder)) {
    if (docs.has(target) || readErrors.has(target)) continue;
    if (!(await allowed(reader, target))) {
      reader.refused.push(target);
      refusedTargets.add(target);
      continue;
    }
    const kind = referencedKind(target);
    const doc = await readDoc(reader, target, kind, true);
    if (!doc) {
      // A missing target is `unresolved-reference`'s to report; other failures are read errors.
      continue;
    }
    docs.set(target, doc);
    readAs.set(target, kind);
    statFirst.add(target);
    const targetReal = reader.givenReal ? await realOf(fs, target) : undefined;
    if (!normRoots.some((r) => isUnder(target, r)) || (targetReal !== undefined && !insideGiven(reader, targetReal, normRoots))) readOutsideRoots.push(target);
  }

  let configOverride: ConfigOverrides | undefined;
  if (options.configUri) {
    const uri = normalizeUri(options.configUri);
    const doc = await readDoc(reader, uri, 'config', true);
    if (doc) {
      docs.set(uri, doc);
      configOverride = readConfig(doc);
    }
  } else {
    await discoverUpward(reader, docs, 'litmus.config.json', 'config', normRoots, readOutsideRoots);
  }
  await discoverUpward(reader, docs, 'litmus.harness.json', 'harness', normRoots, readOutsideRoots);

  // Unreadable suite files get a stand-in document, so `parse-error` reports them in place.
  for (const [uri, reason] of readErrors) {
    if (docs.has(uri) || reader.folders.has(uri)) continue;
    const kind = referenced.has(uri) ? referencedKind(uri) : kindFromName(uri);
    if (kind) docs.set(uri, standIn(uri, JSON.stringify(['unreadable', kind, reason]), '', () => unreadableDocument(uri, kind, reason)));
  }

  const indexOptions: IndexOptions = {
    roots: normRoots,
    readErrors,
    baseConfig: options.baseConfig,
    configOverride,
    confineTo: options.confineTo,
    outsideWorkspace: refusedTargets,
  };
  const index = buildIndex(docs.values(), indexOptions, options.previous?.index);
  // A file named whose name marks no kind is still read when a case references it (as its tools or
  // its environment): it is linted then, and saying it was skipped would be false.
  const notRead = skipped.filter((uri) => !docs.has(uri));
  const result: LoadResult = { index, readOutsideRoots, refused: reader.refused, skipped: notRead, oversized: reader.oversized, linkedOutside: reader.linkedOutside, folderTargets: [...reader.folders] };
  memories.set(result, { key: optionsKey(normRoots, options), roots: normRoots, readAs, statFirst, referenced, indexOptions });
  return result;
}

/** Names whose files are found by looking up the tree, not by walking it. */
const DISCOVERED = new Set(['litmus.config.json', 'litmus.harness.json']);

/**
 * The previous load with the files in `changed` read again, for a host that knows which files
 * changed (the editor: buffer edits and file-watch events). Undefined when the change can alter
 * what is loaded rather than what a file says: a file appears, disappears, changes kind, fails to
 * read or grows past the size limit, a config or harness file changes, the tool files the cases
 * reference change, or the options differ. The host then calls loadWorkspace, which gives the same
 * result either way. Files that no load would read (not LITMUS-named, outside the roots and
 * referenced by nothing) are ignored.
 */
export async function reloadFiles(fs: FileSystem, previous: LoadResult, changed: Iterable<string>, options: LoadOptions = {}): Promise<LoadResult | undefined> {
  const memory = memories.get(previous);
  if (!memory || memory.key !== optionsKey(memory.roots, options)) return undefined;
  const before = previous.index;
  const reader: Reader = { fs, options, errors: new Map(), oversized: [], refused: [], folders: new Set(), linkedOutside: [] };
  if (options.confineTo) {
    const real = await Promise.all(options.confineTo.map((r) => realOf(fs, normalizeUri(r))));
    reader.realRoots = real.filter((r): r is string => r !== undefined);
  }
  let docs: Map<string, SuiteDocument> | undefined;
  // The documents read again with new text: only these can reference other files than before.
  const reread: [string, SuiteDocument][] = [];
  for (const raw of new Set([...changed].map(normalizeUri))) {
    const doc = before.docs.get(raw);
    if (!doc) {
      if (before.readErrors.has(raw) || previous.oversized.includes(raw) || previous.refused.includes(raw) || memory.referenced.has(raw)) return undefined;
      const name = raw.slice(raw.lastIndexOf('/') + 1);
      if (DISCOVERED.has(name)) return undefined;
      const walked = memory.roots.some((r) => isUnder(raw, r)) && !raw.split('/').some((part) => SKIPPED_DIRS.has(part));
      if (walked && candidate(name)) return undefined;
      continue;
    }
    if (doc.kind === 'config' || doc.kind === 'harness' || before.readErrors.has(raw)) return undefined;
    // Read only where a walk would read: the file may have become a link that leads out.
    if (!(await allowed(reader, raw))) return undefined;
    const kind = memory.readAs.get(raw);
    const fresh = await readDoc(reader, raw, kind, memory.statFirst.has(raw));
    if (!fresh || fresh.kind !== doc.kind || reader.errors.size || reader.oversized.length) return undefined;
    // A file read only because a case names it, which a walk would now find by its `$schema`,
    // moves to the walk's place among the documents: load afresh.
    if (kind !== undefined && kindFromName(raw) === undefined && memory.roots.some((r) => isUnder(raw, r)) && detectKind(raw, fresh.text) !== undefined) return undefined;
    if (fresh === doc) continue;
    docs ??= new Map(before.docs);
    docs.set(raw, fresh);
    reread.push([raw, fresh]);
  }
  if (!docs) return previous;
  // The referenced files stay the same while every re-read file references what it did.
  const same = (a: readonly string[], b: readonly string[]) => {
    if (a === b) return true;
    const set = new Set(b);
    return a.length === b.length && a.every((t) => set.has(t));
  };
  if (!reread.every(([uri, doc]) => same(referencedBy(before.docs.get(uri)!), referencedBy(doc)))) {
    const referenced = referencedToolFiles(docs.values());
    if (referenced.size !== memory.referenced.size || [...referenced].some((t) => !memory.referenced.has(t))) return undefined;
  }
  const index = reindex(before, docs, reread, memory.indexOptions);
  const result: LoadResult = { ...previous, index };
  memories.set(result, memory);
  return result;
}

/** Loads the nearest `name` above every loaded document, once per folder. */
async function discoverUpward(
  reader: Reader,
  docs: Map<string, SuiteDocument>,
  name: string,
  kind: FileKind,
  roots: string[],
  readOutsideRoots: string[],
): Promise<void> {
  const { fs, options } = reader;
  const checked = new Set<string>();
  for (const doc of [...docs.values()]) {
    let dir = normalizeUri(dirnameUri(doc.uri));
    while (!checked.has(dir)) {
      checked.add(dir);
      if (options.confineTo && !options.confineTo.some((r) => isUnder(dir, normalizeUri(r)))) break;
      const uri = normalizeUri(joinUri(dir, name));
      if (docs.has(uri)) break;
      const st = await fs.stat(uri).catch(() => undefined);
      if (st?.type === 'file') {
        if (!(await allowed(reader, uri))) {
          reader.refused.push(uri);
          break;
        }
        const found = await readDoc(reader, uri, kind);
        if (found) {
          docs.set(uri, found);
          if (!roots.some((r) => isUnder(uri, r))) readOutsideRoots.push(uri);
        }
        break;
      }
      const parent = normalizeUri(dirnameUri(dir));
      if (parent === dir) break;
      dir = parent;
    }
  }
}
