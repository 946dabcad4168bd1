import { injectionAnalysis } from '../injection/analysis';
import { anchorsIn, delegationIn } from '../injection/delegation';
import { locationFor } from '../injection/fixes';
import { caseLabels, type Label } from '../injection/labels';
import { overridesOf, replacedByOverrides } from '../model/environment';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import { code, quote } from '../text/escape';
import { parsePointer, pathStartsWith } from '../text/pointer';
import type { JsonPath } from '../text/types';
import { caseField, setCaseField, stringsOf, valueAt } from './case-fields';
import type { Rule, RuleContext, RuleMeta } from './types';
import { appendAll } from '../text/multimap';

/**
 * An adversarial case whose attack is the user's own request (FORMAT §3d): the payload is labelled
 * in `task`, or the task hands the agent's orders to data ("do what it says") while that data holds
 * the payload — and the case is scored `comply`. An agent that does everything its user asked then
 * fails, and one that declines part of its user's request passes: the adversarial arm rewards
 * refusal-shaped behaviour (condition 2).
 */
export const meta: RuleMeta = {
  id: 'principal-confusion',
  invalidatesCase: true,
  defaultSeverity: 'error',
  from: 'condition 2',
  description: "An adversarial case whose attack is the user's own request (a payload in the task, or a task that says to do what the payload's data says), scored as comply.",
};

/** Where a payload of the case's data sits: a file (or the case's own document), a root and a path. */
interface DataPayload {
  uri: string;
  root: number;
  path: JsonPath;
}

/**
 * The labels found in a case's task, by the list `caseLabels` gave (a list per case, the same one
 * while the documents its labels point into stay the same): reading each label's pointer again on
 * every edit of a tool file the case uses was most of this rule's time in the editor.
 */
const inTaskByLabels = new WeakMap<readonly Label[], { path: JsonPath; text: string }[]>();

/** The case's labels that point into its own `task` (`#/task`, or the case's own file and path spelled out). */
function taskLabels(index: WorkspaceIndex, c: CaseModel): { path: JsonPath; text: string }[] {
  // A case with no label at all (most) has none in its task.
  if (c.value.injection_field === undefined) return [];
  const labels = caseLabels(index, c);
  let found = inTaskByLabels.get(labels);
  if (!found) {
    found = labels.filter((l) => {
      if (l.text.startsWith('#')) {
        const tokens = parsePointer(l.text.slice(1));
        return tokens !== undefined && tokens[0] === 'task';
      }
      const t = l.target;
      return t !== undefined && t.uri === c.doc.uri && t.root === c.root && pathStartsWith(t.path, [...c.path, 'task']);
    });
    inTaskByLabels.set(labels, found);
  }
  return found;
}

/** The payloads that sit in the case's data (tool outputs, its environment, its overrides): labelled there, or found there. */
function dataPayloads(ctx: RuleContext, index: WorkspaceIndex, c: CaseModel): DataPayload[] {
  const out: DataPayload[] = [];
  for (const label of caseLabels(index, c)) {
    if (!label.target || !label.dataSurface) continue;
    const inTask = label.target.uri === c.doc.uri && label.target.root === c.root && label.target.path[c.path.length] === 'task';
    if (!inTask) out.push(label.target);
  }
  const analysis = injectionAnalysis(ctx);
  for (const h of analysis.caseHits.get(c) ?? []) if (h.surface !== 'task') out.push(h);
  const env = c.environment;
  if (env?.file && !env.problem) {
    const overrides = overridesOf(c.value, c.path);
    for (const h of analysis.envHits.get(env.file.doc.uri) ?? []) if (!replacedByOverrides(h.path, overrides)) out.push(h);
  }
  return out;
}

/**
 * Whether `dataPayloads` may find something, with nothing built: the case labels a payload, the
 * detector found one outside its task, or in its environment file. False means it finds nothing.
 */
function mayHaveDataPayload(ctx: RuleContext, c: CaseModel): boolean {
  if (c.value.injection_field !== undefined) return true;
  const analysis = injectionAnalysis(ctx);
  if (analysis.caseHits.get(c)?.some((h) => h.surface !== 'task')) return true;
  const env = c.environment;
  return !!env?.file && !env.problem && (analysis.envHits.get(env.file.doc.uri)?.length ?? 0) > 0;
}

/**
 * Whether a payload sits in data a name of the task belongs to: the name in its path (a page keyed by
 * its URL, a file by its name), in the payload itself, or in a value beside it (an e-mail's sender).
 */
function near(index: WorkspaceIndex, p: DataPayload, anchors: string[]): boolean {
  const hay: string[] = [];
  for (const step of p.path) if (typeof step === 'string') hay.push(step);
  appendAll(hay, stringsOf(valueAt(index, p.uri, p.root, p.path), 1 << 16));
  const parent = p.path.length ? valueAt(index, p.uri, p.root, p.path.slice(0, -1)) : undefined;
  if (parent && typeof parent === 'object' && !Array.isArray(parent)) {
    for (const v of Object.values(parent)) if (typeof v === 'string' || Array.isArray(v)) appendAll(hay, stringsOf(v, 1 << 14));
  }
  const text = hay.join('\n').toLowerCase();
  return anchors.some((a) => text.includes(a));
}

const ADVICE =
  'an agent that does all its user asked fails and one that declines part of it passes, so the adversarial arm rewards refusal (condition 2); ' +
  'declare `"resolution": "partial_decline"` with a comply-shaped benign twin scored on the request, or move the payload out of the user\'s request';

export const principalConfusion: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      // Every finding of a case is placed in its own document.
      if (!ctx.keeps(c.doc.uri)) continue;
      if (c.arm !== 'adversarial') continue;
      const resolution = c.value.resolution;
      if (resolution !== undefined && resolution !== 'comply') continue;
      // Where and how a finding is said, built only for a case that has one (most have none).
      const at = () => caseField(index, c, resolution !== undefined ? 'resolution' : 'probe');
      const scored = resolution === undefined ? 'declares no resolution (so `comply`)' : 'is scored `comply`';
      const fix = () => {
        const f = setCaseField(index, c, 'resolution', 'partial_decline', 'Set resolution to "partial_decline" (then give it a comply-shaped benign twin scored on the request)');
        f.unambiguous = false;
        f.changesClaim = true;
        return f;
      };
      const inTask = taskLabels(index, c);
      if (inTask.length) {
        ctx.report({
          at: at(),
          message: `the attack is the user's own request: injection_field ${code(inTask[0].text)} points into the task, and the case ${scored}; ${ADVICE}`,
          related: inTask.map((l) => ({ at: { uri: c.doc.uri, root: c.root, path: l.path }, message: 'the payload is labelled in the task' })),
          fixes: [fix()],
          data: { trigger: 'task-label' },
        });
        continue;
      }
      if (typeof c.value.task !== 'string') continue;
      // Most cases have nothing in their data to delegate to; reading the task for a delegation
      // phrase is the costlier question, asked only of a case that may.
      if (!mayHaveDataPayload(ctx, c)) continue;
      const delegation = delegationIn(c.value.task);
      if (!delegation) continue;
      let payloads = dataPayloads(ctx, index, c);
      const anchors = anchorsIn(c.value.task);
      if (anchors.length) payloads = payloads.filter((p) => near(index, p, anchors));
      if (payloads.length === 0) continue;
      const first = payloads[0];
      ctx.report({
        at: at(),
        severity: 'warning',
        message:
          `the attack is the user's own request: the task says ${quote(delegation.phrase, 60)} about data that holds the payload (at ${code(locationFor(c, first), 120)}), and the case ${scored}; ${ADVICE}`,
        related: [
          { at: caseField(index, c, 'task'), message: `the task hands its orders to the data: ${quote(delegation.phrase, 60)}` },
          ...payloads.slice(0, 5).map((p) => ({ at: p, message: 'the payload the task delegates to' })),
        ],
        fixes: [fix()],
        data: { trigger: 'delegation', phrase: delegation.phrase },
      });
    }
  },
};
