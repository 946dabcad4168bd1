import type { LintDiagnostic, Range, Severity } from '../../core';
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
}

/** The documented shape of `--format json` (docs/cli.md). Additions only; never renames. */
export interface JsonReport {
  tool: { name: string; version: string };
  files: { path: string; diagnostics: JsonDiagnostic[] }[];
  summary: { files: number; problems: number; errors: number; warnings: number; infos: number; hints: number; autoFixable: number; hiddenByQuiet: number };
}

function span(r: Range): JsonSpan {
  return { line: r.start.line + 1, column: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

function toJson(d: LintDiagnostic, ctx: FormatContext): JsonDiagnostic {
  return {
    ruleId: d.code,
    severity: d.severity,
    message: d.message,
    ...span(d.range),
    docsUrl: d.docsUrl,
    related: d.related.map((r) => ({ path: relPath(r.uri, ctx.cwdUri), ...span(r.range), message: r.message })),
    fixes: d.fixes.map((f) => f.title),
    autoFixable: autoFixable(d),
  };
}

export function jsonReport(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): JsonReport {
  const byFile = new Map<string, JsonDiagnostic[]>();
  for (const f of ctx.files) byFile.set(f, []);
  for (const d of diagnostics) {
    const list = byFile.get(d.uri);
    if (list) list.push(toJson(d, ctx));
    else byFile.set(d.uri, [toJson(d, ctx)]);
  }
  const files = [...byFile.entries()]
    .map(([uri, ds]) => ({ path: relPath(uri, ctx.cwdUri), diagnostics: ds }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
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
    },
  };
}

export const json: Formatter = (diagnostics, ctx) => JSON.stringify(jsonReport(diagnostics, ctx), null, 2) + '\n';
