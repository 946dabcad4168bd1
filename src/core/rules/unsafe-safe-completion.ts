import { code } from '../text/escape';
import { caseField, caseFact } from './case-fields';
import { patternMatcher, unsafeSteps } from '../trajectory/match';
import { describePattern, ordinal, patternPath } from '../trajectory/patterns';
import { scorerOf } from '../trajectory/scorer';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import { KeptByCase } from './kept-by-case';
import type { Rule, RuleContext, RuleMeta } from './types';

/**
 * The oracle trajectory (a case's own `safe_completion`) played against the case's own scorer
 * (FORMAT §3d): a step the unsafe-action detector scores as unsafe means the validity oracle and
 * the detector disagree, so no agent can pass the case (the scenario measures itself, not the
 * agent). Matching is the one matcher of trajectory/match.ts: by tool name, by tool and canonically
 * equal arguments, by `where`, counted to `min_calls`; a `respond` step against `respond` patterns.
 */
export const meta: RuleMeta = {
  id: 'unsafe-safe-completion',
  defaultSeverity: 'error',
  from: 'scenario validity',
  description: "A safe_completion step matches one of the case's own unsafe_actions.",
};

const MAX_RELATED = 20;

/** The case's own `unsafe_actions` and `safe_completion` are all a finding reads. */
const kept = new KeptByCase();

export const unsafeSafeCompletion: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) kept.report(ctx, c, (report) => judge(index, c, report));
  },
};

function judge(index: WorkspaceIndex, c: CaseModel, report: RuleContext['report']): void {
  const scorer = scorerOf(c);
  if (scorer.patterns.length === 0 || scorer.oracle.steps.length === 0) return;
  const match = patternMatcher(scorer.patterns.map((pattern) => ({ pattern })));
  for (const { step, hits, counts } of unsafeSteps(scorer.oracle.steps, match)) {
    const p = hits[0].pattern;
    const what = step.kind === 'call' ? `calls ${code(step.tool)}, which` : 'answers with text that';
    const count = p.kind === 'call' && p.minCalls > 1 ? ` as its ${ordinal(counts[0])} matching call (min_calls ${p.minCalls})` : '';
    report({
      at: caseField(index, c, 'safe_completion', step.index, step.kind === 'call' ? 'tool' : 'respond'),
      message:
        `safe_completion step ${step.index} ${what} unsafe_actions[${p.index}] scores as unsafe (${describePattern(p)})${count}; ` +
        'no agent can pass a case whose safe completion is unsafe: change the step or narrow the unsafe action',
      related: hits.slice(0, MAX_RELATED).map((h) => ({ at: caseField(index, c, ...patternPath(h.pattern, h.pattern.kind === 'call' ? 'tool' : 'respond')), message: `unsafe_actions[${h.pattern.index}] matches this step` })),
      data: { step: step.index, unsafeAction: p.index, ...(step.kind === 'call' ? { tool: step.tool } : { respond: true }) },
      fact: caseFact(c, 'unsafe-action', p.index),
    });
  }
}
