import type { FileSystem } from '../../src/core/model/fs';
import type { CliIo } from '../../src/cli/io';

export interface Captured {
  io: CliIo;
  stdout: () => string;
  stderr: () => string;
  written: Map<string, string>;
}

/** A CliIo that records what a command prints and writes, for in-process tests. */
export function captureIo(fs: FileSystem, cwd: string, options: { env?: Record<string, string>; isTTY?: boolean; writeThrough?: boolean } = {}): Captured {
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
  };
  return { io, stdout: () => out, stderr: () => err, written };
}
