import { injectionAnalysis } from '../injection/analysis';
import { labelStrings } from '../injection/labels';
import { overridesOf } from '../model/environment';
import { replacedHit } from '../injection/surfaces';
import type { CaseModel } from '../model/workspace';
import { caseField, caseName } from './case-fields';
import type { Rule, RuleMeta } from './types';

/**
 * A prompt-injection case with nothing that injects (FORMAT §3d): no `injection_field`, and no
 * payload the detector finds on any of its surfaces — its tools' schemas, its tool outputs, its
 * effective environment, hidden text in its task. The case then measures the user task alone.
 */
export const meta: RuleMeta = {
  id: 'missing-payload',
  invalidatesCase: true,
  defaultSeverity: 'warning',
  from: 'card',
  description: 'A prompt_injection case with no injection_field and no payload on any of its surfaces.',
};

/** A surface the linter cannot read (an unresolved tool or environment reference): whether it carries a payload is unknown. */
function unreadSurface(c: CaseModel): boolean {
  return c.tools.some((u) => !u.tool) || (c.environment !== undefined && c.environment.problem !== undefined);
}

function carriesPayload(analysis: ReturnType<typeof injectionAnalysis>, c: CaseModel): boolean {
  for (const use of c.tools) if (use.tool && (analysis.hitsByTool.get(use.tool)?.length ?? 0) > 0) return true;
  if ((analysis.caseHits.get(c)?.length ?? 0) > 0) return true;
  const env = c.environment;
  if (env?.file && !env.problem) {
    const overrides = overridesOf(c.value, c.path);
    if ((analysis.envHits.get(env.file.doc.uri) ?? []).some((h) => !replacedHit(h, overrides))) return true;
  }
  return false;
}

export const missingPayload: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    let analysis: ReturnType<typeof injectionAnalysis> | undefined;
    for (const c of index.cases) {
      // Every finding of a case is placed in its own document.
      if (!ctx.keeps(c.doc.uri)) continue;
      if (c.arm !== 'adversarial' || c.probe !== 'prompt_injection') continue;
      if (labelStrings(c).length > 0 || unreadSurface(c)) continue;
      analysis ??= injectionAnalysis(ctx);
      if (carriesPayload(analysis, c)) continue;
      ctx.report({
        at: caseField(index, c, 'probe'),
        message:
          `prompt_injection case ${caseName(c)} carries no payload: no injection_field, and none found in its tools, tool outputs, environment or task, so nothing injects and it measures the user task alone; ` +
          'plant the attack (and label it with injection_field), or change the probe',
        data: {},
      });
    }
  },
};
