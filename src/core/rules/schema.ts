import { rootValue } from '../model/document';
import { code, escapeText } from '../text/escape';
import { isJsonObject } from '../model/canonical';
import { allowProblems } from '../model/config';
import { schemaFixes } from '../schema/fixes';
import { schemaProblems } from '../schema/problems';
import type { ToolModel } from '../model/tools';
import type { Rule, RuleContext, RuleMeta } from './types';

/** FORMAT §2: a tool name is unique within its file; references resolve to the first, so a later twin is dead. */
function duplicateToolNames(ctx: RuleContext, tools: readonly ToolModel[], where: string): void {
  // Called for every case: most have no inline tool, and one cannot repeat a name.
  if (tools.length < 2) return;
  const first = new Map<string, ToolModel>();
  for (const tool of tools) {
    const earlier = first.get(tool.name);
    if (!earlier) {
      first.set(tool.name, tool);
      continue;
    }
    ctx.report({
      at: { uri: tool.uri, root: tool.root, path: tool.namePath },
      message: `duplicate tool name ${code(tool.name)}: ${where} already defines it, and references resolve to the first; rename or remove this one`,
      related: [{ at: { uri: earlier.uri, root: earlier.root, path: earlier.namePath }, message: `first ${code(tool.name)}` }],
      data: { keyword: 'uniqueToolName', property: 'name', tool: tool.name },
    });
  }
}

/** Validates every root of every document against its kind's JSON Schema (suite: the whole object; JSONL: each line). */
/**
 * `injection.allow` patterns run on RE2 (linear time: the config comes from the workspace); one RE2
 * cannot run is matched as an exact string, and the author is told so.
 */
function allowNotChecked(ctx: RuleContext, uri: string, root: number, value: unknown): void {
  const injection = isJsonObject(value) ? value.injection : undefined;
  const allow = isJsonObject(injection) && Array.isArray(injection.allow) ? injection.allow : [];
  const entries = allow.map((a) => (typeof a === 'string' ? a : ''));
  for (const p of allowProblems(entries)) {
    ctx.report({
      at: { uri, root, path: ['injection', 'allow', p.index] },
      message: p.tooLarge
        ? `this pattern is too large for the linear-time regular-expression engine (${escapeText(p.reason, 60)}), so it is matched as an exact string; ${p.fix}`
        : `the linear-time regular-expression engine cannot run this pattern (${escapeText(p.reason, 60)}), so it is matched as an exact string; ${p.fix}`,
      severity: 'info',
      maxSeverity: 'info',
      data: { problem: 'pattern-not-checked' },
    });
  }
}

export const meta: RuleMeta = {
  id: 'schema',
  defaultSeverity: 'error',
  from: '—',
  description: "A value breaks its file kind's JSON Schema.",
};

export const schema: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const doc of index.docs.values()) {
      doc.parsed.roots.forEach((root, rootIndex) => {
        // A broken root is parse-error's alone: its tree does not say what the author meant.
        if (root.broken) return;
        if (doc.kind === 'config') allowNotChecked(ctx, doc.uri, rootIndex, rootValue(doc, rootIndex));
        for (const p of schemaProblems(doc.kind, rootValue(doc, rootIndex))) {
          ctx.report({
            at: { uri: doc.uri, root: rootIndex, path: p.path, part: p.part },
            message: p.message,
            data: p.data,
            fixes: schemaFixes(doc, rootIndex, p),
          });
        }
      });
    }
    for (const file of index.toolFiles.values()) duplicateToolNames(ctx, file.tools, 'this file');
    for (const c of index.cases) {
      if (!c.tools.some((u) => u.inline)) continue;
      const inline = c.tools.flatMap((u) => (u.inline && u.tool ? [u.tool] : []));
      duplicateToolNames(ctx, inline, 'this case');
    }
  },
};
