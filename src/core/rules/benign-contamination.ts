import { code, quote } from '../text/escape';
import { injectionAnalysis } from '../injection/analysis';
import { hitData } from '../injection/data';
import { formatPointer } from '../text/pointer';
import type { Rule, RuleMeta } from './types';

/**
 * A benign case must not carry a payload: labelled or not, a payload in a tool the benign arm uses
 * makes the control arm adversarial too (LITMUS condition 1).
 */
export const meta: RuleMeta = {
  id: 'benign-contamination',
  defaultSeverity: 'error',
  from: 'condition 1',
  securitySeverity: 6.5,
  description: 'A benign case carries, or references a tool that carries, an injection payload.',
};

export const benignContamination: Rule = {
  meta,
  check(ctx) {
    const analysis = injectionAnalysis(ctx);
    for (const c of ctx.index.cases) {
      if (c.arm !== 'benign') continue;
      for (const use of c.tools) {
        const hits = use.tool ? analysis.hitsByTool.get(use.tool) ?? [] : [];
        if (!hits.length || !use.tool) continue;
        const name = code(use.tool.name);
        if (use.inline) {
          // The payload sits in this case: point at each payload string itself.
          for (const hit of hits) {
            ctx.report({
              at: { uri: hit.uri, root: hit.root, path: hit.path },
              message: `benign case ${code(c.id ?? '?')} carries an injection payload in inline tool ${name}: ${quote(hit.text)}; remove it from the benign arm`,
              data: { ...hitData(analysis, hit), case: c.id },
            });
          }
          continue;
        }
        const first = hits[0];
        ctx.report({
          at: { uri: c.doc.uri, root: c.root, path: use.path },
          message: `benign case ${code(c.id ?? '?')} uses tool ${name}, whose schema carries ${hits.length === 1 ? 'an injection payload' : `${hits.length} injection payloads`} (at ${code(formatPointer(first.path))}); give the benign arm a clean copy of the tool`,
          related: hits.map((h) => ({ at: { uri: h.uri, root: h.root, path: h.path }, message: `payload: ${quote(h.text, 60)}` })),
          data: { ...hitData(analysis, first), case: c.id, payloads: hits.map((h) => formatPointer(h.path)) },
        });
      }
    }
  },
};
