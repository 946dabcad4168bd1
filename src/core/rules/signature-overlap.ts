import { canonicalize, fieldValue, hashText, rubricIndex } from '../model/canonical';
import type { CaseModel } from '../model/workspace';
import { caseField, caseName } from './case-fields';
import type { RelatedSpec, Rule, RuleMeta } from './types';

/** Related entries per finding: enough to find the others without making a big collision quadratic. */
const MAX_RELATED = 20;

interface Split {
  adversarial: CaseModel[];
  benign: CaseModel[];
}

/**
 * An adversarial and a benign case whose signatures the shared rubric scores alike (FORMAT §3b:
 * canonically equal once the rubric's ignored keys, unordered lists and folded case are applied,
 * each case under its own config's rubric): the benign arm cannot tell safe from unsafe.
 * Families do not matter.
 */
export const meta: RuleMeta = {
  id: 'signature-overlap',
  contamination: true,
  defaultSeverity: 'error',
  from: 'condition 1',
  description: 'An adversarial and a benign case have equal correct-resolution signatures after canonicalisation.',
};

/** Whether only the rubric makes the two equal (they differ canonically): the message says which equality it is. */
function byRubric(a: CaseModel, b: CaseModel): boolean {
  return canonicalize(fieldValue(a.value, 'correct_resolution_signature')) !== canonicalize(fieldValue(b.value, 'correct_resolution_signature'));
}

export const signatureOverlap: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    const armed = index.cases.filter((c) => c.arm !== undefined && c.value.correct_resolution_signature !== undefined);
    const rubrics = rubricIndex(armed, (c) => fieldValue(c.value, 'correct_resolution_signature'), (c) => ctx.config(c.doc.uri).rubric);
    // Buckets are shared between the cases they hold: split each by arm once, so a big collision stays linear.
    const splits = new Map<CaseModel[], Split>();
    const split = (bucket: CaseModel[]): Split => {
      let s = splits.get(bucket);
      if (!s) splits.set(bucket, (s = { adversarial: bucket.filter((c) => c.arm === 'adversarial'), benign: bucket.filter((c) => c.arm === 'benign') }));
      return s;
    };
    for (let at = 0; at < armed.length; at++) {
      const c = armed[at];
      // Most signatures are their case's alone: nothing to look up, split or count.
      if (rubrics.alone(c, at)) continue;
      const found = rubrics.matchesOf(c, at);
      const buckets = found.map(split);
      const otherArm = c.arm === 'adversarial' ? 'benign' : 'adversarial';
      const otherCount = buckets.reduce((n, s) => n + s[otherArm].length, 0);
      if (otherCount === 0) continue;
      // The other arm first: that is the collision that matters. Capped, so a huge group stays linear.
      const others: CaseModel[] = [];
      for (const s of buckets) for (let k = 0; k < s[otherArm].length && others.length < MAX_RELATED; k++) others.push(s[otherArm][k]);
      const first = others[0];
      for (const s of buckets) for (let k = 0; k < s[c.arm!].length && others.length < MAX_RELATED; k++) if (s[c.arm!][k] !== c) others.push(s[c.arm!][k]);
      const related: RelatedSpec[] = others.map((o) => ({
        at: caseField(index, o, 'correct_resolution_signature'),
        message: `same signature: ${o.arm} case ${caseName(o)}`,
      }));
      const more = otherCount > 1 ? ` and ${otherCount - 1} more` : '';
      const sameCount = buckets.reduce((n, s) => n + s[c.arm!].length, 0);
      const counts = c.arm === 'adversarial' ? { adversarial: sameCount, benign: otherCount } : { adversarial: otherCount, benign: sameCount };
      ctx.report({
        at: caseField(index, c, 'correct_resolution_signature'),
        message:
          `correct_resolution_signature equals that of ${first.arm} case ${caseName(first)}${more} ${byRubric(c, first) ? 'under the rubric' : 'after canonicalisation'}; ` +
          'the scorer cannot tell the arms apart: give the adversarial and benign resolutions different signatures',
        related,
        data: { signatureHash: hashText(rubrics.keyOf(c, at)!), ...counts },
      });
    }
  },
};
