import type { FixSpec } from '../text/fix';
import type { Location } from '../text/location';
import { code } from '../text/escape';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import { caseField, caseName as name, setCaseField } from './case-fields';
import type { Rule, RuleContext, RuleMeta } from './types';

function depthOf(c: CaseModel): number | undefined {
  const d = c.value.mutation_depth;
  return typeof d === 'number' && Number.isInteger(d) && d >= 0 ? d : undefined;
}

function seedOf(index: WorkspaceIndex, c: CaseModel): CaseModel | undefined {
  const seedId = c.value.seed_id;
  return typeof seedId === 'string' ? index.casesById.get(seedId)?.[0] : undefined;
}

function depthAt(index: WorkspaceIndex, c: CaseModel): Location {
  return caseField(index, c, c.value.mutation_depth === undefined ? 'seed_id' : 'mutation_depth');
}

/**
 * Cases whose seed chain comes back to itself. Each case has at most one seed, so the chains form
 * a functional graph: one colouring walk finds every cycle in linear time, with no recursion.
 */
export function seedLoops(index: WorkspaceIndex): Map<CaseModel, { cycle: CaseModel[]; at: number }> {
  const state = new Map<CaseModel, 1 | 2>();
  const loops = new Map<CaseModel, { cycle: CaseModel[]; at: number }>();
  for (const start of index.cases) {
    // A case with no seed ends every chain that reaches it and starts none worth walking: it is
    // coloured when a chain reaches it, and most cases are such originals.
    if (typeof start.value.seed_id !== 'string' || state.has(start)) continue;
    const path: CaseModel[] = [];
    let c: CaseModel | undefined = start;
    while (c && !state.has(c)) {
      state.set(c, 1);
      path.push(c);
      c = seedOf(index, c);
    }
    if (c && state.get(c) === 1) {
      const cycle = path.slice(path.indexOf(c));
      cycle.forEach((member, at) => loops.set(member, { cycle, at }));
    }
    for (const p of path) state.set(p, 2);
  }
  return loops;
}

/** The next `count` cases along the loop from position `i`: bounded, so long loops stay linear. */
function along(cycle: CaseModel[], i: number, count: number): CaseModel[] {
  const out: CaseModel[] = [];
  for (let k = 1; k <= Math.min(count, cycle.length - 1); k++) out.push(cycle[(i + k) % cycle.length]);
  return out;
}

function chainText(cycle: CaseModel[], i: number): string {
  const from = cycle[i];
  const next = along(cycle, i, 6).map(name);
  const gap = cycle.length - 1 > 6 ? ['…'] : [];
  return [name(from), ...next, ...gap, name(from)].join(' → ');
}

/**
 * A depth is a claim: how far the variant really is, only its generator knows. Offered, never
 * applied without asking (FORMAT §10).
 */
function depthFix(fix: FixSpec): FixSpec {
  fix.unambiguous = false;
  fix.changesClaim = true;
  return fix;
}

/**
 * A variant's depth is its distance from a real seed: over budget it has drifted from the task it
 * claims to test, not deeper than its seed it is mislabelled, and a loop has no seed at all.
 */
export const meta: RuleMeta = {
  id: 'mutation-budget',
  defaultSeverity: 'warning',
  from: 'scenario validity',
  description: "mutation_depth is above the budget, not above its seed's, or missing on a case with a seed_id; or the seed chain loops.",
};

export const mutationBudget: Rule = {
  meta,
  check(ctx: RuleContext) {
    const { index } = ctx;
    const loops = seedLoops(index);
    for (const c of index.cases) {
      if (typeof c.value.seed_id === 'string' && c.value.mutation_depth === undefined) {
        const seed = seedOf(index, c);
        const seedDepth = seed && seed !== c ? (seed.value.mutation_depth === undefined ? 0 : depthOf(seed)) : undefined;
        // A depth over the budget would only trade this finding for another: no fix then.
        const next = seedDepth !== undefined && seedDepth + 1 <= ctx.config(c.doc.uri).maxMutationDepth ? seedDepth + 1 : undefined;
        ctx.report({
          at: caseField(index, c, 'seed_id'),
          message:
            `variant of seed ${code(c.value.seed_id)} has no mutation_depth, so its distance from the seed (and the budget of ${ctx.config(c.doc.uri).maxMutationDepth}) cannot be checked; ` +
            'add `"mutation_depth"`: how many mutations away from the seed it is',
          related: seed && seed !== c ? [{ at: caseField(index, seed, 'instance_id'), message: `seed ${name(seed)}` }] : [],
          fixes: next !== undefined ? [depthFix(setCaseField(index, c, 'mutation_depth', next, `Add "mutation_depth": ${next}`))] : [],
          data: { problem: 'no-depth' },
        });
      }
      const loop = loops.get(c);
      if (loop) {
        ctx.report({
          at: depthAt(index, c),
          message: `seed chain loops (${chainText(loop.cycle, loop.at)}); a variant's seed_id must lead back to an original case`,
          related: along(loop.cycle, loop.at, 20).map((o) => ({ at: caseField(index, o, 'seed_id'), message: `${name(o)} is on the loop` })),
          data: { problem: 'loop', loopLength: loop.cycle.length },
        });
        continue;
      }
      const depth = depthOf(c);
      if (depth === undefined) continue;
      const max = ctx.config(c.doc.uri).maxMutationDepth;
      if (depth > max) {
        ctx.report({
          at: depthAt(index, c),
          message: `mutation_depth ${depth} is above the budget of ${max} (maxMutationDepth); regenerate this variant from a closer seed or raise the budget in litmus.config.json`,
          data: { problem: 'over-budget', depth, max },
        });
      }
      const seed = seedOf(index, c);
      if (!seed || seed === c) continue;
      const seedDepth = seed.value.mutation_depth === undefined ? 0 : depthOf(seed);
      if (seedDepth === undefined || depth > seedDepth) continue;
      const within = seedDepth + 1 <= max;
      ctx.report({
        at: depthAt(index, c),
        message:
          `mutation_depth ${depth} is not greater than its seed ${name(seed)}'s (${seedDepth}); a variant is at least one mutation further: ` +
          (within ? `set it to ${seedDepth + 1}` : `that is above the budget of ${max}, so regenerate this variant from a closer seed or raise the budget in litmus.config.json`),
        related: [{ at: depthAt(index, seed), message: `seed ${name(seed)} has mutation_depth ${seedDepth}` }],
        fixes: within ? [depthFix(setCaseField(index, c, 'mutation_depth', seedDepth + 1, `Set mutation_depth to ${seedDepth + 1}`))] : [],
        data: { problem: 'not-deeper-than-seed', depth, seedDepth },
      });
    }
  },
};
