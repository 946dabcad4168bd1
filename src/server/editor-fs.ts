import { dirnameUri, type DirEntry, type EntryType, type FileSystem, isUnder, normalizeUri } from '../core';

export interface OpenText {
  text: string;
  version: number;
}

/** What the state module needs from a file system that also knows about editor buffers. */
export interface EditorFileSystem extends FileSystem {
  /** Forgets what was cached about `uri` (and, for creations and deletions, the folder listings). */
  invalidate(uri: string, kind: 'created' | 'changed' | 'deleted'): void;
  /** Forgets everything, e.g. when the client cannot watch files for us. */
  clear(): void;
}

/**
 * The server's view of the disk: open buffers win over file contents (and exist even when unsaved),
 * and what was read is cached until a file-watch event says it changed, so a re-lint after one
 * keystroke does not re-read the whole workspace. With `caching` off every call goes to disk.
 */
export function editorFileSystem(
  base: FileSystem,
  openText: (uri: string) => OpenText | undefined,
  openUris: () => Iterable<string>,
  caching: () => boolean,
): EditorFileSystem {
  const texts = new Map<string, string>();
  const stats = new Map<string, { type: EntryType; size: number } | undefined>();
  const dirs = new Map<string, DirEntry[]>();
  const reals = new Map<string, string>();

  const statDisk = async (uri: string) => {
    if (caching() && stats.has(uri)) return stats.get(uri);
    const st = await base.stat(uri);
    if (caching()) stats.set(uri, st);
    return st;
  };

  return {
    async readFile(raw, options) {
      const uri = normalizeUri(raw);
      const open = openText(uri);
      if (open) return open.text;
      const cached = caching() ? texts.get(uri) : undefined;
      if (cached !== undefined) return cached;
      // The byte budget bounds the disk read (the loader stats against the same limit first).
      const text = await base.readFile(uri, options);
      if (caching()) texts.set(uri, text);
      return text;
    },
    async readDirectory(raw) {
      const uri = normalizeUri(raw);
      let entries = caching() ? dirs.get(uri) : undefined;
      if (!entries) {
        entries = await base.readDirectory(uri);
        if (caching()) dirs.set(uri, entries);
      }
      // Unsaved new buffers are part of the suite as the author sees it.
      const names = new Set(entries.map((e) => e[0]));
      const extra: DirEntry[] = [];
      for (const open of openUris()) {
        if (dirnameUri(open) !== uri) continue;
        const name = decodeURIComponent(open.slice(open.lastIndexOf('/') + 1));
        if (!names.has(name)) extra.push([name, 'file']);
      }
      return extra.length ? [...entries, ...extra] : entries;
    },
    async stat(raw) {
      const uri = normalizeUri(raw);
      const open = openText(uri);
      if (open) return { type: 'file', size: open.text.length };
      return statDisk(uri);
    },
    async realUri(raw) {
      const uri = normalizeUri(raw);
      const cached = caching() ? reals.get(uri) : undefined;
      if (cached) return cached;
      const real = base.realUri ? await base.realUri(uri) : uri;
      if (caching()) reals.set(uri, real);
      return real;
    },
    invalidate(raw, kind) {
      const uri = normalizeUri(raw);
      texts.delete(uri);
      stats.delete(uri);
      if (kind === 'changed') return;
      // A created or deleted path may be a folder: drop everything at or under it, and all
      // listings, since a new folder changes its parent's listing too.
      for (const map of [texts, stats, reals] as Map<string, unknown>[]) {
        for (const k of [...map.keys()]) if (isUnder(k, uri)) map.delete(k);
      }
      dirs.clear();
    },
    clear() {
      texts.clear();
      stats.clear();
      dirs.clear();
      reals.clear();
    },
  };
}
