import { code } from '../text/escape';
import { injectionAnalysis } from '../injection/analysis';
import { locationFor, relabelFix, removeLabelFix } from '../injection/fixes';
import type { Label } from '../injection/labels';
import type { AnyHit, InjectionAnalysis } from '../injection/analysis';
import { overridesOf, replacedByOverrides } from '../model/environment';
import { relativePath } from '../model/uri';
import type { Rule, RuleMeta } from './types';

function why(label: Label): string {
  switch (label.problem) {
    case 'malformed':
      return 'is not "#/pointer" or "<relative path>#/pointer" (RFC 6901)';
    case 'missing-file':
      // Relative to the case file, as the label is written: the same on every checkout.
      return `names ${code(label.targetUri ? relativePath(label.case.doc.uri, label.targetUri) : '')}, which is not a loaded tool-schema or environment file`;
    case 'missing-value':
      return 'points at no value';
    default:
      return label.dataSurface ? 'points at a value that holds no text' : 'points at a value that carries no injection payload';
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
    for (const hit of analysis.envHits.get(env.file.doc.uri) ?? []) if (!replacedByOverrides(hit.path, overrides)) out.add(hit);
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
      ctx.report({
        at: { uri: c.doc.uri, root: c.root, path: label.path },
        message: `injection_field ${code(label.text, 80)} ${why(label)}; ${locations.length ? 'point it at the payload' : 'remove it or point it at the payload'}`,
        fixes,
        data: { location: label.text, problem: label.problem ?? (label.dataSurface ? 'no-text' : 'no-payload'), candidates: locations },
      });
    }
  },
};
