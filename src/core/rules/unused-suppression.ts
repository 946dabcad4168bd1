import { suppressionRemoval, suppressionsOf, type Suppression } from '../model/suppressions';
import { didYouMean } from '../text/similar';
import { code } from '../text/escape';
import { documentChange } from '../text/fix';
import type { Rule, RuleContext, RuleMeta } from './types';

export const meta: RuleMeta = {
  id: 'unused-suppression',
  defaultSeverity: 'warning',
  from: '—',
  description: 'A suppression comment or x-litmus-disable entry that suppresses nothing (or has no reason, or names no known rule).',
};

/**
 * The suppressions that can never suppress anything: no reason, misplaced, or naming no rule of
 * the linter. The ones that are well-formed but meet no finding are found after every other rule
 * has run (src/core/lint/suppress.ts), under this same rule id.
 */
export const unusedSuppression: Rule = {
  meta,
  check(ctx) {
    for (const doc of ctx.index.docs.values()) {
      for (const s of suppressionsOf(doc)) {
        const why = invalidReason(ctx, s);
        if (!why) continue;
        const fixes = [];
        const near = s.problem ? undefined : didYouMean(s.rule, ctx.ruleIds);
        if (near) {
          // It would start hiding findings: the author decides, never --fix.
          fixes.push({ title: `Change to ${code(near)}`, unambiguous: false, changes: [documentChange(doc, [{ offset: s.offset, length: s.length, content: near }])] });
        }
        fixes.push({ title: 'Remove this suppression', unambiguous: false, changes: [documentChange(doc, suppressionRemoval(doc, s, false))] });
        ctx.report({ at: { uri: doc.uri, offset: s.offset, length: s.length }, message: why + (near ? `; did you mean ${code(near)}?` : ''), fixes, data: { rule: s.rule } });
      }
    }
  },
};

/** Why a suppression suppresses nothing whatever the findings, or undefined when it can apply. */
export function invalidReason(ctx: Pick<RuleContext, 'ruleIds'>, s: Suppression): string | undefined {
  if (s.problem) return `This suppression suppresses nothing: it ${s.problem}`;
  if (s.rule === meta.id) return `${code(meta.id)} cannot be suppressed: remove the suppression that is unused instead`;
  if (!ctx.ruleIds.includes(s.rule)) return `${code(s.rule)} is not a rule id, so this suppression suppresses nothing`;
  return undefined;
}
