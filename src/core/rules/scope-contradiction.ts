import { isJsonObject } from '../model/canonical';
import { code } from '../text/escape';
import type { Location } from '../text/location';
import type { Arm, CaseModel, WorkspaceIndex } from '../model/workspace';
import { caseField, caseName as name } from './case-fields';
import type { Rule, RuleContext, RuleMeta } from './types';
import { pushTo } from '../text/multimap';

const MAX_RELATED = 20;

type ByArm = Record<Arm, Map<string, CaseModel[]>>;

/** Cases of the other arm whose value differs from `key`; empty when the arms agree for this case. */
function disagreeing(byArm: ByArm, arm: Arm, key: string): CaseModel[] {
  const other = byArm[arm === 'adversarial' ? 'benign' : 'adversarial'];
  const out: CaseModel[] = [];
  for (const [k, cases] of other) {
    if (out.length >= MAX_RELATED) break;
    if (k !== key) out.push(...cases.slice(0, MAX_RELATED - out.length));
  }
  return out;
}


/** Scopes as a set: order and repeats do not change what a tool may do. */
function scopeKey(value: unknown): string | undefined {
  if (!Array.isArray(value) || !value.every((s): s is string => typeof s === 'string')) return undefined;
  // Most tools have one scope: nothing to sort or collapse.
  return JSON.stringify(value.length < 2 ? value : [...new Set(value)].sort());
}

function showScopes(key: string): string {
  return code((JSON.parse(key) as string[]).join(', ') || '(none)');
}

function checkScopes(ctx: RuleContext, index: WorkspaceIndex, family: string, cases: CaseModel[]): void {
  const byTool = new Map<string, ByArm>();
  const entries: { c: CaseModel; arm: Arm; tool: string; key: string }[] = [];
  for (const c of cases) {
    if (!c.arm || !isJsonObject(c.value.tool_scopes)) continue;
    const declared = c.value.tool_scopes;
    for (const tool in declared) {
      const key = scopeKey(declared[tool]);
      if (key === undefined) continue;
      let byArm = byTool.get(tool);
      if (!byArm) byTool.set(tool, (byArm = { adversarial: new Map(), benign: new Map() }));
      pushTo(byArm[c.arm], key, c);
      entries.push({ c, arm: c.arm, tool, key });
    }
  }
  for (const { c, arm, tool, key } of entries) {
    const others = disagreeing(byTool.get(tool)!, arm, key);
    if (others.length === 0) continue;
    const otherKey = scopeKey(isJsonObject(others[0].value.tool_scopes) ? others[0].value.tool_scopes[tool] : undefined) ?? '[]';
    ctx.report({
      at: caseField(index, c, 'tool_scopes', tool),
      message:
        `tool ${code(tool)} is declared with scopes ${showScopes(key)} here but ${showScopes(otherKey)} in ${others[0].arm} case ${name(others[0])} of family ${code(family)}; ` +
        'declare the same scopes in both arms so the arms differ only in the request',
      related: others.map((o) => ({
        at: caseField(index, o, 'tool_scopes', tool),
        message: `${o.arm} case ${name(o)} declares other scopes for ${code(tool)}`,
      })),
      data: { family, tool, field: 'tool_scopes' },
    });
  }
}

function breachAt(index: WorkspaceIndex, c: CaseModel): Location {
  return c.value.requires_tool_scope_breach === undefined
    ? { ...caseField(index, c), part: 'key' }
    : caseField(index, c, 'requires_tool_scope_breach');
}

function checkBreach(ctx: RuleContext, index: WorkspaceIndex, family: string, cases: CaseModel[]): void {
  const byArm: ByArm = { adversarial: new Map(), benign: new Map() };
  const entries: { c: CaseModel; arm: Arm; key: string }[] = [];
  for (const c of cases) {
    const v = c.value.requires_tool_scope_breach ?? false;
    if (!c.arm || typeof v !== 'boolean') continue;
    const key = String(v);
    pushTo(byArm[c.arm], key, c);
    entries.push({ c, arm: c.arm, key });
  }
  for (const { c, arm, key } of entries) {
    const others = disagreeing(byArm, arm, key);
    if (others.length === 0) continue;
    const implicit = c.value.requires_tool_scope_breach === undefined ? ' (by default)' : '';
    ctx.report({
      at: breachAt(index, c),
      message:
        `requires_tool_scope_breach is ${key}${implicit} here but ${String(!(key === 'true'))} in ${others[0].arm} case ${name(others[0])} of family ${code(family)}; ` +
        'the arms must agree on whether the correct behaviour crosses a tool scope',
      related: others.map((o) => ({ at: breachAt(index, o), message: `${o.arm} case ${name(o)} disagrees` })),
      data: { family, field: 'requires_tool_scope_breach' },
    });
  }
}

/**
 * Within a family the arms must give the agent the same tools with the same powers: if only the
 * adversarial arm may (or must) cross a scope, the score measures the scope, not the behaviour.
 */
export const meta: RuleMeta = {
  id: 'scope-contradiction',
  defaultSeverity: 'error',
  from: 'condition 4',
  description: "Within a family, a tool's declared scopes differ across arms, or the arms disagree on requires_tool_scope_breach.",
};

export const scopeContradiction: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const [family, cases] of index.families) {
      checkScopes(ctx, index, family, cases);
      checkBreach(ctx, index, family, cases);
    }
  },
};
