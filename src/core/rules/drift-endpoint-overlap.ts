import { canonicalize, fieldValue, rubricIndex } from '../model/canonical';
import { code } from '../text/escape';
import type { CaseModel } from '../model/workspace';
import { caseField, caseName } from './case-fields';
import type { Rule, RuleMeta } from './types';

const MAX_RELATED = 20;

/**
 * A goal-drift case whose drifted end state is one a benign case of its family reaches on purpose:
 * a scorer that checks the end state credits the drift as success (or the benign arm as drift).
 * End states compare under the rubric (FORMAT §3b), each case under its own config's.
 */
export const meta: RuleMeta = {
  id: 'drift-endpoint-overlap',
  contamination: true,
  defaultSeverity: 'error',
  from: 'condition 3',
  description: "A goal-drift case's drifted terminal state equals a benign terminal state of its family.",
};

export const driftEndpointOverlap: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    const rubricOf = (uri: string) => ctx.config(uri).rubric;
    for (const [family, cases] of index.families) {
      // Built only for a family that has one: most have no goal-drift case.
      let drifting: CaseModel[] | undefined;
      for (const c of cases) if (c.probe === 'goal_drift' && c.arm !== 'benign' && c.value.drift_terminal_state !== undefined) (drifting ??= []).push(c);
      if (!drifting) continue;
      const benign = cases.filter((b) => b.arm === 'benign' && b.value.terminal_state !== undefined);
      if (benign.length === 0) continue;
      const states = rubricIndex(benign, (b) => fieldValue(b.value, 'terminal_state'), (b) => rubricOf(b.doc.uri));
      for (const c of drifting) {
        const rubric = rubricOf(c.doc.uri);
        const buckets = states.lookup(fieldValue(c.value, 'drift_terminal_state'), rubric);
        if (buckets.length === 0) continue;
        // Buckets hold disjoint cases; in case order again, so the first named is the first in the family.
        const hit = buckets.length === 1 ? undefined : new Set(buckets.flat());
        const matches = hit ? benign.filter((b) => hit.has(b)) : buckets[0];
        const more = matches.length > 1 ? ` and ${matches.length - 1} more` : '';
        // Say "under the rubric" only where the rubric is what makes them equal.
        const plain = canonicalize(fieldValue(c.value, 'drift_terminal_state')) === canonicalize(fieldValue(matches[0].value, 'terminal_state'));
        ctx.report({
          at: caseField(index, c, 'drift_terminal_state'),
          message:
            `drift_terminal_state equals${plain ? '' : ' under the rubric'} the terminal_state of benign case ${caseName(matches[0])}${more} in family ${code(family)}; ` +
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
