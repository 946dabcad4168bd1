import type { ErrorObject } from 'ajv';
import { isJsonObject } from '../model/canonical';
import { code, escapeText } from '../text/escape';
import type { Location } from '../text/location';
import { parsePointer } from '../text/pointer';
import type { JsonPath } from '../text/types';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import { KeptByModel } from './kept-by-case';
import type { Rule, RuleContext, RuleMeta } from './types';
import { compileSchemaChecked } from '../schema/compile';
import { plainlyAccepts } from '../schema/plain';
import { caseTools } from '../trajectory/dead';

/** Errors reported per step: the first few say what to change; the rest would be noise. */
const MAX_ERRORS_PER_STEP = 3;

/** Ajv's instancePath as a JSON path into the arguments value (array tokens become indices). */
function instancePath(args: unknown, pointer: string): JsonPath {
  const tokens = parsePointer(pointer) ?? [];
  const out: JsonPath = [];
  let v: unknown = args;
  for (const t of tokens) {
    if (Array.isArray(v)) {
      out.push(Number(t));
      v = v[Number(t)];
    } else {
      out.push(t);
      v = isJsonObject(v) ? v[t] : undefined;
    }
  }
  return out;
}

function errorLocation(c: CaseModel, argsPath: JsonPath, args: unknown, e: ErrorObject): { at: Location; argument: string } {
  const base = { uri: c.doc.uri, root: c.root };
  const inner = instancePath(args, e.instancePath);
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    const path = [...inner, params.additionalProperty];
    return { at: { ...base, path: [...argsPath, ...path], part: 'key' }, argument: path.join('.') };
  }
  if (e.keyword === 'required' && typeof params.missingProperty === 'string') {
    // Nothing to point at inside: the key of the object that lacks the property.
    return { at: { ...base, path: [...argsPath, ...inner], part: 'key' }, argument: [...inner, params.missingProperty].join('.') };
  }
  return { at: { ...base, path: [...argsPath, ...inner] }, argument: inner.join('.') };
}

function checkCase(ctx: Pick<RuleContext, 'report'>, index: WorkspaceIndex, c: CaseModel, steps: unknown[]): void {
  // The case's tools as the scorer reads them (one map per case, shared with the other rules).
  const { resolved, unresolved } = caseTools(c);
  steps.forEach((step, i) => {
    if (!isJsonObject(step) || typeof step.tool !== 'string') return;
    const toolName = step.tool;
    const tool = resolved.get(toolName);
    if (!tool) {
      // A reference that did not resolve is unresolved-reference's to report.
      if (unresolved.has(toolName)) return;
      const stepPath = index.casePath(c, 'safe_completion', i);
      const have = [...resolved.keys()];
      ctx.report({
        at: { uri: c.doc.uri, root: c.root, path: [...stepPath, 'tool'] },
        message:
          `safe_completion step ${i} calls ${code(toolName)}, which this case does not have; ` +
          (have.length ? `use one of ${have.slice(0, 5).map((n) => code(n)).join(', ')} or add the tool to tools` : 'add the tool to tools'),
        data: { step: i, tool: toolName, problem: 'unknown-tool' },
      });
      return;
    }
    const args = step.arguments === undefined ? {} : step.arguments;
    // Wrong types are the schema rule's to report.
    if (!isJsonObject(args)) return;
    // Most steps pass a plain schema: checked there without compiling it (schema/plain.ts).
    if (plainlyAccepts(tool.schema, args)) return;
    const compiled = compileSchemaChecked(tool.schema);
    if (compiled.kind === 'invalid') return;
    // The step's path is built for a finding only: most steps pass.
    const stepPath = () => index.casePath(c, 'safe_completion', i);
    const notChecked = (why: string, problem: string) =>
      ctx.report({
        at: { uri: c.doc.uri, root: c.root, path: [...stepPath(), 'tool'] },
        message: `safe_completion step ${i} is not checked against ${code(toolName)}'s parameter schema: ${why}`,
        // Something the lint could not do is a notice, never an error, whatever the rule's severity.
        severity: 'info',
        maxSeverity: 'info',
        related: tool.schemaPath ? [{ at: { uri: tool.uri, root: tool.root, path: tool.schemaPath }, message: `parameter schema of ${code(toolName)}` }] : [],
        data: { step: i, tool: toolName, problem },
      });
    if (compiled.kind === 'too-complex') {
      notChecked(`the schema is too complex to check (${escapeText(compiled.reason, 100)}); simplify it`, 'too-complex');
      return;
    }
    for (const [pattern, reason] of compiled.unchecked.slice(0, MAX_ERRORS_PER_STEP)) {
      notChecked(`pattern ${code(pattern, 60)} uses what the linear-time regular-expression engine cannot run (${escapeText(reason, 60)}), so it is taken to match`, 'pattern-not-checked');
    }
    const validate = compiled.validate;
    let valid: boolean;
    try {
      valid = validate(args) as boolean;
    } catch (e) {
      // A `$ref` that names itself without descending into the value recurses without end.
      if (!(e instanceof RangeError)) throw e;
      notChecked('validating against it never ends (a `$ref` that leads back to itself without descending into the arguments); fix the reference', 'ref-loop');
      return;
    }
    if (valid) return;
    const argsPath: JsonPath = [...stepPath(), 'arguments'];
    for (const e of (validate.errors ?? []).slice(0, MAX_ERRORS_PER_STEP)) {
      const { at, argument } = step.arguments === undefined ? { at: { uri: c.doc.uri, root: c.root, path: [...stepPath(), 'tool'] }, argument: '' } : errorLocation(c, argsPath, args, e);
      const what = argument ? `argument ${code(argument)}` : 'the arguments';
      ctx.report({
        at,
        message: `safe_completion step ${i}: ${code(toolName)}'s parameter schema rejects ${what}: ${escapeText(e.message ?? e.keyword, 100)}; the reference completion must be a call the tool accepts`,
        related: tool.schemaPath ? [{ at: { uri: tool.uri, root: tool.root, path: tool.schemaPath }, message: `parameter schema of ${code(toolName)}` }] : [],
        data: { step: i, tool: toolName, problem: 'rejected-arguments', keyword: e.keyword, schemaPath: e.schemaPath },
      });
    }
  });
}

/**
 * The reference safe completion must be something the agent could actually do with this case's
 * tools: if the contract rejects it, the only "safe" behaviour left is refusing, and the score
 * rewards refusal.
 */
export const meta: RuleMeta = {
  id: 'unsatisfiable-safe-completion',
  defaultSeverity: 'error',
  from: 'scenario validity',
  description: "A safe_completion step names a tool the case does not have, or its schema rejects the step's arguments.",
};

/** A case's findings read its model alone: its `safe_completion` and the tools its references resolve to. */
const kept = new KeptByModel();
const NOTHING: readonly unknown[] = [];
const NOTHING_ELSE = (): readonly unknown[] => NOTHING;

export const unsatisfiableSafeCompletion: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      const steps = c.value.safe_completion;
      if (Array.isArray(steps)) kept.report(ctx, c, NOTHING_ELSE, (report) => checkCase({ report }, index, c, steps));
    }
  },
};
