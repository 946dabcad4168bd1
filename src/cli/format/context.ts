import { displayPath, formatCount, isUnder, type LintDiagnostic, normalizeUri, type RuleMeta, type Severity } from '../../core';
import type { FindingAnchor } from '../anchor';

/** What every formatter may know besides the diagnostics. Plain data, so formatters stay pure. */
export interface FormatContext {
  /** The working directory as a file URI (paths are shown relative to it). */
  cwdUri: string;
  /** Every file that was linted, as URIs, in a stable order. */
  files: string[];
  toolName: string;
  toolVersion: string;
  informationUri: string;
  /** ANSI colour (stylish only). */
  color: boolean;
  /** Diagnostics hidden by `--quiet`, counted so the summary can say so. */
  hidden: number;
  /** `--fix-dry-run`: the fixed text of each file a fix would change (json's `output`). */
  fixed?: ReadonlyMap<string, string>;
  /** SARIF's %SRCROOT%: the repository root, or `--base-path` (default: the working directory). */
  srcRootUri?: string;
  /** SARIF's `automationDetails.id` category (`--category`), for several runs of one repository. */
  category?: string;
  /** What the run reported besides the findings (files skipped, read outside the paths), as on stderr. */
  notices?: { level: 'note' | 'warning'; text: string }[];
  /** The exit status the run ends with. */
  exitCode?: number;
  /** Where a finding sits in its file, by case and JSON path (SARIF's and GitLab's fingerprints). */
  anchor?: (d: LintDiagnostic) => FindingAnchor;
  /** SARIF's results-per-run limit (default: GitHub's 25,000). */
  maxResults?: number;
  /** stylish: the columns its lines are laid out for (default 80). */
  width?: number;
  /** stylish: list `hint` findings and out-of-scope notices (`--hints`) instead of counting them in one line. */
  showHints?: boolean;
  /** Findings that in-source suppressions accept (each with `suppressions`): SARIF and JSON list them, stylish counts them. */
  suppressed?: readonly LintDiagnostic[];
  /** Characters of input the run read (every document): machine formats stay within a multiple of it (./budget.ts). */
  inputSize?: number;
  /** Where a formatter says what it left out (standard error, as `litmus-lint: warning: …`). */
  warn?: (text: string) => void;
  /** The plugins' rules that ran (docs/plugins.md): SARIF lists them after the built-in rules. */
  extraRules?: readonly RuleMeta[];
}

export type Formatter = (diagnostics: readonly LintDiagnostic[], context: FormatContext) => string;

/** A path for people: relative to the working directory when under it, `/`-separated. */
/** Paths already shown, per working folder: a report names each file once per related location. */
const shown = new Map<string, Map<string, string>>();

export function relPath(uri: string, cwdUri: string): string {
  let paths = shown.get(cwdUri);
  if (!paths) shown.set(cwdUri, (paths = new Map()));
  let path = paths.get(uri);
  if (path === undefined) {
    path = displayPath(normalizeUri(uri), normalizeUri(cwdUri));
    if (paths.size < 100_000) paths.set(uri, path);
  }
  return path;
}

export function underCwd(uri: string, cwdUri: string): boolean {
  return isUnder(normalizeUri(uri), normalizeUri(cwdUri));
}

export interface Counts {
  error: number;
  warning: number;
  info: number;
  hint: number;
}

export function countSeverities(diagnostics: readonly LintDiagnostic[]): Counts {
  const counts: Counts = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

/** The one fix `--fix` would apply: the diagnostic's only fix, unambiguous, and changing no claim (FORMAT §10). */
export function autoFixable(d: LintDiagnostic): boolean {
  return d.fixes.length === 1 && d.fixes[0].unambiguous && !d.fixes[0].changesClaim;
}

/** `n` and the word, in the plural unless `n` is 1; `many` for a word not made plural by an -s. */
export function plural(n: number, word: string, many?: string): string {
  if (n === 1) return `${n} ${word}`;
  return `${formatCount(n)} ${many ?? word + (/(x|s|ch|sh)$/.test(word) ? 'es' : 's')}`;
}

export const SEVERITY_WORD: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'hint' };
