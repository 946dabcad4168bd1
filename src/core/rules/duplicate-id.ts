import { code } from '../text/escape';
import type { Rule, RuleMeta } from './types';

/** Every occurrence of a shared instance_id, each pointing at the others. */
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
        const others = cases.filter((o) => o !== c);
        ctx.report({
          at: { uri: c.doc.uri, root: c.root, path: index.casePath(c, 'instance_id') },
          message: `instance_id ${code(id)} is also used by ${others.length} other case${others.length === 1 ? '' : 's'}; give each case its own id`,
          related: others.map((o) => ({
            at: { uri: o.doc.uri, root: o.root, path: index.casePath(o, 'instance_id') },
            message: `also ${code(id)}`,
          })),
        });
      }
    }
  },
};
