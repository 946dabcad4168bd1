/**
 * The only way core reaches files. The CLI passes a Node implementation, the language server one
 * that prefers open editor buffers, tests an in-memory one; a web extension can pass workspace.fs.
 */
export type EntryType = 'file' | 'directory' | 'other';

/**
 * A directory entry: its name, its type (a symbolic link's is its target's), and, when the host
 * knows it, whether the entry is a symbolic link. A walk that knows an entry is none takes its real
 * path from its folder's, rather than asking the host once per file.
 */
export type DirEntry = [name: string, type: EntryType, link?: boolean];

export interface FileSystem {
  /**
   * The file's text (UTF-8). Rejects when the file cannot be read, and with code `EFBIG` when it
   * holds more than `maxBytes` bytes, whatever its size on record says (a procfs file says 0).
   * Bytes that are not UTF-8 reject with code `EILSEQ` and a {@link NotUtf8} shape: the loader
   * reports the first bad byte and keeps the file from every fix.
   */
  readFile(uri: string, options?: { maxBytes?: number }): Promise<string>;
  /** Entries of a directory; symbolic links report the type of their target. */
  readDirectory(uri: string): Promise<DirEntry[]>;
  /** Undefined when nothing is there (or a link points nowhere). */
  stat(uri: string): Promise<{ type: EntryType; size: number } | undefined>;
  /** The canonical URI with symbolic links resolved, when the host knows it. */
  realUri?(uri: string): Promise<string>;
}

/** What a read of a file that is not UTF-8 rejects with (code `EILSEQ`). */
export interface NotUtf8 {
  code: 'EILSEQ';
  /** "not valid UTF-8 at byte N (0xXX)", N counted from 0. */
  reason: string;
  /** The bytes decoded with U+FFFD for each bad sequence: shown, never written back. */
  text: string;
  /** Where the first bad byte sits in `text`. */
  charOffset: number;
}

export function isNotUtf8(e: unknown): e is NotUtf8 {
  const x = e as Partial<NotUtf8> | undefined;
  return !!x && x.code === 'EILSEQ' && typeof x.reason === 'string' && typeof x.text === 'string' && typeof x.charOffset === 'number';
}

/** An in-memory file system keyed by URI, for tests and for hosts that hand core plain text. */
export function memoryFileSystem(files: Record<string, string>): FileSystem {
  const map = new Map(Object.entries(files));
  const dirs = new Set<string>();
  for (const uri of map.keys()) {
    let i = uri.lastIndexOf('/');
    while (i > uri.indexOf('//') + 2) {
      dirs.add(uri.slice(0, i));
      i = uri.lastIndexOf('/', i - 1);
    }
  }
  const trim = (uri: string) => uri.replace(/\/+$/, '');
  return {
    async readFile(uri, options) {
      const text = map.get(uri);
      if (text === undefined) throw Object.assign(new Error(`ENOENT: no such file, ${uri}`), { code: 'ENOENT' });
      if (options?.maxBytes !== undefined && text.length > options.maxBytes) throw Object.assign(new Error(`file too large: ${uri}`), { code: 'EFBIG' });
      return text;
    },
    async readDirectory(uri) {
      const base = trim(uri) + '/';
      const out = new Map<string, 'file' | 'directory'>();
      for (const f of map.keys()) {
        if (!f.startsWith(base)) continue;
        const rest = f.slice(base.length);
        const slash = rest.indexOf('/');
        out.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? 'file' : 'directory');
      }
      return [...out.entries()];
    },
    async stat(uri) {
      const text = map.get(uri);
      if (text !== undefined) return { type: 'file', size: text.length };
      return dirs.has(trim(uri)) ? { type: 'directory', size: 0 } : undefined;
    },
  };
}
