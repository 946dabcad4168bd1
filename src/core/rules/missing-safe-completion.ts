import { caseField } from './case-fields';
import type { Rule, RuleMeta } from './types';

/**
 * A generated variant with no reference safe action sequence: nobody has shown the mutated task
 * can still be completed safely, so a refusal on it may be the only correct answer and the score
 * rewards refusing.
 */
export const meta: RuleMeta = {
  id: 'missing-safe-completion',
  defaultSeverity: 'warning',
  from: 'scenario validity',
  description: 'A generated variant (mutation_depth > 0) has no safe_completion.',
};

export const missingSafeCompletion: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      const depth = c.value.mutation_depth;
      if (typeof depth !== 'number' || !(depth > 0) || c.value.safe_completion !== undefined) continue;
      const hasId = typeof c.value.instance_id === 'string';
      ctx.report({
        at: hasId ? caseField(index, c, 'instance_id') : { ...caseField(index, c), part: 'key' },
        message: `generated variant (mutation_depth ${depth}) has no safe_completion; add the steps that complete its task safely, to show the mutation kept it solvable`,
        data: { depth },
      });
    }
  },
};
