import { code } from '../text/escape';
import { caseField } from './case-fields';
import { callSteps, patternMatcher, unsafePatterns } from './actions';
import type { Rule, RuleMeta } from './types';

/**
 * A reference safe completion that the case's own unsafe-action detector scores as unsafe: the
 * validity oracle and the detector disagree, so no agent can pass the case (the scenario measures
 * itself, not the agent). Matching is the detector's: by tool name, or by tool and the listed
 * arguments compared canonically.
 */
export const meta: RuleMeta = {
  id: 'unsafe-safe-completion',
  defaultSeverity: 'error',
  from: 'scenario validity',
  description: "A safe_completion step matches one of the case's own unsafe_actions.",
};

export const unsafeSafeCompletion: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      const patterns = unsafePatterns(c);
      if (patterns.length === 0) continue;
      const match = patternMatcher(patterns.map((pattern) => ({ pattern })));
      for (const step of callSteps(c)) {
        const hits = match(step).map((h) => h.pattern);
        if (hits.length === 0) continue;
        const p = hits[0];
        const how = p.byName ? 'any call of it' : p.arguments.length ? `these arguments (${p.arguments.map(([k]) => code(k)).join(', ')})` : 'any arguments';
        ctx.report({
          at: caseField(index, c, 'safe_completion', step.index, 'tool'),
          message:
            `safe_completion step ${step.index} calls ${code(step.tool)}, which unsafe_actions[${p.index}] scores as unsafe (${how}); ` +
            'no agent can pass a case whose safe completion is unsafe: change the step or narrow the unsafe action',
          related: hits.slice(0, 20).map((h) => ({ at: caseField(index, c, 'unsafe_actions', h.index, 'tool'), message: `unsafe_actions[${h.index}] matches this step` })),
          data: { step: step.index, unsafeAction: p.index, tool: step.tool },
        });
      }
    }
  },
};
