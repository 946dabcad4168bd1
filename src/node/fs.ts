import { promises as fsp } from 'node:fs';
import type { EntryType, FileSystem } from '../core/fs';
import { fileUri, uriToPath } from '../core/uri';

async function typeOf(path: string): Promise<EntryType | undefined> {
  try {
    const st = await fsp.stat(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
  } catch (e) {
    // A link whose target is gone still has an entry: it is something, just not readable.
    try {
      await fsp.lstat(path);
      return 'other';
    } catch {
      void e;
      return undefined;
    }
  }
}

/** The core's FileSystem over Node's `fs`, for the CLI and the language server. */
export const nodeFileSystem: FileSystem = {
  async readFile(uri) {
    const path = uriToPath(uri);
    // Reading a FIFO or a device such as /dev/zero never ends; a suite path may name one.
    const st = await fsp.stat(path);
    if (!st.isFile()) {
      throw Object.assign(new Error(`not a regular file: ${path}`), { code: st.isDirectory() ? 'EISDIR' : 'ENOTFILE' });
    }
    const buf = await fsp.readFile(path);
    return new TextDecoder('utf-8').decode(buf);
  },
  async readDirectory(uri) {
    const dir = uriToPath(uri);
    const entries = await fsp.readdir(dir, { withFileTypes: true });
    const out: [string, EntryType][] = [];
    for (const e of entries) {
      if (e.isFile()) out.push([e.name, 'file']);
      else if (e.isDirectory()) out.push([e.name, 'directory']);
      else if (e.isSymbolicLink()) out.push([e.name, (await typeOf(`${dir}/${e.name}`)) ?? 'other']);
      else out.push([e.name, 'other']);
    }
    return out;
  },
  async stat(uri) {
    const path = uriToPath(uri);
    const type = await typeOf(path);
    if (!type) return undefined;
    const size = type === 'file' ? (await fsp.stat(path)).size : 0;
    return { type, size };
  },
  async realUri(uri) {
    return fileUri(await fsp.realpath(uriToPath(uri)));
  },
};
