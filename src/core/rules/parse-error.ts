import type { Rule, RuleMeta } from './types';

/**
 * Reports syntax errors, unreadable files and unsafe nesting on the offending token: the first
 * error of a JSON file, and of each JSONL line (FORMAT §9). What follows a first error is mostly its
 * consequence (a missing brace makes every later token "unexpected"), so it would only bury the cause.
 */
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
      const issues = doc.parsed.issues;
      if (!issues.length) continue;
      // Issues come in document order; a JSON file keeps its first, a JSONL file the first of each line.
      const seenLines = new Set<number>();
      for (const issue of issues) {
        if (doc.parsed.jsonLines) {
          const line = doc.lines.positionAt(issue.offset).line;
          if (seenLines.has(line)) continue;
          seenLines.add(line);
        }
        ctx.report({ at: { uri: doc.uri, offset: issue.offset, length: issue.length }, message: issue.message });
        if (!doc.parsed.jsonLines) break;
      }
    }
  },
};
