import { isJsonObject } from '../model/canonical';
import { rootValue, type SuiteDocument } from '../model/document';
import { code } from '../text/escape';
import { displayPath } from '../model/uri';
import { MAX_TOLERANCE } from './harness-isolation';
import type { Rule, RuleContext, RuleMeta } from './types';

/** Rates are printed with two or three decimals; a difference below this is rounding, not a change. */
const EPSILON = 1e-9;
const NOT_LAMBDA = 'reweighting λ does not fix this';

function valueOf(doc: SuiteDocument | undefined): Record<string, unknown> | undefined {
  const v = doc ? rootValue(doc, 0) : undefined;
  return isJsonObject(v) ? v : undefined;
}

interface Tolerances {
  permutation: number;
  coldWarm: number;
  source?: string;
}

function tolerances(ctx: RuleContext, uri: string): Tolerances {
  const harness = ctx.index.harnessFor(uri);
  const v = valueOf(harness);
  const pick = (x: unknown) => (typeof x === 'number' && x >= 0 ? x : MAX_TOLERANCE);
  return {
    permutation: pick(v?.max_permutation_delta),
    coldWarm: pick(v?.max_warm_cold_delta),
    source: harness ? displayPath(harness.uri, ctx.index.roots[0]) : undefined,
  };
}

/**
 * Rates a run measures twice, under conditions that must not change them: case order, and a warm
 * versus a cold start. They may differ by the harness's tolerance.
 */
const RATE_PAIRS = [
  { field: 'permutation', base: 'canonical', other: 'permuted', tolerance: 'permutation', problem: 'permutation-delta', why: 'the score depends on case order', fix: 'isolate the episodes' },
  { field: 'cold_warm', base: 'cold', other: 'warm', tolerance: 'coldWarm', problem: 'cold-warm-delta', why: 'state leaks between episodes', fix: 'reset state per episode' },
] as const;

const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

function runName(run: Record<string, unknown>, i: number): string {
  return typeof run.suite_version === 'string' || typeof run.suite_version === 'number' ? `run ${code(String(run.suite_version))}` : `run ${i}`;
}

function checkScores(ctx: RuleContext, doc: SuiteDocument, runs: unknown[]): void {
  const tol = tolerances(ctx, doc.uri);
  const from = tol.source ? ` (tolerance from ${code(tol.source)})` : ' (default tolerance)';
  const at = (...path: (string | number)[]) => ({ uri: doc.uri, root: 0, path: ['runs', ...path] });
  let prev: { run: Record<string, unknown>; i: number } | undefined;
  runs.forEach((run, i) => {
    if (!isJsonObject(run)) return;
    const aggregate = num(run.aggregate);
    const benign = num(run.benign_score);
    if (aggregate !== undefined && (run.benign_score === undefined || run.benign_score === null)) {
      ctx.report({
        at: at(i, 'aggregate'),
        message: `${runName(run, i)} reports an aggregate with no benign_score, so a rise may come from refusing more; report the benign arm's score next to it (${NOT_LAMBDA})`,
        data: { run: i, problem: 'no-benign-score' },
      });
    }
    const p = prev;
    if (p && aggregate !== undefined && benign !== undefined) {
      const prevAggregate = num(p.run.aggregate);
      const prevBenign = num(p.run.benign_score);
      if (prevAggregate !== undefined && prevBenign !== undefined && aggregate > prevAggregate + EPSILON && benign < prevBenign - EPSILON) {
        ctx.report({
          at: at(i, 'aggregate'),
          message:
            `aggregate rose (${prevAggregate} → ${aggregate}) while benign_score fell (${prevBenign} → ${benign}) against ${runName(p.run, p.i)}: ` +
            `the gain is bought with over-refusal; ${NOT_LAMBDA}, fix the suite or the agent`,
          related: [
            { at: at(p.i, 'aggregate'), message: `previous aggregate ${prevAggregate}` },
            { at: at(i, 'benign_score'), message: `benign_score fell to ${benign}` },
          ],
          data: { run: i, previous: p.i, problem: 'aggregate-up-benign-down' },
        });
      }
    }
    for (const pair of RATE_PAIRS) {
      const rates = run[pair.field];
      if (!isJsonObject(rates)) continue;
      const a = num(rates[`${pair.base}_rate`]);
      const b = num(rates[`${pair.other}_rate`]);
      const limit = tol[pair.tolerance];
      if (a === undefined || b === undefined || Math.abs(a - b) <= limit + EPSILON) continue;
      ctx.report({
        at: at(i, pair.field, `${pair.other}_rate`),
        message: `${pair.other} rate ${b} differs from ${pair.base} rate ${a} by more than ${limit}${from}: ${pair.why}; ${NOT_LAMBDA}, ${pair.fix}`,
        related: [{ at: at(i, pair.field, `${pair.base}_rate`), message: `${pair.base} rate ${a}` }],
        data: { run: i, problem: pair.problem, delta: Math.abs(a - b), tolerance: limit },
      });
    }
    prev = { run, i };
  });
}

/**
 * `*.scores.json`: an aggregate that rises while the benign arm falls, or that hides the benign
 * arm, or that moves with case order or warm state, measures the harness or over-refusal rather
 * than safety. Changing λ only moves the number; the contamination stays.
 */
export const meta: RuleMeta = {
  id: 'aggregate-contamination',
  defaultSeverity: 'error',
  from: 'conditions 1 and harness isolation',
  description: 'A score report whose aggregate rose while the benign arm fell, lacks a benign score, or exceeds a permutation/cold-warm tolerance.',
};

export const aggregateContamination: Rule = {
  meta,
  check(ctx) {
    for (const doc of ctx.index.docs.values()) {
      if (doc.kind !== 'scores') continue;
      const runs = valueOf(doc)?.runs;
      if (Array.isArray(runs)) checkScores(ctx, doc, runs);
    }
  },
};
