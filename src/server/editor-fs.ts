import { dirnameUri, type DirEntry, type EntryType, type FileSystem, normalizeUri } from '../core';

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

/** The folder a URI is in, by its text (`file:///a/b` → `file:///a`); undefined at the root. */
function parentOf(uri: string): string | undefined {
  const slash = uri.lastIndexOf('/');
  // Not past the authority: `file:///a` is in `file://`, where the tree stops.
  if (slash < 0 || slash <= uri.indexOf('//') + 1) return undefined;
  return uri.slice(0, slash);
}

/**
 * The paths the caches hold, by folder, so that everything at or under a path that was created or
 * deleted is found in time proportional to what is there. Scanning every cached path per event
 * made 2,500 events in a 10,000-file workspace block the server for 20–30 s.
 */
export interface PathIndex {
  add(uri: string): void;
  /** Forgets and returns every path added at or under `uri` (and folders on the way to them). */
  takeUnder(uri: string): string[];
  clear(): void;
}

export function createPathIndex(): PathIndex {
  /** Folder → the paths and folders directly in it that lead to something added. */
  const children = new Map<string, Set<string>>();
  return {
    add(uri) {
      for (let k = uri, p = parentOf(k); p !== undefined; k = p, p = parentOf(k)) {
        let set = children.get(p);
        if (!set) children.set(p, (set = new Set()));
        // Its folder already leads here: so do all the folders above.
        if (set.has(k)) return;
        set.add(k);
      }
    },
    takeUnder(raw) {
      const root = raw.length > 1 && raw.endsWith('/') && parentOf(raw.slice(0, -1)) !== undefined ? raw.slice(0, -1) : raw;
      const out: string[] = [];
      const stack = [root];
      while (stack.length) {
        const k = stack.pop()!;
        out.push(k);
        const set = children.get(k);
        if (!set) continue;
        children.delete(k);
        for (const c of set) stack.push(c);
      }
      const p = parentOf(root);
      if (p !== undefined) children.get(p)?.delete(root);
      return out;
    },
    clear: () => children.clear(),
  };
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
  const paths = createPathIndex();

  const statDisk = async (uri: string) => {
    if (caching() && stats.has(uri)) return stats.get(uri);
    const st = await base.stat(uri);
    if (caching()) {
      stats.set(uri, st);
      paths.add(uri);
    }
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
      if (caching()) {
        texts.set(uri, text);
        paths.add(uri);
      }
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
      if (caching()) {
        reals.set(uri, real);
        paths.add(uri);
      }
      return real;
    },
    invalidate(raw, kind) {
      const uri = normalizeUri(raw);
      texts.delete(uri);
      stats.delete(uri);
      if (kind === 'changed') return;
      // A created or deleted path may be a folder: drop everything at or under it (found through
      // the index, never by a scan of every cached path), and all listings, since a new folder
      // changes its parent's listing too.
      for (const k of paths.takeUnder(uri)) {
        texts.delete(k);
        stats.delete(k);
        reals.delete(k);
      }
      dirs.clear();
    },
    clear() {
      texts.clear();
      stats.clear();
      dirs.clear();
      reals.clear();
      paths.clear();
    },
  };
}
