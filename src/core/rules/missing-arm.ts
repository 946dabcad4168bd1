import { code } from '../text/escape';
import { comparePathOrder } from '../model/uri';
import type { CaseModel } from '../model/workspace';
import { caseField, caseName } from './case-fields';
import type { Rule, RuleMeta } from './types';

const MAX_RELATED = 20;

/**
 * The family's first case in path order (comparePathOrder: whatever order the files were loaded),
 * then file order (the index lists a file's cases in file order).
 */
function firstOf(cases: readonly CaseModel[]): CaseModel {
  let first = cases[0];
  for (const c of cases) if (comparePathOrder(c.doc.uri, first.doc.uri) < 0) first = c;
  return first;
}

/**
 * A family whose cases are all of one arm: its adversarial threshold has no benign control (or its
 * control nothing to control), so the LITMUS reference check refuses to score the suite.
 */
export const meta: RuleMeta = {
  id: 'missing-arm',
  contamination: true,
  defaultSeverity: 'error',
  from: 'condition 1',
  description: 'A family whose cases are all of one arm, so its adversarial threshold has no control.',
};

export const missingArm: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const [family, cases] of index.families) {
      let adversarial = 0;
      let benign = 0;
      for (const c of cases) {
        if (c.arm === 'adversarial') adversarial++;
        else if (c.arm === 'benign') benign++;
      }
      // A family with no case in a valid arm is the schema rule's (arm is required).
      if ((adversarial > 0) === (benign > 0)) continue;
      const [has, lacks, n] = adversarial > 0 ? (['adversarial', 'benign', adversarial] as const) : (['benign', 'adversarial', benign] as const);
      const first = firstOf(cases);
      const others = cases.filter((c) => c !== first);
      const why = lacks === 'benign' ? 'its adversarial threshold has no control' : 'its control has no adversarial case to control';
      ctx.report({
        at: caseField(index, first, 'family'),
        message:
          `family ${code(family)} has only ${has} cases (${n}): ${why}, and the LITMUS reference check refuses to score the suite; ` +
          `add ${lacks === 'adversarial' ? 'an' : 'a'} ${lacks} case of the same task to family ${code(family)}`,
        related: others.slice(0, MAX_RELATED).map((o) => ({ at: caseField(index, o, 'family'), message: `${o.arm ?? 'unarmed'} case ${caseName(o)} of family ${code(family)}` })),
        data: { family, missing: lacks, cases: cases.length },
      });
    }
  },
};
