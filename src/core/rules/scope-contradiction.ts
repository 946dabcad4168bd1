import { isJsonObject } from '../model/canonical';
import { code } from '../text/escape';
import type { Location } from '../text/location';
import type { Arm, CaseModel, WorkspaceIndex } from '../model/workspace';
import { caseFact, caseField, caseName as name } from './case-fields';
import type { Report, Rule, RuleContext, RuleMeta } from './types';
import { patternMatcher, unsafeSteps } from '../trajectory/match';
import { patternPath, type ActionPattern } from '../trajectory/patterns';
import { scorerOf } from '../trajectory/scorer';
import type { Step } from '../trajectory/steps';
import { pushTo, sameItems } from '../text/multimap';

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
  if (!isScopeList(value)) return undefined;
  // Most tools have one scope: nothing to sort or collapse.
  return JSON.stringify(value.length < 2 ? value : [...new Set(value)].sort());
}

/** A list of scope names: what scopeKey gives a key to. */
function isScopeList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/** Whether two declared scope lists (each passed scopeKey) are one set: one scope each is one comparison. */
function sameScopes(a: string[], b: string[]): boolean {
  return a.length === 1 && b.length === 1 ? a[0] === b[0] : scopeKey(a) === scopeKey(b);
}

/**
 * Whether every case of the family that declares a tool's scopes declares the same ones: then no
 * case disagrees, and nothing is grouped by arm. Nearly every family of a suite is such a family.
 * `first` is the caller's map, emptied here (one map for every family of a lint).
 */
function scopesAgree(cases: readonly CaseModel[], first: Map<string, string[]>): boolean {
  first.clear();
  for (const c of cases) {
    if (!c.arm || !isJsonObject(c.value.tool_scopes)) continue;
    const declared = c.value.tool_scopes;
    for (const tool in declared) {
      const scopes = declared[tool];
      if (!isScopeList(scopes)) continue;
      const seen = first.get(tool);
      if (seen === undefined) first.set(tool, scopes);
      else if (!sameScopes(seen, scopes)) return false;
    }
  }
  return true;
}

function showScopes(key: string): string {
  return code((JSON.parse(key) as string[]).join(', ') || '(none)');
}

function checkScopes(ctx: RuleContext, index: WorkspaceIndex, family: string, cases: CaseModel[], first: Map<string, string[]>): void {
  if (scopesAgree(cases, first)) return;
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

/** A case's flag, or (left out, so false) its `family` value. */
function breachAt(index: WorkspaceIndex, c: CaseModel): Location {
  return caseField(index, c, c.value.requires_tool_scope_breach === undefined ? 'family' : 'requires_tool_scope_breach');
}

/**
 * Whether a family's armed cases disagree on requires_tool_scope_breach (a missing value is false;
 * one of another type is the schema rule's), as the reference check has it: the family is invalid.
 */
export function breachDisagrees(cases: readonly CaseModel[]): boolean {
  let seenTrue = false;
  let seenFalse = false;
  for (const c of cases) {
    const v = c.value.requires_tool_scope_breach ?? false;
    if (!c.arm || typeof v !== 'boolean') continue;
    if (v) seenTrue = true;
    else seenFalse = true;
    if (seenTrue && seenFalse) return true;
  }
  return false;
}

/**
 * The reference check collects the flag of every case of a family and rejects the family when the
 * set has two values: any two cases disagreeing, of one arm or of both, invalidate the whole family,
 * so every case of it is reported.
 */
function checkBreach(ctx: RuleContext, index: WorkspaceIndex, family: string, cases: CaseModel[]): void {
  // Both values first, with nothing built: nearly every family agrees.
  if (!breachDisagrees(cases)) return;
  const byValue: Record<'true' | 'false', CaseModel[]> = { true: [], false: [] };
  for (const c of cases) {
    const v = c.value.requires_tool_scope_breach ?? false;
    if (!c.arm || typeof v !== 'boolean') continue;
    byValue[v ? 'true' : 'false'].push(c);
  }
  if (byValue.true.length === 0 || byValue.false.length === 0) return;
  for (const key of ['true', 'false'] as const) {
    const others = byValue[key === 'true' ? 'false' : 'true'];
    for (const c of byValue[key]) {
      const implicit = c.value.requires_tool_scope_breach === undefined ? ' (left out, so false)' : '';
      ctx.report({
        at: breachAt(index, c),
        message:
          `requires_tool_scope_breach is ${key}${implicit} here but ${key === 'true' ? 'false' : 'true'} in ${others[0].arm} case ${name(others[0])}${others.length > 1 ? ` and ${others.length - 1} more` : ''} of family ${code(family)}; ` +
          'a family whose cases disagree on it cannot be scored (the whole family is invalid): make every case of the family agree',
        related: others.slice(0, MAX_RELATED).map((o) => ({ at: breachAt(index, o), message: `${o.arm} case ${name(o)} says ${key === 'true' ? 'false' : 'true'}` })),
        data: { family, field: 'requires_tool_scope_breach', value: key === 'true', cases: byValue.true.length + byValue.false.length },
      });
    }
  }
}

/**
 * A benign completion that performs what an adversarial case of its family scores as unsafe: the
 * same call is misuse in one arm and required in the other. The benign oracle trajectory is played
 * against each adversarial case's scorer with the one matcher (trajectory/match.ts), `min_calls`
 * counted over the benign completion. Reported on both ends: each benign step once (naming the
 * patterns it performs), each adversarial pattern once (naming the steps).
 */
function checkForbiddenCompletion(ctx: RuleContext, index: WorkspaceIndex, family: string, cases: CaseModel[]): void {
  // What a family's cases give depends on those cases alone (their scorers, values and paths): the
  // same case models, in the same order, give the same findings. An edit keeps the models of the
  // cases it did not touch (model/case.ts) and re-judges every family of the file it changed, so
  // all but the edited case's family answer from here.
  const kept = forbiddenByFamily.get(cases[0]);
  if (kept && sameItems(kept.cases, cases)) {
    for (const r of kept.reports) ctx.report(r);
    return;
  }
  const reports: Report[] = [];
  reportForbidden({ report: (r) => void reports.push(r) }, index, family, cases);
  // The list itself: grouped lists are replaced, never modified (model/grouped.ts).
  forbiddenByFamily.set(cases[0], { cases, reports });
  for (const r of reports) ctx.report(r);
}

/** The findings of checkForbiddenCompletion per family, under its first case's model (read-only once kept). */
const forbiddenByFamily = new WeakMap<CaseModel, { cases: readonly CaseModel[]; reports: readonly Report[] }>();

function reportForbidden(ctx: Pick<RuleContext, 'report'>, index: WorkspaceIndex, family: string, cases: CaseModel[]): void {
  const forbidden: Forbidden[] = [];
  for (const c of cases) if (c.arm === 'adversarial') for (const pattern of scorerOf(c).patterns) forbidden.push({ c, pattern });
  if (forbidden.length === 0) return;
  const match = patternMatcher(forbidden);
  const performedBy = new Map<Forbidden, { c: CaseModel; step: Step }[]>();
  const stepAt = (c: CaseModel, step: Step) => caseField(index, c, 'safe_completion', step.index, step.kind === 'call' ? 'tool' : 'respond');
  const entryAt = (c: CaseModel, p: ActionPattern) => caseField(index, c, ...patternPath(p, p.kind === 'call' ? 'tool' : 'respond'));
  const named = (p: ActionPattern) => (p.kind === 'call' ? code(p.tool) : 'a final answer');
  for (const b of cases) {
    if (b.arm !== 'benign') continue;
    for (const { step, hits } of unsafeSteps(scorerOf(b).oracle.steps, match)) {
      for (const h of hits) pushTo(performedBy, h, { c: b, step });
      const first = hits[0];
      const what = step.kind === 'call' ? `calls ${code(step.tool)}` : 'answers';
      ctx.report({
        at: stepAt(b, step),
        message:
          `safe_completion step ${step.index} ${what} as adversarial case ${name(first.c)}${hits.length > 1 ? ` and ${hits.length - 1} more` : ''} of family ${code(family)} lists in unsafe_actions; ` +
          'one call cannot be misuse in one arm and required in the other: give the arms the same contract',
        related: hits.slice(0, MAX_RELATED).map((h) => ({ at: entryAt(h.c, h.pattern), message: `unsafe in adversarial case ${name(h.c)}` })),
        data: { family, field: 'unsafe_actions', ...(step.kind === 'call' ? { tool: step.tool } : { respond: true }), arm: 'benign' },
      });
    }
  }
  for (const [f, steps] of performedBy) {
    const first = steps[0];
    ctx.report({
      at: entryAt(f.c, f.pattern),
      message:
        `unsafe_actions[${f.pattern.index}] scores ${named(f.pattern)} as unsafe, but benign case ${name(first.c)}${steps.length > 1 ? ` and ${steps.length - 1} more` : ''} of family ${code(family)} performs it in its safe_completion; ` +
        'one call cannot be misuse in one arm and required in the other: give the arms the same contract',
      related: steps.slice(0, MAX_RELATED).map((s) => ({ at: stepAt(s.c, s.step), message: `required by benign case ${name(s.c)}` })),
      data: { family, field: 'unsafe_actions', ...(f.pattern.kind === 'call' ? { tool: f.pattern.tool } : { respond: true }), arm: 'adversarial' },
      fact: caseFact(f.c, 'unsafe-action', f.pattern.index),
    });
  }
}

interface Forbidden {
  c: CaseModel;
  pattern: ActionPattern;
}

/**
 * Within a family the arms must give the agent the same tools with the same powers: if only the
 * adversarial arm may (or must) cross a scope, or a call is misuse in one arm and required in the
 * other, the score measures the contract, not the behaviour.
 */
export const meta: RuleMeta = {
  id: 'scope-contradiction',
  contamination: true,
  defaultSeverity: 'error',
  from: 'condition 4',
  description: "Within a family, a tool's declared scopes differ across arms, its cases disagree on requires_tool_scope_breach, or a benign safe_completion performs an adversarial case's unsafe action.",
};

export const scopeContradiction: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    const first = new Map<string, string[]>();
    for (const [family, cases] of index.families) {
      checkScopes(ctx, index, family, cases, first);
      checkBreach(ctx, index, family, cases);
      checkForbiddenCompletion(ctx, index, family, cases);
    }
  },
};
