/** Custom messages between the LITMUS client and server (any LSP client may use them). */

export const LINT_WORKSPACE_REQUEST = 'litmus/lintWorkspace';
export const SUITE_REPORT_REQUEST = 'litmus/suiteReport';
export const STATUS_NOTIFICATION = 'litmus/status';

export interface Counts {
  errors: number;
  warnings: number;
  infos: number;
  hints: number;
}

/** Sent after every finished lint run, summed over the whole workspace. */
export interface StatusParams extends Counts {
  /** Files in the index (suite files, referenced tool files, config). */
  files: number;
  /** Files with at least one problem. */
  filesWithProblems: number;
  /** Duration of the run that just finished, in milliseconds. */
  durationMs: number;
  /** When it finished (ms since the epoch). */
  finishedAt: number;
  /** Files not linted because they exceed `litmus.maxFileSize`. */
  oversized: string[];
}

export interface LintWorkspaceResult extends StatusParams {
  /** Rule ids the server runs. */
  rules: string[];
}

export interface SuiteReportParams {
  /** A file or folder whose workspace folder the report is about; all folders when unset. */
  uri?: string;
}
