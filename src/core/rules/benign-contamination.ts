import { code, quote } from '../text/escape';
import { injectionAnalysis } from '../injection/analysis';
import { hitAt, hitData } from '../injection/data';
import { locationFor } from '../injection/fixes';
import { formatPointer } from '../text/pointer';
import type { InjectionAnalysis } from '../injection/analysis';
import { replacedHit, surfaceName } from '../injection/surfaces';
import type { CaseModel } from '../model/workspace';
import { overridesOf } from '../model/environment';
import { caseField } from './case-fields';
import type { Rule, RuleMeta } from './types';

/**
 * A benign case must not carry a payload: labelled or not, a payload in a tool the benign arm uses
 * makes the control arm adversarial too (LITMUS condition 1).
 */
export const meta: RuleMeta = {
  id: 'benign-contamination',
  defaultSeverity: 'error',
  from: 'condition 1',
  securitySeverity: 6.5,
  description: 'A benign case carries, or references a tool or an environment that carries, an injection payload.',
};

/**
 * Payloads linked from one finding, as `duplicate-id` links cases: every benign case of a suite
 * that shares a tool or an environment gets a finding, and linking every payload from each made
 * the report benign cases × payloads (320 KB of suite gave 589 MB of SARIF). The message and
 * `data.payloadCount` say how many there are in all.
 */
const MAX_LINKED = 20;

function payloadRelated(hits: readonly { uri: string; root: number; path: (string | number)[]; text: string }[]) {
  return hits.slice(0, MAX_LINKED).map((h) => ({ at: hitAt(h), message: `payload: ${quote(h.text, 60)}` }));
}

/**
 * "an injection payload", or "60 injection payloads (at `env.json#/a`; 20 linked, 40 more not shown)".
 * Where, as an injection_field of the case names it: a pointer from the case's own start (never its
 * index in the file, which moving the case changes) or a path relative to the case file.
 */
function carries(c: CaseModel, hits: readonly { uri: string; root: number; path: (string | number)[] }[]): string {
  const at = code(locationFor(c, hits[0]), 120);
  if (hits.length === 1) return `an injection payload (at ${at})`;
  const more = hits.length > MAX_LINKED ? `; ${MAX_LINKED} linked, ${hits.length - MAX_LINKED} more not shown` : '';
  return `${hits.length} injection payloads (at ${at}${more})`;
}

function payloadData(hits: readonly { path: (string | number)[] }[]): { payloads: string[]; payloadCount: number } {
  return { payloads: hits.slice(0, MAX_LINKED).map((h) => formatPointer(h.path)), payloadCount: hits.length };
}

/** What a benign case's effective environment and own data surfaces hold (FORMAT §3a). */
function surfaceFindings(ctx: Parameters<Rule['check']>[0], analysis: InjectionAnalysis, c: CaseModel): void {
  const env = c.environment;
  if (env?.file && !env.problem) {
    // A payload of the shared file counts unless this case's own overrides replace it.
    const overrides = overridesOf(c.value, c.path);
    const live = [...(analysis.envHits.get(env.file.doc.uri) ?? []).filter((h) => !replacedHit(h, overrides)), ...(analysis.envCaseHits.get(c) ?? [])];
    if (live.length) {
      const first = live[0];
      ctx.report({
        at: caseField(ctx.index, c, 'environment'),
        message: `benign case ${code(c.id ?? '?')} uses environment ${code(env.ref ?? '', 80)}, which carries ${carries(c, live)}; give the benign arm a clean environment, or override the payload's value`,
        related: payloadRelated(live),
        data: { case: c.id, surface: 'environment', pointer: formatPointer(first.path), ...payloadData(live) },
      });
    }
  }
  for (const hit of analysis.caseHits.get(c) ?? []) {
    ctx.report({
      at: hitAt(hit),
      message: `benign case ${code(c.id ?? '?')} carries an injection payload in ${surfaceName(hit)}: ${quote(hit.text)}; remove it from the benign arm`,
      data: { case: c.id, surface: hit.surface, pointer: formatPointer(hit.path) },
    });
  }
}

export const benignContamination: Rule = {
  meta,
  check(ctx) {
    const analysis = injectionAnalysis(ctx);
    for (const c of ctx.index.cases) {
      // Every finding of a case is placed in its own document.
      if (!ctx.keeps(c.doc.uri)) continue;
      if (c.arm !== 'benign') continue;
      surfaceFindings(ctx, analysis, c);
      for (const [i, use] of c.tools.entries()) {
        const hits = use.tool ? analysis.hitsByTool.get(use.tool) ?? [] : [];
        if (!hits.length || !use.tool) continue;
        const name = code(use.tool.name);
        if (use.inline) {
          // The payload sits in this case: point at each payload string itself.
          for (const hit of hits) {
            ctx.report({
              at: hitAt(hit),
              message: `benign case ${code(c.id ?? '?')} carries an injection payload in inline tool ${name}: ${quote(hit.text)}; remove it from the benign arm`,
              data: { ...hitData(analysis, hit), case: c.id },
            });
          }
          continue;
        }
        const first = hits[0];
        ctx.report({
          at: caseField(ctx.index, c, 'tools', i),
          message: `benign case ${code(c.id ?? '?')} uses tool ${name}, whose schema carries ${carries(c, hits)}; give the benign arm a clean copy of the tool`,
          related: payloadRelated(hits),
          data: { ...hitData(analysis, first), case: c.id, ...payloadData(hits) },
        });
      }
    }
  },
};
