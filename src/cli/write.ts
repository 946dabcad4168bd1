import { promises as fsp } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { decodeUtf8 } from '../node/utf8';

export interface WriteOptions {
  /**
   * The text the new one was made from (`--fix`: the file as it was read, without its BOM). Just
   * before the rename the file is read again, and if it no longer holds exactly this text (an
   * editor saved it meanwhile, or it is not UTF-8) nothing is written: the write rejects with code
   * `ECHANGED` and the file keeps what is there now. Editors make the same check before a save.
   */
  expect?: string;
}

/** The file changed on disk after it was read: a fix made from the old text would undo that change. */
export class ChangedOnDiskError extends Error {
  readonly code = 'ECHANGED';
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path} ${why}`);
  }
}

/**
 * Writes a file as `--fix` and `--output` need it: all or nothing. The text goes to a temporary
 * file in the same folder (so the rename cannot cross file systems), is flushed, and replaces the
 * target with one rename: a full disk or a crash leaves the original whole, never half-written JSON.
 * The target's mode is kept, and a file that had a byte-order mark keeps it (the reader drops it).
 * A symbolic link is written through to the file it names, not replaced by a plain file: callers
 * decide beforehand whether that file may be written at all.
 */
export async function writeFileAtomic(path: string, text: string | Iterable<string>, options: WriteOptions = {}): Promise<void> {
  const target = await fsp.realpath(path).catch(() => path);
  await fsp.mkdir(dirname(target), { recursive: true });
  const old = await fsp.stat(target).catch(() => undefined);
  const head = old?.isFile() ? await readHead(target) : undefined;
  const pieces = typeof text === 'string' ? [text] : text;
  let first = true;
  const hadBom = head !== undefined && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, 'wx', old?.isFile() ? old.mode & 0o7777 : 0o666);
    for (const piece of pieces) {
      const bom = first && hadBom && !piece.startsWith('\ufeff');
      first = false;
      await handle.writeFile(bom ? '\ufeff' + piece : piece, 'utf8');
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    if (old?.isFile()) await fsp.chmod(temp, old.mode & 0o7777);
    // Last thing before the rename, so the window for a save to slip in is as small as it can be.
    if (options.expect !== undefined) await checkUnchanged(target, options.expect);
    await fsp.rename(temp, target);
  } catch (e) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw e;
  }
}

async function checkUnchanged(target: string, expect: string): Promise<void> {
  let bytes: Uint8Array;
  try {
    bytes = await fsp.readFile(target);
  } catch {
    throw new ChangedOnDiskError(target, 'is gone');
  }
  const now = decodeUtf8(bytes);
  if (!now.ok) throw new ChangedOnDiskError(target, `is ${now.message}`);
  if (now.text !== expect) throw new ChangedOnDiskError(target, 'changed on disk while the lint ran');
}

async function readHead(path: string): Promise<Uint8Array | undefined> {
  const h = await fsp.open(path, 'r').catch(() => undefined);
  if (!h) return undefined;
  try {
    const buf = new Uint8Array(3);
    const { bytesRead } = await h.read(buf, 0, 3, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}
