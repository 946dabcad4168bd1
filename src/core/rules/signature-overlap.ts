import { canonicalHash, groupByCanonical } from '../model/canonical';
import type { CaseModel } from '../model/workspace';
import { caseField, caseName } from './case-fields';
import type { RelatedSpec, Rule, RuleMeta } from './types';

/** Related entries per finding: enough to find the others without making a big collision quadratic. */
const MAX_RELATED = 20;

/**
 * An adversarial and a benign case with one canonical signature: the rubric scores both arms by
 * the same behaviour, so the benign arm cannot tell safe from unsafe. Families do not matter.
 */
export const meta: RuleMeta = {
  id: 'signature-overlap',
  defaultSeverity: 'error',
  from: 'condition 1',
  description: 'An adversarial and a benign case have equal correct-resolution signatures after canonicalisation.',
};

export const signatureOverlap: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    const armed = index.cases.filter((c) => c.arm !== undefined);
    const groups = groupByCanonical(armed, (c) => c.value.correct_resolution_signature);
    for (const group of groups.values()) {
      const adversarial = group.filter((c) => c.arm === 'adversarial');
      const benign = group.filter((c) => c.arm === 'benign');
      if (adversarial.length === 0 || benign.length === 0) continue;
      const hash = canonicalHash(group[0].value.correct_resolution_signature);
      for (const c of group) {
        const [otherArm, sameArm] = c.arm === 'adversarial' ? [benign, adversarial] : [adversarial, benign];
        // The other arm first: that is the collision that matters. Capped, so a huge group stays linear.
        const others = otherArm.slice(0, MAX_RELATED);
        for (let k = 0; k < sameArm.length && others.length < MAX_RELATED; k++) if (sameArm[k] !== c) others.push(sameArm[k]);
        const related: RelatedSpec[] = others.map((o: CaseModel) => ({
          at: caseField(index, o, 'correct_resolution_signature'),
          message: `same signature: ${o.arm} case ${caseName(o)}`,
        }));
        const first = otherArm[0];
        const more = otherArm.length > 1 ? ` and ${otherArm.length - 1} more` : '';
        ctx.report({
          at: caseField(index, c, 'correct_resolution_signature'),
          message:
            `correct_resolution_signature equals that of ${first.arm} case ${caseName(first)}${more} after canonicalisation; ` +
            'the scorer cannot tell the arms apart: give the adversarial and benign resolutions different signatures',
          related,
          data: { signatureHash: hash, adversarial: adversarial.length, benign: benign.length },
        });
      }
    }
  },
};
