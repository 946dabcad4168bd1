import { rootValue } from '../model/document';
import { code, escapeText } from '../text/escape';
import { isJsonObject } from '../model/canonical';
import { allowProblems } from '../model/config';
import { schemaFixes } from '../schema/fixes';
import { schemaProblems } from '../schema/problems';
import type { ToolModel } from '../model/tools';
import { metaSchemaProblem } from '../schema/compile';
import { isPlainSchema } from '../schema/plain';
import { parsePointer, pathInValue } from '../text/pointer';
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

const JSON_TYPES = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/**
 * FORMAT §2: a parameter schema is JSON Schema (2020-12 unless its `$schema` names an older draft,
 * read as draft-07). One its draft's meta-schema rejects cannot be compiled, so nothing that needs
 * it runs: steps calling the tool are not checked against it, and its values do not make a pattern
 * dead. Reported at the keyword the meta-schema names.
 */
function invalidParameterSchemas(ctx: RuleContext, tools: readonly ToolModel[]): void {
  for (const tool of tools) {
    if (!tool.schemaPath || isPlainSchema(tool.schema)) continue;
    const problem = metaSchemaProblem(tool.schema);
    if (!problem) continue;
    const tokens = parsePointer(problem.pointer) ?? [];
    const value = valueAtTokens(tool.schema, tokens);
    const keyword = tokens.length ? tokens[tokens.length - 1] : undefined;
    const typeName = keyword === 'type' || (tokens.length >= 2 && tokens[tokens.length - 2] === 'type' && /^\d+$/.test(keyword ?? ''));
    const older = olderDraft(tool.schema);
    const what =
      typeName && typeof value === 'string'
        ? `${code(value)} is not a JSON Schema type; use one of ${JSON_TYPES.map((t) => code(t)).join(', ')}`
        : `${keyword === undefined ? 'the schema' : code(keyword)} ${escapeText(problem.message, 80)} (JSON Schema ${problem.draft}${older ? `; a ${older} \`$schema\` is read as draft-07` : ''}); fix the keyword`;
    ctx.report({
      at: { uri: tool.uri, root: tool.root, path: [...tool.schemaPath, ...(pathInValue(tool.schema, tokens) ?? [])] },
      message: `${what}: ${code(tool.name)}'s parameter schema is not valid JSON Schema, so calls of it are not checked against it`,
      data: { keyword: 'parameterSchema', problem: 'invalid-parameter-schema', tool: tool.name },
    });
  }
}

/** The draft-04 or draft-06 a schema's `$schema` names: Ajv reads it as draft-07 (FORMAT §2 accepts 2020-12 and draft-07). */
function olderDraft(schema: unknown): string | undefined {
  const declared = isJsonObject(schema) && typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[46]/.exec(declared)?.[0];
}

function valueAtTokens(root: unknown, tokens: readonly string[]): unknown {
  let v = root;
  for (const t of tokens) v = Array.isArray(v) ? v[Number(t)] : isJsonObject(v) ? v[t] : undefined;
  return v;
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
    for (const file of index.toolFiles.values()) {
      duplicateToolNames(ctx, file.tools, 'this file');
      invalidParameterSchemas(ctx, file.tools);
    }
    for (const c of index.cases) {
      if (!c.tools.some((u) => u.inline)) continue;
      const inline = c.tools.flatMap((u) => (u.inline && u.tool ? [u.tool] : []));
      duplicateToolNames(ctx, inline, 'this case');
      invalidParameterSchemas(ctx, inline);
    }
  },
};
