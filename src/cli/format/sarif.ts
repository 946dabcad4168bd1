import { docsUrl, type LintDiagnostic, normalizeUri, type Range, RULE_IDS, RULES, type Severity } from '../../core';
import { relPath, underCwd, type FormatContext, type Formatter } from './context';

const SRCROOT = '%SRCROOT%';

/** SARIF has three result levels; info and hint are both `note`. */
export function sarifLevel(s: Severity): 'error' | 'warning' | 'note' {
  return s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note';
}

/** SARIF regions are 1-based; `endColumn` is the column just past the region. */
function region(r: Range) {
  return { startLine: r.start.line + 1, startColumn: r.start.character + 1, endLine: r.end.line + 1, endColumn: r.end.character + 1 };
}

/** Relative to %SRCROOT% (the working directory) when under it, else the absolute file URI. */
function artifactLocation(uri: string, ctx: FormatContext): { uri: string; uriBaseId?: string } {
  if (!underCwd(uri, ctx.cwdUri)) return { uri: normalizeUri(uri) };
  // Re-encode each segment so spaces and `#` stay a valid URI reference.
  return { uri: relPath(uri, ctx.cwdUri).split('/').map(encodeURIComponent).join('/'), uriBaseId: SRCROOT };
}

function physical(uri: string, range: Range, ctx: FormatContext) {
  return { physicalLocation: { artifactLocation: artifactLocation(uri, ctx), region: region(range) } };
}

function result(d: LintDiagnostic, ctx: FormatContext, ruleIndex: Map<string, number>) {
  const index = ruleIndex.get(d.code);
  return {
    ruleId: d.code,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: sarifLevel(d.severity),
    message: { text: d.message },
    locations: [physical(d.uri, d.range, ctx)],
    ...(d.related.length
      ? { relatedLocations: d.related.map((r, i) => ({ id: i + 1, ...physical(r.uri, r.range, ctx), message: { text: r.message } })) }
      : {}),
    ...(d.fixes.length
      ? {
          fixes: d.fixes.map((f) => ({
            description: { text: f.title },
            artifactChanges: f.edits.map((e) => ({
              artifactLocation: artifactLocation(e.uri, ctx),
              replacements: e.edits.map((t) => ({ deletedRegion: region(t.range), insertedContent: { text: t.newText } })),
            })),
          })),
        }
      : {}),
  };
}

/** SARIF 2.1.0, one run; the rule table comes from the rule registry, so it lists every rule. */
export function sarifLog(diagnostics: readonly LintDiagnostic[], ctx: FormatContext) {
  const ruleIndex = new Map(RULE_IDS.map((id, i) => [id, i]));
  const cwd = normalizeUri(ctx.cwdUri);
  return {
    $schema: 'https://raw.githubusercontent.com/oasis-tcs/sarif-spec/master/Schemata/sarif-schema-2.1.0.json',
    version: '2.1.0' as const,
    runs: [
      {
        tool: {
          driver: {
            name: ctx.toolName,
            version: ctx.toolVersion,
            informationUri: ctx.informationUri,
            rules: RULE_IDS.map((id) => {
              const meta = RULES.get(id)!;
              return {
                id,
                shortDescription: { text: meta.description },
                helpUri: docsUrl(id),
                defaultConfiguration: { level: sarifLevel(meta.defaultSeverity) },
                properties: { litmusCondition: meta.from },
              };
            }),
          },
        },
        originalUriBaseIds: { [SRCROOT]: { uri: cwd.endsWith('/') ? cwd : cwd + '/' } },
        columnKind: 'utf16CodeUnits' as const,
        results: diagnostics.map((d) => result(d, ctx, ruleIndex)),
      },
    ],
  };
}

export const sarif: Formatter = (diagnostics, ctx) => JSON.stringify(sarifLog(diagnostics, ctx), null, 2) + '\n';
