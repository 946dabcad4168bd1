import type { Rule } from './types';

/** Reports syntax errors, unreadable files and unsafe nesting, each on its own token or line. */
export const parseError: Rule = {
  id: 'parse-error',
  check(ctx) {
    for (const doc of ctx.index.docs.values()) {
      for (const issue of doc.parsed.issues) {
        ctx.report({ at: { uri: doc.uri, offset: issue.offset, length: issue.length }, message: issue.message });
      }
    }
  },
};
