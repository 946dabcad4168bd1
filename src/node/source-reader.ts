import { readdirSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { readDataFileSync } from './fs';

/** No benchmark file is read past this (the largest published one is under 4 MB). */
export const IMPORT_MAX_FILE_BYTES = 64 * 1024 * 1024;

/** A file of the benchmark that is there and cannot be read; its message names it and why. */
export class SourceReadFailure extends Error {}

/** What an importer reads a benchmark through (structurally `SourceReader` of src/importers). */
export interface FolderReader {
  read(path: string): string | undefined;
  list(path: string): string[] | undefined;
}

/**
 * A reader confined to the source folder (no absolute paths, nothing above it) that reads as the
 * linter reads: regular files only, nothing on a pseudo file system, at most IMPORT_MAX_FILE_BYTES.
 * A file that is not there is `undefined` (the importer names what it needed); one that is there
 * and cannot be read throws a one-line SourceReadFailure naming it. The CLI's import, the eval and
 * the importer tests all read benchmarks through it.
 */
export function benchmarkReader(root: string): FolderReader {
  const inside = (p: string): string | undefined => {
    if (isAbsolute(p) || p.split(/[\\/]/).includes('..')) return undefined;
    return join(root, p);
  };
  return {
    read(p) {
      const full = inside(p);
      if (full === undefined) return undefined;
      try {
        return readDataFileSync(full, IMPORT_MAX_FILE_BYTES);
      } catch (e) {
        const err = e as NodeJS.ErrnoException;
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR' || err.code === 'EISDIR') return undefined;
        const why =
          err.code === 'ESPECIALFS' ? err.message.replace(/:\s.*$/, '').replace(/^on /, 'it is on ') :
          err.code === 'EFBIG' ? `larger than ${IMPORT_MAX_FILE_BYTES / 1024 / 1024} MB` :
          err.code === 'ENOTFILE' ? 'not a regular file (a FIFO, a socket or a device)' :
          err.code === 'EILSEQ' ? String((err as { reason?: string }).reason ?? 'not valid UTF-8') :
          `${err.code ?? 'error'}: ${(err.message ?? String(e)).split('\n')[0]}`;
        throw new SourceReadFailure(`cannot read ${p} in ${root}: ${why}`);
      }
    },
    list(p) {
      const full = inside(p);
      if (full === undefined) return undefined;
      try {
        return readdirSync(full).sort();
      } catch {
        return undefined;
      }
    },
  };
}
