import { buildSuiteReport, caseFinder, escapeText, instanceName, type LintDiagnostic, type Severity, type SuiteReport, type WorkspaceIndex } from '../core';

/** Findings by severity. */
export type SeverityCounts = Record<Severity, number>;

/** One bar group of the rendered report: a task family. */
export interface FamilyView {
  family: string;
  adversarial: number;
  benign: number;
  /** Arms with no case in the family. */
  missing: string[];
  /** Diagnostics inside the family's case objects, by severity. */
  findings: SeverityCounts;
  /** Distinct cases of the family that the report's quarantine lists. */
  quarantined: number;
}

/**
 * What the editor's rendered suite report draws, for one workspace folder: core's report
 * (src/core/lint/report.ts, the same data as `litmus-lint report --format json`), plus per-family
 * findings and quarantine counts, which the report keeps by rule and instance.
 */
export interface SuiteReportView {
  /** The folder, for the heading. */
  folder: string;
  /** Core's report, its twin list left out (`pairs` counts it). */
  report: SuiteReport;
  pairs: number;
  families: FamilyView[];
  /** Diagnostics outside every case (tool files, harness, score reports, configs), by severity. */
  outsideCases: SeverityCounts;
}

export interface SuiteReportData {
  folders: SuiteReportView[];
}

const zero = (): SeverityCounts => ({ error: 0, warning: 0, info: 0, hint: 0 });

export function buildReportView(folder: string, index: WorkspaceIndex, diagnostics: LintDiagnostic[]): SuiteReportView {
  const report = buildSuiteReport(index, diagnostics);
  const findCase = caseFinder(index);
  const findings = new Map<string, SeverityCounts>();
  const outsideCases = zero();
  for (const d of diagnostics) {
    const family = findCase(d.uri, d.offset)?.family;
    if (family === undefined) {
      outsideCases[d.severity]++;
      continue;
    }
    let counts = findings.get(family);
    if (!counts) findings.set(family, (counts = zero()));
    counts[d.severity]++;
  }
  // The quarantine names instances as the report does (an id, or `path:line` when it is not unique).
  const familyOfInstance = new Map<string, string | undefined>();
  for (const c of index.cases) familyOfInstance.set(instanceName(index, c), c.family);
  const quarantined = new Map<string, Set<string>>();
  for (const q of report.quarantine) {
    for (const name of q.instances) {
      const family = familyOfInstance.get(name);
      if (family === undefined) continue;
      let set = quarantined.get(family);
      if (!set) quarantined.set(family, (set = new Set()));
      set.add(name);
    }
  }
  const families = report.families.map(
    (f): FamilyView => ({
      family: f.family,
      adversarial: f.adversarial,
      benign: f.benign,
      missing: [...f.missing],
      findings: findings.get(f.family) ?? zero(),
      quarantined: quarantined.get(f.family)?.size ?? 0,
    }),
  );
  // Every pair would make the message grow with the suite; the view shows their number.
  const trimmed: SuiteReport = { ...report, twins: { ...report.twins, pairs: [] } };
  return displaySafe({ folder, report: trimmed, pairs: report.twins.pairs.length, families, outsideCases });
}

const MAX_TEXT = 2000;

/**
 * Every string of the view (names and messages from suite files, which are hostile by design)
 * through core's `escapeText`, keys included: hidden, bidi and control characters arrive as
 * visible escapes, so no client can render them as they are.
 */
function displaySafe<T>(value: T): T {
  if (typeof value === 'string') return escapeText(value, MAX_TEXT) as T;
  if (Array.isArray(value)) return value.map(displaySafe) as T;
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeText(k, MAX_TEXT), displaySafe(v)])) as T;
  }
  return value;
}
