import { readConfig, type ConfigOverrides } from './config';
import { createDocument, unreadableDocument, type SuiteDocument } from './document';
import type { FileSystem } from './fs';
import { kindFromName, type FileKind } from './kinds';
import { dirnameUri, isUnder, joinUri, normalizeUri } from './uri';
import { buildIndex, referencedToolFiles, type WorkspaceIndex } from './workspace';

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
}

export interface LoadResult {
  index: WorkspaceIndex;
  /** Files read because something referenced them, outside the given roots. */
  readOutsideRoots: string[];
  /** References that would leave the confinement roots and were not read. */
  refused: string[];
  /** Files given by name that are no LITMUS file kind (by name or `$schema`). */
  skipped: string[];
}

/** True for names that could be suite files; plain `.json` files are read to check `$schema`. */
function candidate(name: string): boolean {
  return kindFromName(name) !== undefined || /\.jsonc?$/i.test(name);
}

async function walk(fs: FileSystem, dir: string, out: string[], seen: Set<string>, errors: Map<string, string>, isCancelled?: () => boolean): Promise<void> {
  let real = dir;
  if (fs.realUri) {
    try {
      real = normalizeUri(await fs.realUri(dir));
    } catch {
      real = dir;
    }
  }
  // A symbolic link back up the tree would otherwise be walked forever.
  if (seen.has(real)) return;
  seen.add(real);
  let entries: [string, string][];
  try {
    entries = await fs.readDirectory(dir);
  } catch (e) {
    errors.set(dir, errorText(e));
    return;
  }
  entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  for (const [name, type] of entries) {
    if (isCancelled?.()) return;
    const uri = joinUri(dir, name);
    if (type === 'directory') {
      if (!SKIPPED_DIRS.has(name)) await walk(fs, uri, out, seen, errors, isCancelled);
    } else if (type === 'file' && candidate(name)) {
      out.push(normalizeUri(uri));
    } else if (type === 'other' && kindFromName(name)) {
      // A link that points nowhere, a socket, a device: named like a suite file, so say why it is skipped.
      errors.set(normalizeUri(uri), 'not a regular file (a broken link?)');
    }
  }
}

export function errorText(e: unknown): string {
  const err = e as { code?: string; message?: string };
  if (err && typeof err.code === 'string') {
    const what: Record<string, string> = {
      ENOENT: 'no such file',
      EACCES: 'permission denied',
      EISDIR: 'is a directory',
      ELOOP: 'too many levels of symbolic links',
      EPERM: 'operation not permitted',
    };
    return what[err.code] ?? err.code;
  }
  return err?.message ?? String(e);
}

async function readDoc(
  fs: FileSystem,
  uri: string,
  kind: FileKind | undefined,
  overlays: LoadOptions['overlays'],
  errors: Map<string, string>,
): Promise<SuiteDocument | undefined> {
  const overlay = overlays?.get(uri);
  if (overlay) return createDocument(uri, overlay.text, kind, overlay.version);
  try {
    const text = await fs.readFile(uri);
    return createDocument(uri, text, kind);
  } catch (e) {
    // Nothing there is not a read error: `unresolved-reference` reports a missing target.
    const missing = (e as { code?: string })?.code === 'ENOENT';
    if (!missing && (kind || kindFromName(uri))) errors.set(uri, errorText(e));
    return undefined;
  }
}

/**
 * Reads every suite file under the given roots (folders or files), then the tool files their cases
 * reference, then the config and harness files up the tree, and indexes them.
 */
export async function loadWorkspace(fs: FileSystem, roots: string[], options: LoadOptions = {}): Promise<LoadResult> {
  const readErrors = new Map<string, string>();
  const normRoots = roots.map(normalizeUri);
  const files: string[] = [];
  const seenDirs = new Set<string>();
  const explicit = new Set<string>();
  const skipped: string[] = [];
  for (const root of normRoots) {
    const st = await fs.stat(root).catch(() => undefined);
    if (!st) {
      readErrors.set(root, 'no such file or folder');
    } else if (st.type === 'directory') {
      await walk(fs, root, files, seenDirs, readErrors, options.isCancelled);
    } else {
      files.push(root);
      explicit.add(root);
    }
  }

  const docs = new Map<string, SuiteDocument>();
  for (const uri of files) {
    if (docs.has(uri)) continue;
    const doc = await readDoc(fs, uri, kindFromName(uri), options.overlays, readErrors);
    if (doc) docs.set(uri, doc);
    else if (explicit.has(uri) && !readErrors.has(uri)) skipped.push(uri);
  }

  // Referenced tool files: read as tool-schema files whatever their name, since a case names them so.
  const readOutsideRoots: string[] = [];
  const refused: string[] = [];
  const referenced = referencedToolFiles(docs.values());
  for (const target of referenced) {
    if (docs.has(target) || readErrors.has(target)) continue;
    if (options.confineTo && !options.confineTo.some((r) => isUnder(target, normalizeUri(r)))) {
      refused.push(target);
      continue;
    }
    const doc = await readDoc(fs, target, 'tools', options.overlays, readErrors);
    if (!doc) {
      // A missing target is `unresolved-reference`'s to report; other failures are read errors.
      continue;
    }
    docs.set(target, doc);
    if (!normRoots.some((r) => isUnder(target, r))) readOutsideRoots.push(target);
  }

  let configOverride: ConfigOverrides | undefined;
  if (options.configUri) {
    const uri = normalizeUri(options.configUri);
    const doc = await readDoc(fs, uri, 'config', options.overlays, readErrors);
    if (doc) {
      docs.set(uri, doc);
      configOverride = readConfig(doc);
    }
  } else {
    await discoverUpward(fs, docs, 'litmus.config.json', 'config', options, readErrors);
  }
  await discoverUpward(fs, docs, 'litmus.harness.json', 'harness', options, readErrors);

  // Unreadable suite files get a stand-in document, so `parse-error` reports them in place.
  for (const [uri, reason] of readErrors) {
    if (docs.has(uri)) continue;
    const kind = kindFromName(uri) ?? (referenced.has(uri) ? 'tools' : undefined);
    if (kind) docs.set(uri, unreadableDocument(uri, kind, reason));
  }

  const index = buildIndex(docs.values(), { roots: normRoots, readErrors, baseConfig: options.baseConfig, configOverride });
  return { index, readOutsideRoots, refused, skipped };
}

/** Loads the nearest `name` above every loaded document, once per folder. */
async function discoverUpward(
  fs: FileSystem,
  docs: Map<string, SuiteDocument>,
  name: string,
  kind: FileKind,
  options: LoadOptions,
  readErrors: Map<string, string>,
): Promise<void> {
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
        const found = await readDoc(fs, uri, kind, options.overlays, readErrors);
        if (found) docs.set(uri, found);
        break;
      }
      const parent = normalizeUri(dirnameUri(dir));
      if (parent === dir) break;
      dir = parent;
    }
  }
}
