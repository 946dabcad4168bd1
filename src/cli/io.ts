import type { FileSystem } from '../core';

/** Everything the CLI touches outside itself, so commands run the same in tests and for real. */
export interface CliIo {
  fs: FileSystem;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colour is only used there). */
  isTTY: boolean;
  stdout(text: string): void;
  stderr(text: string): void;
  writeFile(path: string, text: string): Promise<void>;
}
