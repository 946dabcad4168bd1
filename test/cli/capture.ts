import type { FileSystem } from '../../src/core/model/fs';
import { liveFileSystem } from '../helpers';
import { fileUri } from '../../src/core/model/uri';
import type { CliIo } from '../../src/cli/io';

export interface Captured {
  io: CliIo;
  stdout: () => string;
  stderr: () => string;
  written: Map<string, string>;
}

/** A CliIo that records what a command prints and writes, for in-process tests. */
export function captureIo(fs: FileSystem, cwd: string, options: { env?: Record<string, string>; isTTY?: boolean; writeThrough?: boolean; stdin?: string } = {}): Captured {
  let out = '';
  let err = '';
  const written = new Map<string, string>();
  const io: CliIo = {
    fs,
    cwd,
    env: options.env ?? {},
    isTTY: options.isTTY ?? false,
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    async writeFile(path, text) {
      written.set(path, typeof text === "string" ? text : [...text].join(""));
    },
    readStdin: async () => options.stdin ?? '',
  };
  return { io, stdout: () => out, stderr: () => err, written };
}

/**
 * A CliIo over a live map of files (URI → text) that writes land in, so one run sees what an
 * earlier one wrote. `links` (URI → target) are followed by reads and stats and answered by
 * `realUri`, as symbolic links on disk.
 */
export function liveIo(files: Map<string, string>, options: { cwd?: string; env?: Record<string, string>; stdin?: string; links?: Map<string, string> } = {}) {
  let out = '';
  let err = '';
  const io: CliIo = {
    fs: liveFileSystem(files, options.links),
    cwd: options.cwd ?? '/ws',
    env: options.env ?? {},
    isTTY: false,
    stdout: (t) => void (out += t),
    stderr: (t) => void (err += t),
    writeFile: async (path, text) => void files.set(fileUri(path), typeof text === 'string' ? text : [...text].join('')),
    readStdin: async () => options.stdin ?? '',
  };
  return {
    io,
    out: () => out,
    err: () => err,
    reset: () => {
      out = '';
      err = '';
    },
  };
}
