import type { SuiteDocument } from '../model/document';
import { suppressionRemoval, suppressionsOf, type Suppression } from '../model/suppressions';
import type { WorkspaceIndex } from '../model/workspace';
import { RULE_IDS } from '../rules/registry';
import { invalidReason, meta as unusedMeta } from '../rules/unused-suppression';
import { code } from '../text/escape';
import { documentChange } from '../text/fix';
import { compareDiagnostics, effectiveSeverity, toDiagnostic, type LintDiagnostic } from './lint';

const known = { ruleIds: RULE_IDS };

function covers(s: Suppression, d: LintDiagnostic): boolean {
  if (d.code !== s.rule) return false;
  switch (s.scope.kind) {
    case 'file':
      return true;
    case 'next-line':
      return d.range.start.line === s.scope.line;
    case 'case':
      return d.offset >= s.scope.start && d.offset < s.scope.end;
  }
}

function where(s: Suppression): string {
  switch (s.scope.kind) {
    case 'file':
      return 'in this file';
    case 'next-line':
      return 'on the next line';
    case 'case':
      return 'in this case';
  }
}

/**
 * One document's diagnostics with its suppressions applied (FORMAT §11): what a well-formed
 * suppression covers is dropped (with `keep`, kept and marked with the suppressions' reasons, for
 * reports that show what was accepted), and each one that covered nothing is reported as
 * `unused-suppression` — for the rules that ran (`ran`), and only when that rule ran too. The
 * same array comes back when the document carries no suppression.
 */
export function applySuppressions(
  index: WorkspaceIndex,
  doc: SuiteDocument,
  diagnostics: readonly LintDiagnostic[],
  ran: ReadonlySet<string> | undefined,
  keep = false,
): readonly LintDiagnostic[] {
  const all = suppressionsOf(doc);
  if (all.length === 0) return diagnostics;
  // The rules that ran may include a plugin's (docs/plugins.md): its id is a known rule too.
  const ids = ran && [...ran].some((id) => !known.ruleIds.includes(id)) ? { ruleIds: [...new Set([...RULE_IDS, ...ran])] } : known;
  const live = all.filter((s) => !invalidReason(ids, s));
  if (live.length === 0) return diagnostics;
  const used = new Set<Suppression>();
  const kept: LintDiagnostic[] = [];
  for (const d of diagnostics) {
    const by: Suppression[] = [];
    if (d.code !== unusedMeta.id) {
      for (const s of live) {
        if (!covers(s, d)) continue;
        used.add(s);
        by.push(s);
      }
    }
    if (by.length === 0) kept.push(d);
    else if (keep) kept.push({ ...d, suppressions: by.map((s) => ({ reason: s.reason })) });
  }
  if (!ran || ran.has(unusedMeta.id)) {
    const config = index.configFor(doc.uri);
    for (const s of live) {
      if (used.has(s) || (ran && !ran.has(s.rule))) continue;
      // When no id of the directive is used, every fix removes the directive whole.
      const whole = live.every((o) => o.directive !== s.directive || !used.has(o));
      const finding = {
        rule: unusedMeta.id,
        at: { uri: doc.uri, offset: s.offset, length: s.length },
        message: `This suppression of ${code(s.rule)} suppresses nothing: no ${code(s.rule)} finding ${where(s)}; remove it`,
        fixes: [{ title: 'Remove unused suppression', unambiguous: true, changes: [documentChange(doc, suppressionRemoval(doc, s, whole))] }],
        data: { rule: s.rule },
      };
      const severity = effectiveSeverity(finding, config);
      const placed = severity && toDiagnostic(index, finding, severity);
      if (placed) kept.push(placed);
    }
    kept.sort(compareDiagnostics);
  }
  return kept;
}
