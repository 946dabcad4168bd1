import { closeSync, constants, fstatSync, lstatSync, openSync, promises, readdirSync, readSync, realpathSync, statfsSync, statSync, type Dirent, type Stats } from 'node:fs';
import { type DirEntry, type EntryType, type FileSystem, fileUri, uriToPath } from '../core';
import { decodeUtf8, notUtf8Error, type Decoded } from './utf8';

type MaybePromise<T> = T | Promise<T>;

/**
 * No file is read past this many bytes, whatever the host's size limit (the CLI has none): a
 * string that long is past what V8 can hold anyway, and a file that claims to be small may not be.
 */
export const HARD_READ_LIMIT = 256 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/** Reads past the size on record (none for procfs files) are at least this big. */
const MIN_CHUNK = 64 * 1024;

/**
 * Pseudo file systems whose files are not data: their sizes on record are 0 or made up and some
 * never end (/proc/self/pagemap reads gigabytes). Files there are refused, whatever their type.
 * statfs magic numbers from Linux's magic.h.
 */
const SPECIAL_FILESYSTEMS = new Map<number, string>([
  [0x9fa0, 'procfs'],
  [0x62656572, 'sysfs'],
  [0x64626720, 'debugfs'],
  [0x74726163, 'tracefs'],
  [0x73636673, 'securityfs'],
  [0x27e0eb, 'cgroupfs'],
  [0x63677270, 'cgroup2fs'],
  [0x1cd1, 'devpts'],
  [0x62656570, 'configfs'],
  [0xcafe4a11, 'bpffs'],
  [0x6165676c, 'pstorefs'],
  [0xde5e81e4, 'efivarfs'],
  [0x65735543, 'fusectl'],
]);

/** The few calls the file system needs, in either Node flavour. */
interface Calls {
  stat(path: string): MaybePromise<Stats>;
  lstat(path: string): MaybePromise<Stats>;
  statfsType(path: string): MaybePromise<number | undefined>;
  /**
   * Opens the file without waiting (a FIFO's open would block until a writer came), checks what it
   * opened, and reads at most `maxBytes + 1` bytes of it, so a caller can tell it holds more.
   * `check` sees the opened file's own status before a byte is read, and may throw. `take` gets the
   * bytes at once, before anything else runs: they may sit in a buffer the next read reuses.
   */
  readChecked<T>(path: string, maxBytes: number, check: (st: Stats) => MaybePromise<void>, flags: number, take: (bytes: Uint8Array) => T): MaybePromise<T>;
  readdir(path: string): MaybePromise<Dirent<Buffer>[]>;
  realpath(path: string): MaybePromise<string>;
}

/** Open for reading without blocking: a FIFO or a terminal swapped in for a listed file cannot hang the read. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** A listed file is opened only if it is still no link (the open fails on one, and the path is statted first instead). */
const LISTED_FLAGS = OPEN_FLAGS | (constants.O_NOFOLLOW ?? 0);

/**
 * Paths a directory listing showed as regular files (not links). Opening one is safe without a
 * stat first: the stat guards against devices whose open does something (a tape rewinds), and the
 * listing already said what the entry is. What was opened is still checked before it is read.
 */
const listedFiles = new Set<string>();
const MAX_LISTED = 200_000;

function noteListed(path: string): void {
  if (listedFiles.size >= MAX_LISTED) listedFiles.clear();
  listedFiles.add(path);
}

/**
 * The kind of file system per device number: every file of a suite sits on one or two, and a
 * statfs per file was a system call per read for the same answer.
 */
const fsTypeByDevice = new Map<number, number | undefined>();

const fail = (message: string, code: string) => Object.assign(new Error(message), { code });

/** A directory entry's name as text, or undefined when its bytes are not UTF-8. */
function nameOf(raw: Buffer): string | undefined {
  const name = raw.toString('utf8');
  return Buffer.byteLength(name, 'utf8') === raw.length && Buffer.from(name, 'utf8').equals(raw) ? name : undefined;
}

function regular(st: Stats, path: string): void {
  if (!st.isFile()) throw fail(`not a regular file: ${path}`, st.isDirectory() ? 'EISDIR' : 'ENOTFILE');
}

function fileSystemOver(calls: Calls): FileSystem {
  /** Throws for a file on a pseudo file system; asks statfs once per device. */
  function dataFileSystem(st: Stats, path: string): MaybePromise<void> {
    const refuse = (type: number | undefined) => {
      const special = SPECIAL_FILESYSTEMS.get(type ?? -1);
      if (special) throw fail(`on ${special}, not a data file: ${path}`, 'ESPECIALFS');
    };
    if (fsTypeByDevice.has(st.dev)) return refuse(fsTypeByDevice.get(st.dev));
    const type = calls.statfsType(path);
    const keep = (t: number | undefined) => {
      fsTypeByDevice.set(st.dev, t);
      refuse(t);
    };
    return type instanceof Promise ? type.then(keep) : keep(type);
  }
  async function typeOf(path: string): Promise<EntryType | undefined> {
    try {
      const st = await calls.stat(path);
      return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
    } catch {
      // A link whose target is gone still has an entry: it is something, just not readable.
      try {
        await calls.lstat(path);
        return 'other';
      } catch {
        return undefined;
      }
    }
  }
  return {
    async readFile(uri, options) {
      const path = uriToPath(uri);
      const budget = Math.min(options?.maxBytes ?? HARD_READ_LIMIT, HARD_READ_LIMIT);
      const check = (st: Stats) => {
        regular(st, path);
        return dataFileSystem(st, path);
      };
      // Read as UTF-8 or not at all: a lossy decoding would put U+FFFD where the bytes were, and a fix
      // written back from it would destroy them.
      const take = (bytes: Uint8Array): Decoded | undefined => (bytes.length > budget ? undefined : decodeUtf8(bytes));
      // Read with a budget whatever the status says: a size on record can be 0 for a file that never ends.
      let read: { decoded: Decoded | undefined } | undefined;
      if (listedFiles.has(path)) {
        try {
          read = { decoded: await calls.readChecked(path, budget, check, LISTED_FLAGS, take) };
        } catch (e) {
          // Since listed, it became a link: read it as any path, below.
          if ((e as { code?: string })?.code !== 'ELOOP') throw e;
          listedFiles.delete(path);
        }
      }
      if (!read) {
        // Reading a FIFO or a device such as /dev/zero never ends, and opening some devices does
        // something; a suite path may name one, so a path the listing did not type is statted first.
        const st = await calls.stat(path);
        await check(st);
        read = { decoded: await calls.readChecked(path, budget, check, OPEN_FLAGS, take) };
      }
      const decoded = read.decoded;
      if (!decoded) throw fail(`file too large: ${path}`, 'EFBIG');
      if (!decoded.ok) throw notUtf8Error(path, decoded);
      return decoded.text;
    },
    async readDirectory(uri) {
      const dir = uriToPath(uri);
      const entries = await calls.readdir(dir);
      const out: DirEntry[] = [];
      for (const e of entries) {
        const name = nameOf(e.name);
        // A name that is not UTF-8 cannot be spelled in a URI that leads back to it: listed as
        // `other` under its lossy spelling (with U+FFFD), so the walk can name what it skipped.
        if (name === undefined) out.push([e.name.toString('utf8'), 'other']);
        else if (e.isFile()) {
          noteListed(`${dir}/${name}`);
          out.push([name, 'file', false]);
        } else if (e.isDirectory()) out.push([name, 'directory', false]);
        else if (e.isSymbolicLink()) out.push([name, (await typeOf(`${dir}/${name}`)) ?? 'other', true]);
        else out.push([name, 'other']);
      }
      return out;
    },
    async stat(uri) {
      const path = uriToPath(uri);
      const type = await typeOf(path);
      if (!type) return undefined;
      const size = type === 'file' ? (await calls.stat(path)).size : 0;
      return { type, size };
    },
    async realUri(uri) {
      return fileUri(await calls.realpath(uriToPath(uri)));
    },
  };
}

/**
 * The length of the next read: first the size on record plus one byte (to see the end of the file
 * in the same read), then as much again as was read, for a file that grows or whose size on record
 * is wrong (procfs says 0); never past the budget. Buffers are uninitialised: every byte kept was
 * read into them.
 */
function chunkLength(total: number, maxBytes: number, sizeHint: number): number {
  const want = total === 0 && sizeHint > 0 ? sizeHint + 1 : Math.max(total, MIN_CHUNK);
  return Math.max(1, Math.min(want, CHUNK, maxBytes + 1 - total));
}

function joined(chunks: Uint8Array[], total: number): Uint8Array {
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total);
}

/**
 * Whether the read that brought the total to `total` reached the end: it answered short, having
 * read exactly the size on record. The first read asks for that size plus one byte, so a file of
 * the size it claims needs no second read to show its end (one that grew fills the extra byte and
 * is read on; one whose size on record is wrong is read until a read returns nothing).
 */
const ended = (got: number, asked: number, total: number, size: number): boolean => got < asked && total === size;

async function readCheckedAsync<T>(path: string, maxBytes: number, check: (st: Stats) => MaybePromise<void>, flags: number, take: (bytes: Uint8Array) => T): Promise<T> {
  const h = await promises.open(path, flags);
  try {
    const st = await h.stat();
    await check(st);
    const chunks: Uint8Array[] = [];
    let total = 0;
    while (total <= maxBytes) {
      const buf = Buffer.allocUnsafe(chunkLength(total, maxBytes, st.size));
      const { bytesRead } = await h.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      chunks.push(buf.subarray(0, bytesRead));
      total += bytesRead;
      if (ended(bytesRead, buf.length, total, st.size)) break;
    }
    return take(joined(chunks, total));
  } finally {
    await h.close();
  }
}

/**
 * The blocking reader's first buffer, kept from one read to the next: a suite is hundreds of files
 * read one after another, and a fresh buffer for each left the process holding memory it no longer
 * used. Safe only because `take` consumes the bytes before the next read starts.
 */
let scratch: Buffer | undefined;

function readCheckedSync<T>(path: string, maxBytes: number, check: (st: Stats) => MaybePromise<void>, flags: number, take: (bytes: Uint8Array) => T): T {
  const fd = openSync(path, flags);
  try {
    const st = fstatSync(fd);
    const size = st.size;
    // The blocking flavour's calls answer at once: a check that throws throws here.
    void check(st);
    const chunks: Uint8Array[] = [];
    let total = 0;
    while (total <= maxBytes) {
      const length = chunkLength(total, maxBytes, size);
      let buf: Buffer;
      if (total === 0) {
        // Later chunks (a file over the chunk size, or one that grew) are joined into a copy.
        if (!scratch || scratch.length < length) scratch = Buffer.allocUnsafe(Math.max(length, MIN_CHUNK));
        buf = scratch.subarray(0, length);
      } else {
        buf = Buffer.allocUnsafe(length);
      }
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
      if (ended(n, buf.length, total, size)) break;
    }
    return take(joined(chunks, total));
  } finally {
    closeSync(fd);
  }
}

/**
 * One data file's text, read as the linter reads suite files, for callers that need it now (the
 * importers' reader): a regular file only (no FIFO, no device), none on a pseudo file system
 * (/proc/self/pagemap reads gigabytes), never more than `maxBytes` whatever its size on record,
 * UTF-8 or refused (never decoded lossily).
 * Throws with the same codes as `readFile` (`ENOTFILE`, `EISDIR`, `ESPECIALFS`, `EFBIG`, `EILSEQ`, ...).
 */
export function readDataFileSync(path: string, maxBytes = HARD_READ_LIMIT): string {
  const st = statSync(path);
  if (!st.isFile()) throw fail(`not a regular file: ${path}`, st.isDirectory() ? 'EISDIR' : 'ENOTFILE');
  let type: number | undefined;
  try {
    type = statfsSync(path).type;
  } catch {
    type = undefined;
  }
  const special = SPECIAL_FILESYSTEMS.get(type ?? -1);
  if (special) throw fail(`on ${special}, not a data file: ${path}`, 'ESPECIALFS');
  const budget = Math.min(maxBytes, HARD_READ_LIMIT);
  // What was opened is checked again: the path may have been swapped since the stat.
  const decoded = readCheckedSync(path, budget, (opened) => regular(opened, path), OPEN_FLAGS, (bytes) => (bytes.length > budget ? undefined : decodeUtf8(bytes)));
  if (!decoded) throw fail(`file too large: ${path}`, 'EFBIG');
  if (!decoded.ok) throw notUtf8Error(path, decoded);
  return decoded.text;
}

/** Core's FileSystem over Node's `fs` for the language server: it never blocks the event loop. */
export const nodeFileSystem: FileSystem = fileSystemOver({
  stat: (p) => promises.stat(p),
  lstat: (p) => promises.lstat(p),
  statfsType: (p) => promises.statfs(p).then((s) => s.type, () => undefined),
  readChecked: readCheckedAsync,
  readdir: (p) => promises.readdir(p, { withFileTypes: true, encoding: 'buffer' }),
  realpath: (p) => promises.realpath(p),
});

/**
 * The same over Node's synchronous calls, for one-shot processes (the CLI, the evaluator) where
 * nothing else waits on the event loop: reading a workspace of many small files takes a quarter of
 * the time the promise calls take.
 */
export const blockingFileSystem: FileSystem = fileSystemOver({
  stat: (p) => statSync(p),
  lstat: (p) => lstatSync(p),
  statfsType: (p) => {
    try {
      return statfsSync(p).type;
    } catch {
      return undefined;
    }
  },
  readChecked: readCheckedSync,
  readdir: (p) => readdirSync(p, { withFileTypes: true, encoding: 'buffer' }),
  realpath: (p) => realpathSync(p),
});
