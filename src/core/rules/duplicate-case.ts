import { duplicateForm, duplicateKey, hintPart } from '../model/duplicate';
import { comparePathOrder } from '../model/uri';
import type { CaseModel } from '../model/workspace';
import { pushTo } from '../text/multimap';
import { caseField, caseName } from './case-fields';
import type { Rule, RuleMeta } from './types';

/**
 * Two cases equal in everything but their ids (FORMAT §3d): canonically equal once `instance_id`,
 * `family`, `paired_with` and `x-` fields are set aside, in the same family or not. A copy doubles
 * its weight in every arm score without adding a test. Each later copy is reported once, pointing
 * at the first (path order, then file order): a family of 5,000 copies gives 4,999 findings of one
 * related location each, never n².
 */
export const meta: RuleMeta = {
  id: 'duplicate-case',
  invalidatesCase: true,
  defaultSeverity: 'warning',
  from: 'condition 1',
  description: 'Two cases are equal in everything but their ids: the copy doubles its weight in every arm score.',
};

/** Path order (comparePathOrder, as missing-arm's), then file order: where each case sits. */
function compareCases(a: CaseModel, b: CaseModel): number {
  if (a.doc.uri !== b.doc.uri) return comparePathOrder(a.doc.uri, b.doc.uri);
  if (a.root !== b.root) return a.root - b.root;
  const ai = typeof a.path[1] === 'number' ? a.path[1] : -1;
  const bi = typeof b.path[1] === 'number' ? b.path[1] : -1;
  return ai - bi;
}

/** Cases of equal keys, split by their forms: equal hashes of unequal forms are not copies. */
function* confirmed(byKey: ReadonlyMap<string, CaseModel[]>): Generator<CaseModel[]> {
  for (const alike of byKey.values()) {
    if (alike.length < 2) continue;
    const byForm = new Map<string, CaseModel[]>();
    for (const c of alike) pushTo(byForm, duplicateForm(c.doc.uri, c.value)!, c);
    for (const copies of byForm.values()) if (copies.length > 1) yield copies;
  }
}

export const duplicateCase: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    // Copies share their arm and task: only cases that share those with another case get their
    // whole canonical form built (a text the size of the case, for every case, was most of the rule).
    // Counted by arm, then by task as written, so no key text is built per case.
    const byArm = new Map<string, Map<string, number>>();
    const counts: Map<string, number>[] = [];
    const tasks: string[] = [];
    for (const c of index.cases) {
      const arm = hintPart(c.value.arm);
      const task = hintPart(c.value.task);
      let byTask = byArm.get(arm);
      if (!byTask) byArm.set(arm, (byTask = new Map()));
      byTask.set(task, (byTask.get(task) ?? 0) + 1);
      counts.push(byTask);
      tasks.push(task);
    }
    const byKey = new Map<string, CaseModel[]>();
    for (let i = 0; i < index.cases.length; i++) {
      const c = index.cases[i];
      if (counts[i].get(tasks[i])! < 2) continue;
      const key = duplicateKey(c.doc.uri, c.value);
      if (key !== undefined) pushTo(byKey, key, c);
    }
    for (const copies of confirmed(byKey)) {
      copies.sort(compareCases);
      const first = copies[0];
      copies.slice(1).forEach((c, k) => {
        const others = copies.length - 2;
        ctx.report({
          at: caseField(index, c, c.value.instance_id === undefined ? 'arm' : 'instance_id'),
          message:
            `case ${caseName(c)} is a copy of case ${caseName(first)}${others > 0 ? ` (and of ${others} other case${others === 1 ? '' : 's'})` : ''}: ` +
            'equal in everything but its id, family and pairing, it counts twice in every arm score without adding a test; remove it or make it a different test',
          related: [{ at: caseField(index, first, first.value.instance_id === undefined ? 'arm' : 'instance_id'), message: `first copy: case ${caseName(first)}` }],
          data: { first: first.id, copy: c.id, copies: copies.length, position: k + 1 },
        });
      });
    }
  },
};
