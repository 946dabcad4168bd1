import { canonicalize, fieldValue, rubricEqual, rubricIndex, type Rubric } from '../model/canonical';
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

/** Pairs compared one by one below this; past it, an index keeps a big family linear. */
const MAX_PAIRS_COMPARED = 64;

/**
 * The benign cases whose terminal state a drifting case's drifted one equals under the rubric, in
 * family order. A family has a case or two of each arm: they are compared directly, and an index
 * (one per family, a thousand on a large suite) is built only for a family big enough to need it.
 */
function benignMatches(drifting: CaseModel[], benign: CaseModel[], rubricOf: (uri: string) => Rubric): (c: CaseModel) => CaseModel[] {
  if (drifting.length * benign.length <= MAX_PAIRS_COMPARED) {
    return (c) => {
      const drift = fieldValue(c.value, 'drift_terminal_state');
      const rubric = rubricOf(c.doc.uri);
      return benign.filter((b) => rubricEqual(drift, rubric, fieldValue(b.value, 'terminal_state'), rubricOf(b.doc.uri)));
    };
  }
  const states = rubricIndex(benign, (b) => fieldValue(b.value, 'terminal_state'), (b) => rubricOf(b.doc.uri));
  return (c) => {
    const buckets = states.lookup(fieldValue(c.value, 'drift_terminal_state'), rubricOf(c.doc.uri));
    if (buckets.length < 2) return buckets[0] ?? [];
    // Buckets hold disjoint cases; in case order again, so the first named is the first in the family.
    const hit = new Set(buckets.flat());
    return benign.filter((b) => hit.has(b));
  };
}

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
      const matchesOf = benignMatches(drifting, benign, rubricOf);
      for (const c of drifting) {
        const matches = matchesOf(c);
        if (matches.length === 0) continue;
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
