import { suppressionsOf } from '../model/suppressions';
import type { WorkspaceIndex } from '../model/workspace';
import { ALL_RULES } from '../rules/index';
import type { Finding } from '../rules/types';
import { pushTo, appendAll } from '../text/multimap';
import { compareDiagnostics, knownRuleIds, placeFindings, rulesOffEverywhere, runRule, type LintDiagnostic, type LintOptions, type LintResult } from './lint';
import { applySuppressions } from './suppress';
import { groupFacts } from './facts';

/** Runs the rules over the index and places every finding in its document. */
export function lintIndex(index: WorkspaceIndex, options: LintOptions = {}): LintResult {
  const memo = new Map<string, unknown>();
  const findings: Finding[] = [];
  const rules = options.rules ?? ALL_RULES;
  const ruleIds = knownRuleIds(rules);
  const off = rulesOffEverywhere(index, rules);
  for (const rule of rules) {
    if (options.isCancelled?.()) return { diagnostics: [], cancelled: true };
    if (off.has(rule.meta.id)) continue;
    appendAll(findings, runRule(rule, index, memo, index, ruleIds, undefined, false, options.times));
  }
  const only = options.onlyUris;
  const placed = placeFindings(findings, index, only ? (uri) => only.has(uri) : undefined);
  placed.sort(compareDiagnostics);
  return { diagnostics: groupFacts(suppressed(index, placed, options), index.roots[0]), cancelled: false };
}

/** The sorted diagnostics with every document's suppressions applied. */
function suppressed(index: WorkspaceIndex, diagnostics: LintDiagnostic[], options: LintOptions): LintDiagnostic[] {
  if (options.inlineConfig === false) return diagnostics;
  const carriers = [...index.docs.values()].filter((d) => (!options.onlyUris || options.onlyUris.has(d.uri)) && suppressionsOf(d).length > 0);
  if (carriers.length === 0) return diagnostics;
  const ran = options.rules ? new Set(options.rules.map((r) => r.meta.id)) : undefined;
  const byUri = new Map<string, LintDiagnostic[]>();
  for (const d of diagnostics) pushTo(byUri, d.uri, d);
  const carrying = new Set(carriers.map((c) => c.uri));
  const out = diagnostics.filter((d) => !carrying.has(d.uri));
  for (const doc of carriers) appendAll(out, applySuppressions(index, doc, byUri.get(doc.uri) ?? [], ran, options.keepSuppressed));
  return out.sort(compareDiagnostics);
}
