import { compareDiagnostics, normalizeUri, type LintDiagnostic, type Range } from '../../core';
import { fitToBudget, outputBudget, rankOf, sizeNotice, valuePiecesWithinBudget } from './budget';
import { relPath, underCwd, type FormatContext, type Formatter } from './context';
import { sarifLevel, sarifRules } from './sarif-rules';
import { jsonTextChunks } from './stream';
import { sha256 } from '../hash';

export { sarifLevel } from './sarif-rules';

const SRCROOT = '%SRCROOT%';
/** GitHub code scanning refuses a run with more results than this. */
export const SARIF_MAX_RESULTS = 25_000;
/** The partialFingerprints key of a fact group (lint/facts.ts): results of several rules that state one fact share it. */
const FACT_KEY = 'litmusFact/v1';
/** The partialFingerprints key; the suffix changes if what is hashed ever does. */
export const FINGERPRINT_KEY = 'litmusFinding/v1';

/** SARIF regions are 1-based; `endColumn` is the column just past the region. */
function region(r: Range) {
  return { startLine: r.start.line + 1, startColumn: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** %SRCROOT%: the repository root (or --base-path), else the working directory. */
function srcRoot(ctx: FormatContext): string {
  return normalizeUri(ctx.srcRootUri ?? ctx.cwdUri);
}

/** Relative to %SRCROOT% when under it, else the absolute file URI. */
function artifactLocation(uri: string, root: string): { uri: string; uriBaseId?: string } {
  if (!underCwd(uri, root)) return { uri: normalizeUri(uri) };
  // Re-encode each segment so spaces and `#` stay a valid URI reference.
  return { uri: relPath(uri, root).split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function physical(uri: string, range: Range, root: string) {
  return { physicalLocation: { artifactLocation: artifactLocation(uri, root), region: region(range) } };
}

/**
 * A finding's identity across runs: rule, file (from %SRCROOT%), the case and the JSON path inside
 * it, and the message; not its line, so moving a case within its file keeps the alert. Findings
 * alike in all of these are numbered in file order.
 */
function fingerprints(diagnostics: readonly LintDiagnostic[], ctx: FormatContext, root: string): string[] {
  const seen = new Map<string, number>();
  return diagnostics.map((d) => {
    const anchor = ctx.anchor?.(d) ?? { path: [], line: d.range.start.line };
    const key = JSON.stringify([d.code, relPath(d.uri, root), anchor.caseId ?? null, anchor.path, anchor.line ?? null, d.message]);
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return `${sha256(key).slice(0, 32)}:${n}`;
  });
}

function result(d: LintDiagnostic, fingerprint: string, root: string, ruleIndex: Map<string, number>) {
  const index = ruleIndex.get(d.code);
  return {
    ruleId: d.code,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: sarifLevel(d.severity),
    message: { text: d.message },
    locations: [physical(d.uri, d.range, root)],
    // One fact stated by several rules (docs/format.md): each rule keeps its result, the group ties them.
    partialFingerprints: { [FINGERPRINT_KEY]: fingerprint, ...(d.fact ? { [FACT_KEY]: d.fact.group } : {}) },
    // Accepted in the file (FORMAT §11): code scanning shows such a result as dismissed, with the reason.
    ...(d.suppressions ? { suppressions: d.suppressions.map((s) => ({ kind: 'inSource' as const, justification: s.reason })) } : {}),
    ...(d.related.length
      ? { relatedLocations: d.related.map((r, i) => ({ id: i + 1, ...physical(r.uri, r.range, root), message: { text: r.message } })) }
      : {}),
    ...(d.fixes.length
      ? {
          fixes: d.fixes.map((f) => ({
            description: { text: f.title },
            artifactChanges: f.edits.map((e) => ({
              artifactLocation: artifactLocation(e.uri, root),
              replacements: e.edits.map((t) => ({ deletedRegion: region(t.range), insertedContent: { text: t.newText } })),
            })),
          })),
        }
      : {}),
    // The rule's data, as the JSON report has it: what a program tells findings apart by, never the message.
    ...(d.data ? { properties: { data: d.data } as SarifProperties } : {}),
  };
}

/** A result's property bag: the rule's `data`, and `relatedLocationsLeftOut` when the size budget cut its related locations. */
interface SarifProperties {
  data?: Record<string, unknown>;
  relatedLocationsLeftOut?: number;
}

/** A result as written. */
export type SarifResult = Omit<ReturnType<typeof result>, 'relatedLocations' | 'properties'> & {
  relatedLocations?: ReturnType<typeof result>['relatedLocations'];
  properties?: SarifProperties;
};

/**
 * The results a run keeps: all of them up to the limit, else the most severe (in their order;
 * suppressed ones after every other).
 * Fingerprints are computed over all findings first, so a kept result's identity does not depend
 * on what was dropped.
 */
export function keptResults(diagnostics: readonly LintDiagnostic[], limit = SARIF_MAX_RESULTS): { kept: number[]; dropped: number } {
  const all = diagnostics.map((_, i) => i);
  if (diagnostics.length <= limit) return { kept: all, dropped: 0 };
  const bySeverity = [...all].sort((a, b) => rankOf(diagnostics[a]) - rankOf(diagnostics[b]) || a - b);
  return { kept: bySeverity.slice(0, limit).sort((a, b) => a - b), dropped: diagnostics.length - limit };
}

/** What a truncated run says, on stderr and in its notifications. */
export function truncationNotice(dropped: number, limit = SARIF_MAX_RESULTS): string {
  return `SARIF: ${dropped} less severe ${dropped === 1 ? 'result was' : 'results were'} left out: GitHub code scanning accepts at most ${limit} results per run (the ${limit} most severe are kept)`;
}

/** The findings a SARIF log holds: those that count and, marked, those suppressed in source, in file order. */
export function sarifFindings(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): readonly LintDiagnostic[] {
  return ctx.suppressed?.length ? [...diagnostics, ...ctx.suppressed].sort(compareDiagnostics) : diagnostics;
}

/** Room kept for the notification that says what the size budget left out. */
const NOTICE_ROOM = 1024;

/** SARIF 2.1.0, one run; the rule table comes from the rule registry, so it lists every rule. */
export function sarifLog(shown: readonly LintDiagnostic[], ctx: FormatContext) {
  const diagnostics = sarifFindings(shown, ctx);
  const rules = sarifRules(ctx.extraRules);
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const root = srcRoot(ctx);
  const prints = fingerprints(diagnostics, ctx, root);
  const limit = ctx.maxResults ?? SARIF_MAX_RESULTS;
  const { kept, dropped } = keptResults(diagnostics, limit);
  const notifications = [
    ...(ctx.notices ?? []).map((n) => ({ level: n.level, message: { text: n.text } })),
    ...(dropped ? [{ level: 'warning' as const, message: { text: truncationNotice(dropped, limit) } }] : []),
  ];
  const log = envelope(ctx, rules, root, notifications);
  let results: SarifResult[] = kept.map((i) => result(diagnostics[i], prints[i], root, ruleIndex));
  const budget = outputBudget(ctx);
  if (budget !== Infinity) {
    const sized = results.map((r, k) => {
      const { relatedLocations, ...rest } = r;
      return { rank: rankOf(diagnostics[kept[k]]), base: JSON.stringify(rest).length + 1 + (relatedLocations ? 24 : 0), related: (relatedLocations ?? []).map((l) => JSON.stringify(l).length + 1) };
    });
    const fit = fitToBudget(sized, budget - JSON.stringify(log).length - NOTICE_ROOM);
    const notice = sizeNotice(fit);
    if (notice) {
      ctx.warn?.(`sarif: ${notice}`);
      notifications.push({ level: 'warning', message: { text: notice } });
      log.runs[0].invocations[0] = { ...log.runs[0].invocations[0], toolExecutionNotifications: notifications };
      results = results.flatMap((r, k) => {
        if (!fit.keep[k]) return [];
        const all = r.relatedLocations;
        if (!all || all.length <= fit.relatedCap) return [r];
        const { relatedLocations: _, ...rest } = r;
        const cut = all.slice(0, fit.relatedCap);
        return [{ ...rest, ...(cut.length ? { relatedLocations: cut } : {}), properties: { ...rest.properties, relatedLocationsLeftOut: all.length - cut.length } }];
      });
    }
  }
  log.runs[0].results = results;
  return log;
}

function envelope(ctx: FormatContext, rules: ReturnType<typeof sarifRules>, root: string, notifications: { level: 'note' | 'warning'; message: { text: string } }[]) {
  return {
    $schema: 'https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json',
    version: '2.1.0' as const,
    runs: [
      {
        tool: { driver: { name: ctx.toolName, version: ctx.toolVersion, semanticVersion: ctx.toolVersion, informationUri: ctx.informationUri, rules } },
        // Several runs of one repository (one per suite) stay apart in code scanning by category.
        ...(ctx.category ? { automationDetails: { id: ctx.category.endsWith('/') ? ctx.category : `${ctx.category}/` } } : {}),
        invocations: [
          {
            executionSuccessful: true,
            ...(ctx.exitCode !== undefined ? { exitCode: ctx.exitCode } : {}),
            ...(notifications.length ? { toolExecutionNotifications: notifications } : ({} as { toolExecutionNotifications?: typeof notifications })),
          },
        ],
        originalUriBaseIds: { [SRCROOT]: { uri: root.endsWith('/') ? root : root + '/' } },
        columnKind: 'utf16CodeUnits' as const,
        results: [] as SarifResult[],
      },
    ],
  };
}

/**
 * Compact JSON: SARIF is read by tools (code scanning, viewers, `jq`), and indentation made it three
 * times the size (docs/robustness.md). `##[` in a string is written `##\u005b`, so a log printed in
 * a CI job cannot carry a workflow command.
 */
export const sarif: Formatter = (diagnostics, ctx) => [...sarifPieces(diagnostics, ctx)].join('');

/**
 * The log in pieces to write as they come, within the output budget: 25,000 results written as one
 * string were 14 MB past V8's large-object size, which only a full collection frees.
 */
export function sarifPieces(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): Iterable<string> {
  return valuePiecesWithinBudget(ctx, (c) => sarifLog(diagnostics, c), (log) => jsonTextChunks(sarifParts(log)));
}

const RESULTS_MARK = '"results":[';

/**
 * `JSON.stringify(log) + '\n'`, character for character, a result at a time (`##[` never spans
 * two). `results` is the run's last key (envelope), and no string can hold its mark unescaped.
 */
export function* sarifParts(log: ReturnType<typeof sarifLog>): Generator<string> {
  const [run] = log.runs;
  const shell = JSON.stringify({ ...log, runs: [{ ...run, results: [] }] });
  const at = shell.lastIndexOf(RESULTS_MARK + ']');
  if (run.results.length === 0 || at < 0) {
    yield JSON.stringify(log) + '\n';
    return;
  }
  let lead = shell.slice(0, at + RESULTS_MARK.length);
  for (const r of run.results) {
    yield lead + JSON.stringify(r);
    lead = ',';
  }
  yield shell.slice(at + RESULTS_MARK.length) + '\n';
}
