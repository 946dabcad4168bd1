import * as nodeFs from 'node:fs';
import { type EntryType, type FileSystem, fileUri, uriToPath } from '../core';

type MaybePromise<T> = T | Promise<T>;

/** The few calls the file system needs, in either Node flavour. */
interface Calls {
  stat(path: string): MaybePromise<nodeFs.Stats>;
  lstat(path: string): MaybePromise<nodeFs.Stats>;
  readFile(path: string): MaybePromise<Uint8Array>;
  readdir(path: string): MaybePromise<nodeFs.Dirent[]>;
  realpath(path: string): MaybePromise<string>;
}

function fileSystemOver(calls: Calls): FileSystem {
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
    async readFile(uri) {
      const path = uriToPath(uri);
      // Reading a FIFO or a device such as /dev/zero never ends; a suite path may name one.
      const st = await calls.stat(path);
      if (!st.isFile()) {
        throw Object.assign(new Error(`not a regular file: ${path}`), { code: st.isDirectory() ? 'EISDIR' : 'ENOTFILE' });
      }
      return new TextDecoder('utf-8').decode(await calls.readFile(path));
    },
    async readDirectory(uri) {
      const dir = uriToPath(uri);
      const entries = await calls.readdir(dir);
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
      const size = type === 'file' ? (await calls.stat(path)).size : 0;
      return { type, size };
    },
    async realUri(uri) {
      return fileUri(await calls.realpath(uriToPath(uri)));
    },
  };
}

/** Core's FileSystem over Node's `fs` for the language server: it never blocks the event loop. */
export const nodeFileSystem: FileSystem = fileSystemOver({
  stat: (p) => nodeFs.promises.stat(p),
  lstat: (p) => nodeFs.promises.lstat(p),
  readFile: (p) => nodeFs.promises.readFile(p),
  readdir: (p) => nodeFs.promises.readdir(p, { withFileTypes: true }),
  realpath: (p) => nodeFs.promises.realpath(p),
});

/**
 * The same over Node's synchronous calls, for one-shot processes (the CLI, the evaluator) where
 * nothing else waits on the event loop: reading a workspace of many small files takes a quarter of
 * the time the promise calls take.
 */
export const blockingFileSystem: FileSystem = fileSystemOver({
  stat: (p) => nodeFs.statSync(p),
  lstat: (p) => nodeFs.lstatSync(p),
  readFile: (p) => nodeFs.readFileSync(p),
  readdir: (p) => nodeFs.readdirSync(p, { withFileTypes: true }),
  realpath: (p) => nodeFs.realpathSync(p),
});
