import { code, escapeText } from '../text/escape';
import type { ToolModel } from '../model/tools';
import { unsatisfiable } from '../schema/satisfiable';
import type { Rule, RuleMeta } from './types';
import { appendAll } from '../text/multimap';

/**
 * A tool whose parameter schema accepts nothing cannot be called correctly, so no case that uses
 * it can be completed safely: the only passing behaviour is refusing.
 */
export const meta: RuleMeta = {
  id: 'unsatisfiable-tool-contract',
  defaultSeverity: 'error',
  from: 'scenario validity',
  description: 'A parameter schema that no value can satisfy.',
};

export const unsatisfiableToolContract: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    const tools: ToolModel[] = [];
    for (const file of index.toolFiles.values()) appendAll(tools, file.tools);
    for (const c of index.cases) for (const use of c.tools) if (use.inline && use.tool) tools.push(use.tool);
    for (const tool of tools) {
      if (!tool.schemaPath) continue;
      for (const culprit of unsatisfiable(tool.schema)) {
        ctx.report({
          at: { uri: tool.uri, root: tool.root, path: [...tool.schemaPath, ...culprit.path] },
          message: `${code(tool.name)}: ${culprit.message}`,
          related: culprit.related
            ? [{ at: { uri: tool.uri, root: tool.root, path: [...tool.schemaPath, ...culprit.related.path] }, message: escapeText(culprit.related.message, 80) }]
            : [],
          data: { tool: tool.name },
        });
      }
    }
  },
};
