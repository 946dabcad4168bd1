import { canonicalize } from '../model/canonical';
import { code } from '../text/escape';
import type { CaseModel } from '../model/workspace';
import { caseField, caseName } from './case-fields';
import type { Rule, RuleMeta } from './types';
import { pushTo } from '../text/multimap';

const MAX_RELATED = 20;

/**
 * A goal-drift case whose drifted end state is one a benign case of its family reaches on purpose:
 * a scorer that checks the end state credits the drift as success (or the benign arm as drift).
 */
export const meta: RuleMeta = {
  id: 'drift-endpoint-overlap',
  defaultSeverity: 'error',
  from: 'condition 3',
  description: "A goal-drift case's drifted terminal state equals a benign terminal state of its family.",
};

export const driftEndpointOverlap: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const [family, cases] of index.families) {
      const drifting = cases.filter((c) => c.probe === 'goal_drift' && c.arm !== 'benign' && c.value.drift_terminal_state !== undefined);
      if (drifting.length === 0) continue;
      const benignByState = new Map<string, CaseModel[]>();
      for (const b of cases) {
        if (b.arm !== 'benign') continue;
        const key = canonicalize(b.value.terminal_state);
        if (key === undefined) continue;
        pushTo(benignByState, key, b);
      }
      if (benignByState.size === 0) continue;
      for (const c of drifting) {
        const matches = benignByState.get(canonicalize(c.value.drift_terminal_state) ?? '');
        if (!matches) continue;
        const more = matches.length > 1 ? ` and ${matches.length - 1} more` : '';
        ctx.report({
          at: caseField(index, c, 'drift_terminal_state'),
          message:
            `drift_terminal_state equals the terminal_state of benign case ${caseName(matches[0])}${more} in family ${code(family)}; ` +
            'drift scored by end state would count as success: make the drifted end state one no benign case reaches',
          related: matches.slice(0, MAX_RELATED).map((b) => ({
            at: caseField(index, b, 'terminal_state'),
            message: `benign terminal_state of ${caseName(b)}`,
          })),
          data: { family, matches: matches.length },
        });
      }
    }
  },
};
