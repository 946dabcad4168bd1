import { neutraliseWorkflowCommandsInJson, type LintDiagnostic, type Range, type Severity } from '../../core';
import { fitToBudget, outputBudget, prettySize, rankOf, sizeNotice, withinBudget, type Fit } from './budget';
import { autoFixable, countSeverities, relPath, type FormatContext, type Formatter } from './context';

/** 1-based lines and columns (UTF-16 code units); `endColumn` is the column just past the range. */
export interface JsonSpan {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface JsonDiagnostic extends JsonSpan {
  ruleId: string;
  severity: Severity;
  message: string;
  docsUrl: string;
  related: (JsonSpan & { path: string; message: string })[];
  /** Titles of the fixes the editor offers; `autoFixable` when `--fix` would apply the only one. */
  fixes: string[];
  autoFixable: boolean;
  /** Set when several rules state one fact about one case (docs/format.md, "One fact, one finding"). */
  fact?: { group: string; primary: boolean; rules: string[] };
  /** Only on a suppressed finding (in `files[].suppressed`): each suppression's reason, as SARIF has it. */
  suppressions?: { kind: 'inSource'; justification: string }[];
  /** Related locations the size limit left out (docs/robustness.md), when it did. */
  relatedLeftOut?: number;
}

/** The documented shape of `--format json` (docs/cli.md). Additions only; never renames. */
export interface JsonReport {
  tool: { name: string; version: string };
  /**
   * `output`: with `--fix-dry-run`, the file's text after the fixes (only files a fix changes), as ESLint has it.
   * `suppressed`: findings an in-source suppression accepts (only files that have some), as ESLint's `suppressedMessages`.
   */
  files: { path: string; diagnostics: JsonDiagnostic[]; suppressed?: JsonDiagnostic[]; output?: string }[];
  summary: {
    files: number;
    problems: number;
    errors: number;
    warnings: number;
    infos: number;
    hints: number;
    autoFixable: number;
    hiddenByQuiet: number;
    /** Findings in-source suppressions accept (not counted in `problems`). */
    suppressed: number;
    /** What the size limit left out of `files` (the counts above include it). */
    sizeLimit: { findingsLeftOut: number; relatedLocationsLeftOut: number };
  };
}

function span(r: Range): JsonSpan {
  return { line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

function toJson(d: LintDiagnostic, ctx: FormatContext): JsonDiagnostic {
  const suppressions = d.suppressions?.map((s) => ({ kind: 'inSource' as const, justification: s.reason }));
  return {
    ruleId: d.code,
    severity: d.severity,
    message: d.message,
    ...span(d.range),
    docsUrl: d.docsUrl,
    related: d.related.map((r) => ({ path: relPath(r.uri, ctx.cwdUri), ...span(r.range), message: r.message })),
    fixes: d.fixes.map((f) => f.title),
    autoFixable: autoFixable(d),
    ...(d.fact ? { fact: d.fact } : {}),
    ...(suppressions ? { suppressions } : {}),
  };
}

/** A diagnostic in `files[].diagnostics` is four levels deep, its related locations six. */
function fitJson(all: JsonDiagnostic[], ranks: number[], room: number): Fit {
  return fitToBudget(
    all.map((j, i) => ({ rank: ranks[i], base: prettySize({ ...j, related: [] }, 4) + (j.related.length ? 12 : 0), related: j.related.map((r) => prettySize(r, 6)) })),
    room,
  );
}

export function jsonReport(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): JsonReport {
  const suppressed = ctx.suppressed ?? [];
  const all = [...diagnostics, ...suppressed];
  let entries = all.map((d) => toJson(d, ctx));
  let keep: boolean[] | undefined;
  const build = () => {
    const byFile = new Map<string, { diagnostics: JsonDiagnostic[]; suppressed: JsonDiagnostic[] }>();
    for (const f of ctx.files) byFile.set(f, { diagnostics: [], suppressed: [] });
    all.forEach((d, i) => {
      if (keep && !keep[i]) return;
      let lists = byFile.get(d.uri);
      if (!lists) byFile.set(d.uri, (lists = { diagnostics: [], suppressed: [] }));
      (d.suppressions ? lists.suppressed : lists.diagnostics).push(entries[i]);
    });
    return [...byFile.entries()]
      .map(([uri, lists]) => {
        const output = ctx.fixed?.get(uri);
        return {
          path: relPath(uri, ctx.cwdUri),
          diagnostics: lists.diagnostics,
          ...(lists.suppressed.length ? { suppressed: lists.suppressed } : {}),
          ...(output !== undefined ? { output } : {}),
        };
      })
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  };
  const sizeLimit = { findingsLeftOut: 0, relatedLocationsLeftOut: 0 };
  const budget = outputBudget(ctx);
  if (budget !== Infinity) {
    keep = all.map(() => false);
    const skeleton = JSON.stringify({ files: build(), summary: {} }, null, 2).length + 1024;
    const fit = fitJson(entries, all.map(rankOf), budget - skeleton);
    const notice = sizeNotice(fit);
    keep = fit.keep;
    if (notice) {
      ctx.warn?.(`json: ${notice}`);
      sizeLimit.findingsLeftOut = fit.findingsLeftOut;
      sizeLimit.relatedLocationsLeftOut = fit.relatedLeftOut;
      entries = entries.map((j) => (j.related.length > fit.relatedCap ? { ...j, related: j.related.slice(0, fit.relatedCap), relatedLeftOut: j.related.length - fit.relatedCap } : j));
    }
  }
  const files = build();
  const c = countSeverities(diagnostics);
  return {
    tool: { name: ctx.toolName, version: ctx.toolVersion },
    files,
    summary: {
      files: files.length,
      problems: diagnostics.length,
      errors: c.error,
      warnings: c.warning,
      infos: c.info,
      hints: c.hint,
      autoFixable: diagnostics.filter(autoFixable).length,
      hiddenByQuiet: ctx.hidden,
      suppressed: suppressed.length,
      sizeLimit,
    },
  };
}

/** Pretty-printed, as it always was; `##[` in a string is written `##\u005b` (see sarif.ts). */
export const json: Formatter = (diagnostics, ctx) =>
  withinBudget(ctx, (c) => neutraliseWorkflowCommandsInJson(JSON.stringify(jsonReport(diagnostics, c), null, 2)) + '\n');
