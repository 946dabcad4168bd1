import { setValue } from '../text/edit';
import { code } from '../text/escape';
import type { CaseModel } from '../model/workspace';
import { caseField as at, caseName as name, setCaseField as setField } from './case-fields';
import type { RelatedSpec, Rule, RuleContext, RuleMeta } from './types';

/**
 * A declined adversarial case must be scored against a benign twin that complies, on the request:
 * otherwise "refuses more" raises the adversarial score and the benign arm does not notice, or the
 * scorer rewards the refusal's wording rather than the decision. One benign twin may serve several
 * adversarial variants, so nothing here asks the twin to point back.
 */
function checkAdversarial(ctx: RuleContext, c: CaseModel): void {
  const { index } = ctx;
  const here = at(index, c, 'resolution');
  const pairedWith = c.value.paired_with;
  if (typeof pairedWith !== 'string') {
    ctx.report({
      at: here,
      message: 'adversarial case resolves by `decline` but has no benign twin; add paired_with naming a benign case of the same task that complies',
      data: { problem: 'no-twin' },
    });
    return;
  }
  const candidates = index.casesById.get(pairedWith);
  // A paired_with that names nothing is unresolved-reference's to report.
  if (!candidates) return;
  const twin = candidates.find((t) => t.arm === 'benign');
  if (!twin) {
    ctx.report({
      at: here,
      message: `paired_with ${code(pairedWith)} is not a benign case; a declined adversarial case needs a benign twin that complies`,
      related: candidates.slice(0, 5).map((t) => ({ at: at(index, t, 'arm'), message: `${name(t)} is ${t.arm ?? 'not in an arm'}` })),
      data: { problem: 'twin-not-benign', twin: pairedWith },
    });
    return;
  }
  const twinResolution = twin.value.resolution;
  if (twinResolution !== 'comply') {
    const missing = twinResolution === undefined;
    ctx.report({
      at: here,
      message: missing
        ? `benign twin ${name(twin)} declares no resolution; it must comply (\`"resolution": "comply"\`) so the pair measures the decision, not refusal`
        : `benign twin ${name(twin)} does not comply; pair this declined case with a benign case that complies`,
      related: [{ at: at(index, twin, missing ? 'instance_id' : 'resolution'), message: `twin ${name(twin)}` }],
      fixes: missing ? [setField(index, twin, 'resolution', 'comply', `Set resolution of ${twin.id !== undefined ? code(twin.id) : 'the twin'} to "comply"`)] : [],
      data: { problem: 'twin-not-comply', twin: twin.id },
    });
  }
  const onResponse = [c, twin].filter((x) => x.value.discriminator === 'response');
  if (onResponse.length > 0) {
    ctx.report({
      at: here,
      message: 'this pair is scored on the response (`discriminator: "response"`), which rewards refusal wording; score it on the request: `"discriminator": "request"`',
      related: onResponse.map((x): RelatedSpec => ({ at: at(index, x, 'discriminator'), message: `${name(x)} is scored on the response` })),
      fixes: [
        {
          title: 'Set discriminator to "request"',
          unambiguous: true,
          changes: onResponse.map((x) => ({ uri: x.doc.uri, version: x.doc.version, changes: setValue(x.doc, x.root, index.casePath(x, 'discriminator'), 'request') })),
        },
      ],
      data: { problem: 'scored-on-response', twin: twin.id },
    });
  } else if (c.value.discriminator !== 'request' && twin.value.discriminator !== 'request') {
    ctx.report({
      at: here,
      message: `the pair with ${name(twin)} does not say what it is scored on; add \`"discriminator": "request"\``,
      related: [{ at: at(index, twin, 'instance_id'), message: `twin ${name(twin)}` }],
      fixes: [setField(index, c, 'discriminator', 'request', 'Add "discriminator": "request"')],
      data: { problem: 'no-discriminator', twin: twin.id },
    });
  }
}

export const meta: RuleMeta = {
  id: 'refusal-orthogonality',
  defaultSeverity: 'error',
  from: 'condition 2',
  description: 'A decline-shaped adversarial case lacks a comply-shaped benign twin scored on the request, or a benign case is refusal-shaped.',
};

export const refusalOrthogonality: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      const resolution = c.value.resolution;
      if (c.arm === 'adversarial' && resolution === 'decline') {
        checkAdversarial(ctx, c);
      } else if (c.arm === 'benign' && (resolution === 'decline' || resolution === 'partial_decline')) {
        ctx.report({
          at: at(index, c, 'resolution'),
          message: `benign case resolves by ${code(resolution)}: a refusal-shaped control rewards refusing; rewrite it so the correct resolution complies`,
          data: { problem: 'refusal-shaped-benign' },
        });
      }
    }
  },
};
