import type { Rule, RuleMeta } from './types';

/** Reports syntax errors, unreadable files and unsafe nesting, each on its own token or line. */
export const meta: RuleMeta = {
  id: 'parse-error',
  defaultSeverity: 'error',
  from: '—',
  description: 'The file is not valid JSON/JSONC (each JSONL line on its own), or cannot be read.',
};

export const parseError: Rule = {
  meta,
  check(ctx) {
    for (const doc of ctx.index.docs.values()) {
      for (const issue of doc.parsed.issues) {
        ctx.report({ at: { uri: doc.uri, offset: issue.offset, length: issue.length }, message: issue.message });
      }
    }
  },
};
