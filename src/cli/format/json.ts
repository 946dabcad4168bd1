import { neutraliseWorkflowCommandsInJson, type LintDiagnostic, type Range, type Severity } from '../../core';
import { fitToBudget, outputBudget, prettySize, rankOf, sizeNotice, valuePiecesWithinBudget, type Fit } from './budget';
import { autoFixable, countSeverities, relPath, type FormatContext, type Formatter } from './context';
import { jsonTextChunks } from './stream';

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
  /**
   * The rule's data for the finding, when it has some (each rule's page says what it holds): what a
   * program reads to tell findings apart, never the message (`scope: "scoring-disjoint"` marks a
   * notice capped by `"scoring": "disjoint"`, docs/format.md).
   */
  data?: Record<string, unknown>;
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
    ...(d.data ? { data: d.data } : {}),
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

type FileEntry = JsonReport['files'][number];

/**
 * The report with its file list made entry by entry as it is walked: with one case per file a
 * report lists 100,000 files, and their entries held at once were tens of megabytes at the run's peak.
 */
export interface LazyJsonReport extends Omit<JsonReport, 'files'> {
  files: { readonly length: number; [Symbol.iterator](): Iterator<FileEntry> };
}

export function jsonReport(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): JsonReport {
  const report = lazyJsonReport(diagnostics, ctx);
  return { ...report, files: [...report.files] };
}

function lazyJsonReport(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): LazyJsonReport {
  const suppressed = ctx.suppressed ?? [];
  const all = [...diagnostics, ...suppressed];
  let entries = all.map((d) => toJson(d, ctx));
  let keep: boolean[] | undefined;
  // Every file the run read, and any other a finding names, sorted by path (stably: in that order when equal).
  const build = (): LazyJsonReport['files'] => {
    const byFile = new Map<string, { diagnostics: JsonDiagnostic[]; suppressed: JsonDiagnostic[] }>();
    all.forEach((d, i) => {
      if (keep && !keep[i]) return;
      let lists = byFile.get(d.uri);
      if (!lists) byFile.set(d.uri, (lists = { diagnostics: [], suppressed: [] }));
      (d.suppressions ? lists.suppressed : lists.diagnostics).push(entries[i]);
    });
    const uris = [...new Set([...ctx.files, ...byFile.keys()])];
    const paths = uris.map((uri) => relPath(uri, ctx.cwdUri));
    const order = uris.map((_, i) => i).sort((a, b) => (paths[a] < paths[b] ? -1 : paths[a] > paths[b] ? 1 : 0));
    const entry = (i: number): FileEntry => {
      const lists = byFile.get(uris[i]);
      const output = ctx.fixed?.get(uris[i]);
      return {
        path: paths[i],
        diagnostics: lists?.diagnostics ?? [],
        ...(lists?.suppressed.length ? { suppressed: lists.suppressed } : {}),
        ...(output !== undefined ? { output } : {}),
      };
    };
    return {
      length: order.length,
      *[Symbol.iterator]() {
        for (const i of order) yield entry(i);
      },
    };
  };
  const sizeLimit = { findingsLeftOut: 0, relatedLocationsLeftOut: 0 };
  const budget = outputBudget(ctx);
  if (budget !== Infinity) {
    keep = all.map(() => false);
    const skeleton = JSON.stringify({ files: [...build()], summary: {} }, null, 2).length + 1024;
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

/**
 * Pieces of about this many characters: below V8's large-object size (128 KB, two bytes a character
 * at most), so a piece written and dropped dies young rather than staying in the heap until its
 * next full collection, which a lint's last seconds rarely see.
 */
const PIECE = 1 << 15;
const FILES_MARK = '\n  "files": []';

/**
 * The report's text as `JSON.stringify(report, null, 2) + '\n'` writes it, character for character,
 * in pieces of about PIECE characters cut between file entries (and between the findings of a file
 * of many). Each entry is written by `JSON.stringify` and indented to its depth (a JSON string never
 * holds a raw line break). With one case per file a report lists 100,000 files: written as one
 * string it was held three times over (the text, its flattened copy, the bytes written), 100 MB
 * more than the lint's own peak.
 */
export function* reportPieces(report: JsonReport | LazyJsonReport, piece = PIECE): Generator<string> {
  // The envelope with an empty list stands where the list goes; every other key keeps its place.
  const shell = JSON.stringify({ ...report, files: [] }, null, 2);
  const at = shell.indexOf(FILES_MARK);
  if (report.files.length === 0 || at < 0) {
    yield neutraliseWorkflowCommandsInJson(JSON.stringify({ ...report, files: [...report.files] }, null, 2)) + '\n';
    return;
  }
  const files = report.files;
  function* parts(): Generator<string> {
    let first = true;
    for (const entry of files) {
      const lead = (first ? shell.slice(0, at + FILES_MARK.length - 1) : ',') + '\n    ';
      first = false;
      if (entry.diagnostics.length < SPLIT_AT || Object.keys(entry).length !== 2) {
        yield lead + entryText(entry);
        continue;
      }
      // A file of many findings, a finding at a time: written whole, a suite file of 500 cases
      // made a text past V8's large-object size (128 KB), which only a full collection frees, and
      // a lint's last seconds rarely see one (35 MB of them at the rich 100k).
      yield `${lead}{\n      "path": ${JSON.stringify(entry.path)},\n      "diagnostics": [\n        `;
      let sep = '';
      for (const d of entry.diagnostics) {
        const text = JSON.stringify({ files: [{ diagnostics: [d] }] }, null, 2);
        yield sep + text.slice(FINDING_OPEN.length, text.length - FINDING_CLOSE.length);
        sep = ',\n        ';
      }
      yield '\n      ]\n    }';
    }
    yield '\n  ' + shell.slice(at + FILES_MARK.length - 1) + '\n';
  }
  // Cut between entries, or between a file's findings: never inside a string.
  yield* jsonTextChunks(parts(), piece);
}

/** Findings in one file's entry from which the entry is written a finding at a time. */
const SPLIT_AT = 32;
/** What `JSON.stringify` writes around a finding it is given four levels deep, as in a file's entry of the report. */
const FINDING_OPEN = '{\n  "files": [\n    {\n      "diagnostics": [\n        ';
const FINDING_CLOSE = '\n      ]\n    }\n  ]\n}';

/** What `JSON.stringify` writes around an entry it is given two levels deep: cut off, the entry is left indented as in the whole report. */
const ENTRY_OPEN = '{\n  "files": [\n    ';
const ENTRY_CLOSE = '\n  ]\n}';

/** A file entry as `JSON.stringify` writes it inside the report; a clean file's (most of them) written directly. */
function entryText(entry: FileEntry): string {
  if (entry.diagnostics.length === 0 && entry.suppressed === undefined && entry.output === undefined && Object.keys(entry).length === 2) {
    return `{\n      "path": ${JSON.stringify(entry.path)},\n      "diagnostics": []\n    }`;
  }
  // Written at its depth in one pass: indenting a text written at depth 0 copied it again, a
  // tenth of the lint of a suite with thousands of findings (ASB's 8,000, 6 MB).
  const text = JSON.stringify({ files: [entry] }, null, 2);
  return text.slice(ENTRY_OPEN.length, text.length - ENTRY_CLOSE.length);
}

/** The report in pieces, kept within the output budget (`piecesWithinBudget`), to write as they come. */
export function jsonPieces(diagnostics: readonly LintDiagnostic[], ctx: FormatContext, hold?: number): Iterable<string> {
  return valuePiecesWithinBudget(ctx, (c) => lazyJsonReport(diagnostics, c), (report) => reportPieces(report), hold);
}

/** Pretty-printed, as it always was; `##[` in a string is written `##\u005b` (see sarif.ts). */
export const json: Formatter = (diagnostics, ctx) => [...jsonPieces(diagnostics, ctx)].join('');
