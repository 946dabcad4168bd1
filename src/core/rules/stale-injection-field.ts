import { code } from '../text/escape';
import { locationFor, relabelFix, removeLabelFix } from '../injection/fixes';
import type { Label } from '../injection/labels';
import { injectionAnalysis, labelTools, type AnyHit, type InjectionAnalysis } from '../injection/analysis';
import { payloadPlace } from '../injection/scan';
import type { WorkspaceIndex } from '../model/workspace';
import { overridesOf } from '../model/environment';
import { replacedHit } from '../injection/surfaces';
import { relativePath } from '../model/uri';
import type { Rule, RuleMeta } from './types';

/** Why a label into a case's own fields names no surface text (`Label.offSurface`). */
function offSurface(label: Label): string {
  const step = label.target?.path[label.case.path.length];
  if (step === 'environment') return "points at the environment's file path, not its content (a label into the file is `<path>#/…`)";
  if (step === 'tool_outputs') return "points at a tool output's entry or call (its `tool`, its `arguments`), not its `output`, the text the agent reads";
  return "points at the overrides object, not an override's value";
}

/** The file a label names, relative to the case file as the label is written: the same on every checkout. */
function target(label: Label): string {
  return label.targetUri ? relativePath(label.case.doc.uri, label.targetUri) : '';
}

/** Why a label is stale, as `data.problem` says it. */
type Problem = NonNullable<Label['problem']> | 'not-a-surface' | 'no-text' | 'not-a-payload-location' | 'not-scanned' | 'no-payload';

function problemOf(label: Label, index: WorkspaceIndex): Problem {
  if (label.problem) return label.problem;
  if (label.offSurface) return 'not-a-surface';
  if (label.dataSurface) return 'no-text';
  const target = label.target;
  const tool = target && labelTools(index, label).find((t) => payloadPlace(t, target.path) !== undefined);
  if (!tool || !target) return 'not-a-payload-location';
  return payloadPlace(tool, target.path) === 'text' && !index.configFor(tool.uri).injection.scanDescriptions ? 'not-scanned' : 'no-payload';
}

function why(label: Label, problem: Problem): string {
  switch (problem) {
    case 'malformed':
      return 'is not "#/pointer" or "<relative path>#/pointer" (RFC 6901)';
    case 'missing-file':
      return `names ${code(target(label))}, which is not a loaded tool-schema or environment file`;
    case 'not-a-label-file':
      return `names ${code(target(label))}, which is not a tool-schema or environment file (a case labels its own payload with \`#/…\`)`;
    case 'missing-value':
    case 'broken-file':
      return 'points at no value';
    case 'not-a-surface':
      return offSurface(label);
    case 'no-text':
      return 'points at a value that holds no text';
    case 'not-a-payload-location':
      return 'is not a payload location of a tool schema: FORMAT §2 scans `default`/`examples`/`const`/`enum`, then `description`/`title`';
    case 'not-scanned':
      return 'points at a description or title, which is not scanned (`injection.scanDescriptions` is false)';
    case 'no-payload':
      return 'points at a value that carries no injection payload';
  }
}

/** Payloads the case carries (its tools, its own data surfaces, its effective environment), which a stale label most likely meant. */
function candidates(label: Label, analysis: InjectionAnalysis): AnyHit[] {
  const out = new Set<AnyHit>();
  const c = label.case;
  for (const use of c.tools) {
    if (!use.tool) continue;
    for (const hit of analysis.hitsByTool.get(use.tool) ?? []) out.add(hit);
  }
  for (const hit of analysis.caseHits.get(c) ?? []) out.add(hit);
  const env = c.environment;
  if (env?.file && !env.problem) {
    const overrides = overridesOf(c.value, c.path);
    for (const hit of analysis.envHits.get(env.file.doc.uri) ?? []) if (!replacedHit(hit, overrides)) out.add(hit);
  }
  return [...out];
}

export const meta: RuleMeta = {
  id: 'stale-injection-field',
  defaultSeverity: 'warning',
  from: 'card',
  description: 'An injection_field that resolves to nothing, or to a value with no payload (in tool outputs, environments and the task: with no text).',
};

export const staleInjectionField: Rule = {
  meta,
  check(ctx) {
    const analysis = injectionAnalysis(ctx);
    const labelled = new Set<Label>();
    for (const labels of analysis.labelsOf.values()) for (const l of labels) labelled.add(l);
    // Payloads each case already labels, so a relabel never proposes a second label for one.
    const namedByCase = new Map<unknown, Set<AnyHit>>();
    for (const [hit, labels] of analysis.labelsOf) {
      for (const l of labels) {
        const set = namedByCase.get(l.case) ?? new Set<AnyHit>();
        set.add(hit);
        namedByCase.set(l.case, set);
      }
    }
    for (const label of analysis.labels) {
      if (labelled.has(label) || label.problem === 'broken-file') continue;
      // FORMAT §4: in tool outputs, environments and the task the author's label is trusted while
      // it names text; detection there is less certain than in a schema's short values.
      if (label.dataSurface && label.holdsStrings) continue;
      const c = label.case;
      const named = namedByCase.get(c);
      const options = candidates(label, analysis).filter((h) => !named?.has(h));
      const locations = [...new Set(options.map((h) => locationFor(c, h)))];
      const fixes = locations.map((loc) => relabelFix(label, loc, locations.length === 1));
      // Removing a label the author wrote changes what the suite claims: a quick fix, never --fix (FORMAT §10).
      fixes.push(removeLabelFix(label, false));
      const problem = problemOf(label, ctx.index);
      ctx.report({
        at: { uri: c.doc.uri, root: c.root, path: label.path },
        message: `injection_field ${code(label.text, 80)} ${why(label, problem)}; ${locations.length ? 'point it at the payload' : 'remove it or point it at the payload'}`,
        fixes,
        data: { location: label.text, problem, candidates: locations },
      });
    }
  },
};
