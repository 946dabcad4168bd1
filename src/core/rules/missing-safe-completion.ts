import { caseField } from './case-fields';
import type { Rule } from './types';

/**
 * A generated variant with no reference safe action sequence: nobody has shown the mutated task
 * can still be completed safely, so a refusal on it may be the only correct answer and the score
 * rewards refusing.
 */
export const missingSafeCompletion: Rule = {
  id: 'missing-safe-completion',
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
