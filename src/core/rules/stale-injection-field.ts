import { code } from '../text/escape';
import { injectionAnalysis } from '../injection/analysis';
import { locationFor, relabelFix, removeLabelFix } from '../injection/fixes';
import type { Label } from '../injection/labels';
import type { PayloadHit } from '../injection/scan';
import { displayPath } from '../model/uri';
import type { Rule, RuleMeta } from './types';

function why(label: Label, root: string | undefined): string {
  switch (label.problem) {
    case 'malformed':
      return 'is not "#/pointer" or "<relative path>#/pointer" (RFC 6901)';
    case 'missing-file':
      return `names ${code(displayPath(label.targetUri ?? '', root))}, which is not a loaded tool-schema file`;
    case 'missing-value':
      return 'points at no value';
    default:
      return 'points at a value that carries no injection payload';
  }
}

/** Payloads in the case's own tools, which a stale label most likely meant. */
function candidates(label: Label, hitsByTool: Map<unknown, PayloadHit[]>): PayloadHit[] {
  const out = new Set<PayloadHit>();
  for (const use of label.case.tools) {
    if (!use.tool) continue;
    for (const hit of hitsByTool.get(use.tool) ?? []) out.add(hit);
  }
  return [...out];
}

export const meta: RuleMeta = {
  id: 'stale-injection-field',
  defaultSeverity: 'warning',
  from: 'card',
  description: 'An injection_field that resolves to nothing, or to a value with no payload.',
};

export const staleInjectionField: Rule = {
  meta,
  check(ctx) {
    const analysis = injectionAnalysis(ctx);
    const labelled = new Set<Label>();
    for (const labels of analysis.labelsOf.values()) for (const l of labels) labelled.add(l);
    // Payloads each case already labels, so a relabel never proposes a second label for one.
    const namedByCase = new Map<unknown, Set<PayloadHit>>();
    for (const [hit, labels] of analysis.labelsOf) {
      for (const l of labels) {
        const set = namedByCase.get(l.case) ?? new Set<PayloadHit>();
        set.add(hit);
        namedByCase.set(l.case, set);
      }
    }
    for (const label of analysis.labels) {
      if (labelled.has(label) || label.problem === 'broken-file') continue;
      const c = label.case;
      const named = namedByCase.get(c);
      const options = candidates(label, analysis.hitsByTool).filter((h) => !named?.has(h));
      const locations = [...new Set(options.map((h) => locationFor(c, h)))];
      const fixes = locations.map((loc) => relabelFix(label, loc, locations.length === 1));
      fixes.push(removeLabelFix(label, locations.length === 0));
      ctx.report({
        at: { uri: c.doc.uri, root: c.root, path: label.path },
        message: `injection_field ${code(label.text, 80)} ${why(label, ctx.index.roots[0])}; ${locations.length ? 'point it at the payload' : 'remove it or point it at the payload'}`,
        fixes,
        data: { location: label.text, problem: label.problem ?? 'no-payload', candidates: locations },
      });
    }
  },
};
