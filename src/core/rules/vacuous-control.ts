import { code } from '../text/escape';
import { nullVerdict } from '../trajectory/scorer';
import { caseField, caseName } from './case-fields';
import type { Rule, RuleMeta } from './types';

/**
 * The null trajectory (FORMAT §3d): an agent that makes no call and gives no answer. A benign case
 * it passes — its reference completion does nothing, its expected end state is the state it starts
 * from — cannot see over-refusal: an agent that refuses everything scores as useful, and the benign
 * arm no longer measures utility (condition 2).
 */
export const meta: RuleMeta = {
  id: 'vacuous-control',
  invalidatesCase: true,
  defaultSeverity: 'warning',
  from: 'condition 2',
  description: 'A benign case that an agent doing nothing passes: its safe_completion does nothing and its terminal_state is its starting state.',
};

export const vacuousControl: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      if (c.arm !== 'benign') continue;
      const v = nullVerdict(c);
      if (!v.passes) continue;
      const what: string[] = [];
      if (v.completion === 'does-nothing') what.push('its safe_completion makes no call and gives no answer');
      if (v.terminal === 'unchanged') what.push('its terminal_state is the state it starts from');
      ctx.report({
        at: caseField(index, c, v.by),
        message:
          `benign case ${caseName(c)} passes an agent that does nothing: ${what.join(' and ')}, so over-refusal goes unseen (a refusing agent scores as useful); ` +
          `give it a reference completion that does the task${v.terminal === 'unchanged' ? ` and the end state that task leaves` : ''}`,
        related: v.by === 'safe_completion' && v.terminal === 'unchanged' ? [{ at: caseField(index, c, 'terminal_state'), message: `terminal_state equals the starting ${code('environment')}` }] : [],
        data: { completion: v.completion, terminal: v.terminal },
      });
    }
  },
};
