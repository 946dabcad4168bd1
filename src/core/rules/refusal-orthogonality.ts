import { setValue } from '../text/edit';
import { code } from '../text/escape';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import { documentChange, lazyFix, type FixSpec } from '../text/fix';
import { caseField as at, caseName as name, setCaseField as setField } from './case-fields';
import type { RelatedSpec, Rule, RuleContext, RuleMeta } from './types';

/**
 * Discriminators that inspect what was asked or done (FORMAT §3): a pair is scored on the request
 * when each of its two cases declares one of them, not necessarily the same one.
 */
const ON_REQUEST: ReadonlySet<unknown> = new Set(['request', 'state', 'calls']);
/** Discriminators that read the surface of the answer, where refusal wording scores. */
const SURFACE: ReadonlySet<unknown> = new Set(['response', 'llm_judge']);

/**
 * A decline-shaped adversarial case (`decline`, or `partial_decline`: FORMAT §3d sends a case whose
 * attack is its user's own request there) must be scored against a benign twin that complies, on
 * the request: otherwise "refuses more" raises the adversarial score and the benign arm does not
 * notice, or the scorer rewards the refusal's wording rather than the decision. One benign twin may serve several
 * adversarial variants, so nothing here asks the twin to point back.
 */
function checkAdversarial(ctx: RuleContext, c: CaseModel): void {
  const { index } = ctx;
  const here = at(index, c, 'resolution');
  const resolution = code(String(c.value.resolution));
  const pairedWith = c.value.paired_with;
  let twin: CaseModel | undefined;
  if (typeof pairedWith === 'string') {
    const candidates = index.casesById.get(pairedWith);
    // A paired_with that names nothing is unresolved-reference's to report.
    if (!candidates) return;
    twin = candidates.find((t) => t.arm === 'benign');
    if (!twin) {
      ctx.report({
        at: here,
        message: `paired_with ${code(pairedWith)} is not a benign case; an adversarial case that resolves by ${resolution} needs a benign twin that complies`,
        related: candidates.slice(0, 5).map((t) => ({ at: at(index, t, 'arm'), message: `${name(t)} is ${t.arm ?? 'not in an arm'}` })),
        data: { problem: 'twin-not-benign', twin: pairedWith },
      });
      return;
    }
  } else {
    // paired_with names a case's twin in the other arm, written on either side (FORMAT §3).
    twin = c.id === undefined ? undefined : namedBy(ctx).get(c.id);
    if (!twin) {
      ctx.report({
        at: here,
        message: `adversarial case resolves by ${resolution} but has no benign twin; add paired_with naming a benign case of the same task that complies`,
        data: { problem: 'no-twin' },
      });
      return;
    }
  }
  const twinResolution = twin.value.resolution;
  if (twinResolution !== 'comply') {
    const missing = twinResolution === undefined;
    ctx.report({
      at: here,
      message: missing
        ? `benign twin ${name(twin)} declares no resolution; it must comply (\`"resolution": "comply"\`) so the pair measures the decision, not refusal`
        : `benign twin ${name(twin)} does not comply; pair this case (${resolution}) with a benign case that complies`,
      related: [{ at: at(index, twin, missing ? 'instance_id' : 'resolution'), message: `twin ${name(twin)}` }],
      // A resolution is a claim: offered, never applied without asking (FORMAT §10).
      fixes: missing ? [{ ...setField(index, twin, 'resolution', 'comply', `Set resolution of ${twin.id !== undefined ? code(twin.id) : 'the twin'} to "comply"`), changesClaim: true }] : [],
      data: { problem: 'twin-not-comply', twin: twin.id },
    });
  }
  const pair = [c, twin];
  const onSurface = pair.filter((x) => SURFACE.has(x.value.discriminator));
  if (onSurface.length > 0) {
    ctx.report({
      at: here,
      message:
        `this pair is scored on the surface of the answer (${[...new Set(onSurface.map((x) => code(String(x.value.discriminator))))].join(', ')}), which rewards refusal wording; ` +
        'score it on what was asked or done: `"discriminator": "request"` (or `state`, `calls`)',
      related: onSurface.map((x): RelatedSpec => ({ at: at(index, x, 'discriminator'), message: `${name(x)} is scored by ${code(String(x.value.discriminator))}` })),
      fixes: [setDiscriminator(index, onSurface, 'Set discriminator to "request"')],
      data: { problem: 'scored-on-response', twin: twin.id },
    });
    return;
  }
  const undeclared = pair.filter((x) => !ON_REQUEST.has(x.value.discriminator));
  if (undeclared.length > 0) {
    const both = undeclared.length === 2;
    ctx.report({
      at: here,
      message: both
        ? `neither this case nor its twin ${name(twin)} says what the pair is scored on; add \`"discriminator": "request"\` (or \`state\`, \`calls\`) to both`
        : `${undeclared[0] === c ? 'this case' : `its twin ${name(twin)}`} does not say what the pair is scored on, and an undeclared discriminator is not the request; add \`"discriminator": "request"\` (or \`state\`, \`calls\`)`,
      related: [{ at: at(index, twin, 'instance_id'), message: `twin ${name(twin)}` }],
      fixes: [setDiscriminator(index, undeclared, both ? 'Add "discriminator": "request" to both cases' : 'Add "discriminator": "request"')],
      data: { problem: 'no-discriminator', twin: twin.id },
    });
  }
}

/**
 * For each id, a benign case whose paired_with names it (the first met): the twin of an adversarial
 * case that names none itself. Read off the whole workspace's cases by id, never the cases a run
 * re-judges: an editor's run may judge one case of a file and not the twin beside it.
 */
function namedBy(ctx: RuleContext): ReadonlyMap<string, CaseModel> {
  return ctx.memo('refusal-orthogonality:named-by', () => {
    const out = new Map<string, CaseModel>();
    for (const group of ctx.index.casesById.values()) {
      for (const t of group) {
        const named = t.value.paired_with;
        if (t.arm === 'benign' && typeof named === 'string' && !out.has(named)) out.set(named, t);
      }
    }
    return out;
  });
}

/**
 * What the scorer inspects is a claim of the suite: the fix that sets it is offered, never applied
 * without asking (FORMAT §10).
 */
function setDiscriminator(index: WorkspaceIndex, cases: CaseModel[], title: string): FixSpec {
  // Computed when read (a lint that applies no fix never reads it): each edit costs a parse of the
  // text around the case, and every declined pair on the answer's surface offers one.
  // On the documents as they are now: a model moves on with its document's next version (model/case.ts).
  const docs = cases.map((x) => x.doc);
  const fix = lazyFix(title, true, () => cases.map((x, i) => documentChange(docs[i], setValue(docs[i], x.root, index.casePath(x, 'discriminator'), 'request'))));
  fix.changesClaim = true;
  return fix;
}

export const meta: RuleMeta = {
  id: 'refusal-orthogonality',
  contamination: true,
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
      if (c.arm === 'adversarial' && (resolution === 'decline' || resolution === 'partial_decline')) {
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
