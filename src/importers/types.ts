/**
 * What every importer takes and gives. Importers are pure: the source folder comes in through a
 * reader, the LITMUS files go out as text; the CLI does the reading and the writing.
 */

/** A read-only view of the benchmark's folder. Paths are relative to it, `/`-separated. */
export interface SourceReader {
  /** The file's text, or undefined when there is no such file. */
  read(path: string): string | undefined;
  /** The names in a folder, sorted, or undefined when there is no such folder. */
  list(dir: string): string[] | undefined;
}

/** One file to write, relative to `--out`. */
export interface OutputFile {
  path: string;
  text: string;
}

export interface ImportOptions {
  /** The LITMUS suite name: each suite file's `suite`, and the prefix of every instance_id. */
  suite?: string;
  /** Called now and then on long imports; the CLI prints it on standard error. */
  progress?: (message: string) => void;
}

export interface ImportSummary {
  cases: number;
  adversarial: number;
  benign: number;
  derived: number;
}

export type ImportResult =
  | { ok: true; files: OutputFile[]; warnings: string[]; summary: ImportSummary }
  | { ok: false; error: string };

export type Importer = (source: SourceReader, options?: ImportOptions) => ImportResult;

/**
 * A fault in the source data. Thrown inside an importer and turned into an `{ ok: false }` value at
 * its boundary (`runImporter`), so the deep data walks need not thread results through every call.
 */
export class SourceError extends Error {
  constructor(file: string, what: string) {
    super(`${file}: ${what}`);
  }
}
