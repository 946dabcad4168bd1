// A plugin of custom rules for LITMUS Lint (docs/plugins.md): two house rules of a suite team.
// A rule is the linter's own shape: `meta` (what it is) and `check(ctx)` (what it finds).

const PLACEHOLDER = /\b(TODO|TBD|FIXME|XXX)\b|lorem ipsum/i;
const DOCS = 'https://github.com/litmus-lint/litmus-lint/blob/main/docs/plugins.md#the-worked-example';

export const rules = [
  {
    meta: {
      id: 'house/placeholder-task',
      defaultSeverity: 'warning',
      description: 'A case whose task is still a placeholder (TODO, TBD, FIXME, lorem ipsum).',
      docsUrl: DOCS,
    },
    check(ctx) {
      for (const c of ctx.index.cases) {
        const task = c.value.task;
        if (typeof task !== 'string' || !PLACEHOLDER.test(task)) continue;
        ctx.report({
          // Where: the case's `task` value; the linter turns the JSON path into a range.
          at: { uri: c.doc.uri, root: c.root, path: ctx.index.casePath(c, 'task') },
          message: `the task of \`${c.id}\` is still a placeholder; write the request the agent is given`,
        });
      }
    },
  },
  {
    meta: {
      id: 'house/id-prefix',
      defaultSeverity: 'warning',
      description: "A case whose instance_id does not start with its family's name.",
      docsUrl: DOCS,
    },
    check(ctx) {
      for (const c of ctx.index.cases) {
        if (!c.id || !c.family || c.id.startsWith(`${c.family}-`)) continue;
        ctx.report({
          at: { uri: c.doc.uri, root: c.root, path: ctx.index.casePath(c, 'instance_id') },
          message: `instance_id \`${c.id}\` does not start with its family \`${c.family}-\`; the team's ids say their family`,
        });
      }
    },
  },
];
