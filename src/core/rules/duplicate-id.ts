import { code } from '../text/escape';
import type { Rule, RuleMeta } from './types';

/**
 * Every occurrence of a shared instance_id, each pointing at the others, up to MAX_RELATED of them:
 * n cases sharing an id would otherwise give n² related locations (1,100 cases: a SARIF report
 * past the longest string V8 can build). The message says how many there are in all.
 */
const MAX_RELATED = 20;

export const meta: RuleMeta = {
  id: 'duplicate-id',
  defaultSeverity: 'error',
  from: '—',
  description: 'Two cases share an instance_id anywhere in the workspace.',
};

export const duplicateId: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const [id, cases] of index.casesById) {
      if (cases.length < 2) continue;
      for (const c of cases) {
        const others = [];
        for (let k = 0; k < cases.length && others.length < MAX_RELATED; k++) if (cases[k] !== c) others.push(cases[k]);
        const total = cases.length - 1;
        const shown = total > others.length ? ` (${others.length} linked, ${total - others.length} more not shown)` : '';
        ctx.report({
          at: { uri: c.doc.uri, root: c.root, path: index.casePath(c, 'instance_id') },
          message: `instance_id ${code(id)} is also used by ${total} other case${total === 1 ? '' : 's'}${shown}; give each case its own id`,
          related: others.map((o) => ({
            at: { uri: o.doc.uri, root: o.root, path: index.casePath(o, 'instance_id') },
            message: `also ${code(id)}`,
          })),
        });
      }
    }
  },
};
