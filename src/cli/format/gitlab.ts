import type { LintDiagnostic, Severity } from '../../core';
import { fitToBudget, outputBudget, prettySize, rankOf, sizeNotice, valuePiecesWithinBudget } from './budget';
import { relPath, type FormatContext, type Formatter } from './context';
import { jsonTextChunks } from './stream';
import { sha256 } from '../hash';

/** GitLab Code Quality severities: info, minor, major, critical, blocker. */
export const GITLAB_SEVERITY: Record<Severity, 'info' | 'minor' | 'major'> = { error: 'major', warning: 'minor', info: 'info', hint: 'info' };

export interface CodeQualityIssue {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: 'info' | 'minor' | 'major' | 'critical' | 'blocker';
  location: { path: string; lines: { begin: number } };
}

/**
 * GitLab Code Quality (a JSON array; docs.gitlab.com/ci/testing/code_quality). The fingerprint
 * is what GitLab compares between the base and head of a merge request, so it is built from the
 * rule, the file, the finding's place (its case and JSON pointer, not its line) and its message:
 * an edit above a finding does not make it look new. Identical findings are told apart by order.
 */
export const gitlab: Formatter = (diagnostics, ctx) => [...gitlabPieces(diagnostics, ctx)].join('');

/**
 * The report in pieces to write as they come, within the output budget: 34,000 issues written as
 * one string were 15 MB past V8's large-object size, which only a full collection frees.
 */
export function gitlabPieces(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): Iterable<string> {
  return valuePiecesWithinBudget(ctx, (c) => gitlabIssues(diagnostics, c), (issues) => jsonTextChunks(gitlabParts(issues)));
}

/** `JSON.stringify(issues, null, 2) + '\n'`, character for character, an issue at a time (`##[` never spans two). */
export function* gitlabParts(issues: readonly CodeQualityIssue[]): Generator<string> {
  if (issues.length === 0) {
    yield '[]\n';
    return;
  }
  let lead = '[\n  ';
  for (const issue of issues) {
    // Written one level deep, as in the array: `[\n  ` and `\n]` cut off.
    const text = JSON.stringify([issue], null, 2);
    yield lead + text.slice(4, text.length - 2);
    lead = ',\n  ';
  }
  yield '\n]\n';
}

/**
 * The issues, fitted to the context's output budget when it has one: the report's value, written
 * out in pieces when it is past the longest string V8 can build (cli/run.ts).
 */
export function gitlabIssues(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): CodeQualityIssue[] {
  const seen = new Map<string, number>();
  const issues: CodeQualityIssue[] = diagnostics.map((d) => {
    const path = relPath(d.uri, ctx.cwdUri);
    const anchor = ctx.anchor?.(d);
    const place = anchor ? [anchor.caseId ?? null, anchor.path, anchor.line ?? null] : null;
    const basis = JSON.stringify([d.code, path, place, d.message]);
    const n = (seen.get(basis) ?? 0) + 1;
    seen.set(basis, n);
    const fingerprint = sha256(n > 1 ? `${basis}#${n}` : basis).slice(0, 32);
    return {
      description: d.message,
      check_name: d.code,
      fingerprint,
      severity: GITLAB_SEVERITY[d.severity],
      location: { path, lines: { begin: d.range.start.line + 1 } },
    };
  });
  let kept = issues;
  const budget = outputBudget(ctx);
  if (budget !== Infinity) {
    const fit = fitToBudget(issues.map((issue, i) => ({ rank: rankOf(diagnostics[i]), base: prettySize(issue, 1), related: [] })), budget - 16);
    const notice = sizeNotice(fit);
    if (notice) {
      // Code Quality reports are a bare array: standard error is the one place to say it.
      ctx.warn?.(`gitlab: ${notice}`);
      kept = issues.filter((_, i) => fit.keep[i]);
    }
  }
  return kept;
}
