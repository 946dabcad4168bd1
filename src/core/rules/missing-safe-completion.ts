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
  description: 'A generated variant (mutation_depth > 0) has no safe_completion, or an empty one.',
};

export const missingSafeCompletion: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      const depth = c.value.mutation_depth;
      const steps = c.value.safe_completion;
      // An empty array is no completion (FORMAT §3): nothing shows the task is still solvable.
      const none = steps === undefined || (Array.isArray(steps) && steps.length === 0);
      if (typeof depth !== 'number' || !(depth > 0) || !none) continue;
      const hasId = typeof c.value.instance_id === 'string';
      ctx.report({
        at: hasId ? caseField(index, c, 'instance_id') : { ...caseField(index, c), part: 'key' },
        message: `generated variant (mutation_depth ${depth}) has ${steps === undefined ? 'no safe_completion' : 'an empty safe_completion, which is none'}; add the steps that complete its task safely, to show the mutation kept it solvable`,
        data: { depth },
      });
    }
  },
};
