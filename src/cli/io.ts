import type { FileSystem } from '../core';

/** Everything the CLI touches outside itself, so commands run the same in tests and for real. */
export interface CliIo {
  fs: FileSystem;
  cwd: string;
  env: Record<string, string | undefined>;
  /** Whether stdout is a terminal (colour is only used there). */
  isTTY: boolean;
  /** The terminal's width in columns, when stdout is one (stylish lays its lines out for it). */
  columns?: number;
  /**
   * A promise when the text was queued rather than written (a pipe whose reader lags behind): a
   * report written in pieces waits for it before the next, so the queue never holds the whole
   * report (30 MB more at the peak of a 100,000-file lint piped to another program).
   */
  stdout(text: string): void | Promise<void>;
  stderr(text: string): void;
  /**
   * Standard error for a report sent there (`--stdin --fix`), written as it is: `runCli` gives the
   * commands a `stderr` that neutralises workflow commands in messages, which `--format github` is made of.
   */
  reportStderr?(text: string): void;
  /**
   * Writes the whole text, given as one string or in pieces (a report too large for one string).
   * With `expect`, writes only if the file still holds that text, else rejects with code `ECHANGED`
   * and leaves the file as it is (`--fix` over a file an editor saved meanwhile).
   */
  writeFile(path: string, text: string | Iterable<string>, options?: { expect?: string }): Promise<void>;
  /** All of standard input as UTF-8 (`--stdin`); a host without one reads as empty input. */
  readStdin?(): Promise<string>;
}
