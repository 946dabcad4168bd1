/** Custom messages between the LITMUS client and server (any LSP client may use them). */

export const LINT_WORKSPACE_REQUEST = 'litmus/lintWorkspace';
/** The suite report as Markdown text (params {@link SuiteReportParams}). */
export const SUITE_REPORT_REQUEST = 'litmus/suiteReport';
/** The suite report as data, for a rendered view (params {@link SuiteReportParams}; result {@link SuiteReportData}). */
export const SUITE_REPORT_DATA_REQUEST = 'litmus/suiteReportData';
export type { FamilyView, SeverityCounts, SuiteReportData, SuiteReportView } from './report-view';
export const STATUS_NOTIFICATION = 'litmus/status';

/**
 * Commands the server executes (`workspace/executeCommand`). VS Code's language client registers
 * each as a command of the same id, so these never share an id with the extension's own commands.
 */
/** Opens a rule's documentation page (argument: its URL) through `window/showDocument`. */
export const SHOW_RULE_DOCS_COMMAND = 'litmus.openRuleDocs';
/** Selects a range of a document (arguments: uri, range): the reason a suppression leaves to fill in. */
export const SELECT_RANGE_COMMAND = 'litmus.selectRange';
/** Applies every auto-fix of a document (argument: `{ uri, version? }`); returns {@link ApplyAutoFixesResult}. */
export const APPLY_AUTO_FIXES_COMMAND = 'litmus.applyAutoFixes';
export const SERVER_COMMANDS = [SHOW_RULE_DOCS_COMMAND, SELECT_RANGE_COMMAND, APPLY_AUTO_FIXES_COMMAND];

export interface ApplyAutoFixesParams {
  uri: string;
  /** The version the user saw; the fixes are computed on the version the server has now. */
  version?: number;
}

export interface ApplyAutoFixesResult {
  /** Problems fixed (0 when none was auto-fixable). */
  fixed: number;
  /** Whether the client applied the edit. */
  applied: boolean;
}

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
