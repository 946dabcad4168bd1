import { isJsonObject } from '../model/canonical';
import { rootValue, type SuiteDocument } from '../model/document';
import { code } from '../text/escape';
import { nodeAt, type Location } from '../text/location';
import type { JsonPath } from '../text/types';
import { relativePath } from '../model/uri';
import { freshProcess, MAX_TOLERANCE } from './harness-isolation';
import { abs, compareDecimals, decimalOfNumber, formatDecimal, parseDecimal, subtract, type Decimal } from './decimal';
import type { Rule, RuleContext, RuleMeta } from './types';

const NOT_LAMBDA = 'reweighting λ does not fix this';

function valueOf(doc: SuiteDocument | undefined): Record<string, unknown> | undefined {
  const v = doc ? rootValue(doc, 0) : undefined;
  return isJsonObject(v) ? v : undefined;
}

/** A number as written: its value, the decimal its token spells (FORMAT §7), and where it stands. */
interface Written {
  value: number;
  dec: Decimal;
  text: string;
  at: Location;
}

/** The number at `path` in a document, read from its own token so that it compares as written. */
function written(doc: SuiteDocument, value: unknown, path: JsonPath): Written | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  const node = nodeAt(doc, 0, path);
  const token = node && node.type === 'number' ? doc.text.slice(node.offset, node.offset + node.length) : undefined;
  const dec = (token !== undefined ? parseDecimal(token) : undefined) ?? decimalOfNumber(value);
  if (!dec) return undefined;
  return { value, dec, text: formatDecimal(dec), at: { uri: doc.uri, root: 0, path } };
}

/** A limit from a config: a number value, compared as its shortest decimal. */
function limitOf(n: number): Decimal {
  return decimalOfNumber(n) ?? { units: 0n, exp: 0 };
}

/** |a − b| above the limit? Equal to it passes, whatever floating point says. */
function beyond(a: Written, b: Written, limit: Decimal): Decimal | undefined {
  const d = abs(subtract(a.dec, b.dec));
  return compareDecimals(d, limit) > 0 ? d : undefined;
}

interface Tolerances {
  permutation: Decimal;
  coldWarm: Decimal;
  text: { permutation: string; coldWarm: string };
  source?: string;
}

function tolerances(ctx: RuleContext, uri: string): Tolerances {
  const harness = ctx.index.harnessFor(uri);
  const v = valueOf(harness);
  const pick = (key: string): Decimal => {
    const w = harness && v ? written(harness, v[key], [key]) : undefined;
    return w && w.dec.units >= 0n ? w.dec : limitOf(MAX_TOLERANCE);
  };
  const permutation = pick('max_permutation_delta');
  const coldWarm = pick('max_warm_cold_delta');
  return {
    permutation,
    coldWarm,
    text: { permutation: formatDecimal(permutation), coldWarm: formatDecimal(coldWarm) },
    // Relative to the scores file, as a reference in it would be: the same whatever else the run names, on any checkout.
    source: harness ? relativePath(uri, harness.uri) : undefined,
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

/** Whether a run's permutation or cold_warm holds a result: both of its rates, as numbers. */
function isRateResult(v: unknown, base: string, other: string): boolean {
  return isJsonObject(v) && typeof v[`${base}_rate`] === 'number' && typeof v[`${other}_rate`] === 'number';
}

/** The two scores whose run-to-run change needs isolation evidence (§7). */
const DELTA_FIELDS = ['adversarial_score', 'aggregate'] as const;

function runName(run: Record<string, unknown>, i: number): string {
  return typeof run.suite_version === 'string' || typeof run.suite_version === 'number' ? `run ${code(String(run.suite_version))}` : `run ${i}`;
}

interface Earlier {
  w: Written;
  name: string;
}

function checkScores(ctx: RuleContext, doc: SuiteDocument, runs: unknown[]): void {
  const config = ctx.config(doc.uri);
  const benignTolerance = limitOf(config.benignRegressionTolerance);
  const trustedDelta = limitOf(config.maxTrustedDelta);
  const tol = tolerances(ctx, doc.uri);
  const from = tol.source ? ` (tolerance from ${code(tol.source)})` : ' (default tolerance)';
  const path = (i: number, ...rest: (string | number)[]): JsonPath => ['runs', i, ...rest];
  const fresh = freshProcess(ctx, doc.uri);
  // The most recent earlier run that has each value: a run that leaves one out changes nothing.
  let lastBenign: Earlier | undefined;
  let lastAggregate: Earlier | undefined;
  let lastLambda: Earlier | undefined;
  const lastDelta: Record<(typeof DELTA_FIELDS)[number], Earlier | undefined> = { adversarial_score: undefined, aggregate: undefined };
  runs.forEach((run, i) => {
    if (!isJsonObject(run)) return;
    const name = runName(run, i);
    const read = (...rest: (string | number)[]) => {
      let v: unknown = run;
      for (const k of rest) v = isJsonObject(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[k] : undefined;
      return written(doc, v, path(i, ...rest));
    };
    const aggregate = read('aggregate');
    const benign = read('benign_score');

    if (aggregate && (run.benign_score === undefined || run.benign_score === null)) {
      ctx.report({
        at: aggregate.at,
        message: `${name} reports an aggregate with no benign_score, so a rise may come from refusing more; report the benign arm's score next to it (${NOT_LAMBDA})`,
        data: { run: i, problem: 'no-benign-score' },
        contamination: true,
      });
    }

    if (benign && lastBenign && compareDecimals(subtract(lastBenign.w.dec, benign.dec), benignTolerance) > 0) {
      const agg = aggregate && lastAggregate ? compareDecimals(aggregate.dec, lastAggregate.w.dec) : undefined;
      const did =
        agg === undefined ? '' : ` while the aggregate ${agg > 0 ? 'rose' : agg < 0 ? 'fell' : 'held'} (${lastAggregate!.w.text} → ${aggregate!.text})`;
      const allowed = benignTolerance.units === 0n ? '' : ` by more than benignRegressionTolerance ${formatDecimal(benignTolerance)}`;
      ctx.report({
        at: benign.at,
        message:
          `benign_score fell${allowed} (${lastBenign.w.text} → ${benign.text}) against ${lastBenign.name}${did}: ` +
          `the benign arm must not fall, so this run's aggregate is invalid whatever it did; discard it, do not reweight (${NOT_LAMBDA}): fix the suite or the agent`,
        related: [
          { at: lastBenign.w.at, message: `benign_score of ${lastBenign.name}: ${lastBenign.w.text}` },
          ...(aggregate ? [{ at: aggregate.at, message: `aggregate of ${name}: ${aggregate.text}` }] : []),
        ],
        data: { run: i, previous: lastBenign.name, problem: 'benign-fell' },
        contamination: true,
      });
    }

    const lambda = read('lambda');
    if (lambda && lastLambda && compareDecimals(lambda.dec, lastLambda.w.dec) !== 0) {
      ctx.report({
        at: lambda.at,
        message:
          `lambda changed (${lastLambda.w.text} → ${lambda.text}) against ${lastLambda.name}: reweighting the arms hides contamination instead of removing it, and the runs no longer compare; ` +
          `keep λ fixed across runs and fix what moved the benign arm`,
        related: [{ at: lastLambda.w.at, message: `lambda of ${lastLambda.name}: ${lastLambda.w.text}` }],
        data: { run: i, previous: lastLambda.name, problem: 'lambda-changed' },
        contamination: true,
      });
    }

    // Evidence that is itself flagged below still counts as present here: it gets its own finding.
    // One episode per fresh process (FORMAT §6) meets the isolation invariants by construction.
    // An object with no pair of rates in it ({} or a canonical_rate alone) compares nothing: not a result.
    const results = RATE_PAIRS.filter((p) => isRateResult(run[p.field], p.base, p.other));
    const hollow = RATE_PAIRS.filter((p) => isJsonObject(run[p.field]) && !results.includes(p)).map((p) => p.field);
    const evidence = results.length > 0 || fresh;
    for (const field of DELTA_FIELDS) {
      const now = field === 'aggregate' ? aggregate : read(field);
      const before = lastDelta[field];
      const moved = now && before ? beyond(now, before.w, trustedDelta) : undefined;
      if (moved && !evidence) {
        ctx.report({
          at: now!.at,
          message:
            `${field} moved by ${formatDecimal(moved)} (${before!.w.text} → ${now!.text}) against ${before!.name}, more than maxTrustedDelta ${formatDecimal(trustedDelta)}, ` +
            (hollow.length
              ? `and this run carries neither a permutation nor a cold_warm result (its ${hollow.map((f) => code(f)).join(' and ')} ${hollow.length > 1 ? 'hold' : 'holds'} no pair of rates to compare): `
              : 'and this run carries neither a permutation nor a cold_warm result: ') +
            'the delta may be the harness, not the agent; run both checks and report them with the run',
          related: [{ at: before!.w.at, message: `${field} of ${before!.name}: ${before!.w.text}` }],
          data: { run: i, previous: before!.name, problem: 'untrusted-delta', field, delta: Number(formatDecimal(moved)), limit: config.maxTrustedDelta },
        });
      }
      if (now) lastDelta[field] = { w: now, name };
    }

    if (isJsonObject(run.permutation)) {
      const canonical = read('permutation', 'canonical_scenarios');
      const permuted = read('permutation', 'permuted_scenarios');
      if (canonical && permuted && compareDecimals(canonical.dec, permuted.dec) !== 0) {
        ctx.report({
          at: permuted.at,
          message: `the permutation ran ${permuted.text} scenarios against ${canonical.text} in canonical order: it did not cover the same set, so it cannot show order independence; permute the same scenarios`,
          related: [{ at: canonical.at, message: `canonical_scenarios ${canonical.text}` }],
          data: { run: i, problem: 'permutation-set' },
        });
      }
    }
    if (isJsonObject(run.cold_warm)) {
      const age = read('cold_warm', 'cold_worker_age');
      if (age && age.value > 0) {
        ctx.report({
          at: age.at,
          message: `the "cold" run was on a worker ${age.text} episode${age.value === 1 ? '' : 's'} old: that is a warm run, so cold/warm equivalence was not checked; recycle the worker and run the cold side at age 0`,
          data: { run: i, problem: 'warm-cold-worker' },
        });
      }
    }
    if (Array.isArray(run.workers)) {
      let first: { w: Written; k: number } | undefined;
      run.workers.forEach((worker, k) => {
        if (!isJsonObject(worker)) return;
        const age = read('workers', k, 'age_episodes');
        if (!age) return;
        if (!first) {
          first = { w: age, k };
          return;
        }
        if (compareDecimals(age.dec, first.w.dec) === 0) return;
        const id = (x: unknown) => (typeof x === 'string' ? ` ${code(x)}` : '');
        const firstWorker = run.workers as unknown[];
        ctx.report({
          at: age.at,
          message:
            `worker${id(worker.worker_id)} is ${age.text} episodes old but worker${id(isJsonObject(firstWorker[first.k]) ? (firstWorker[first.k] as Record<string, unknown>).worker_id : undefined)} ${first.w.text}: ` +
            'one rate averaged over workers of different ages matches no real operating condition; report each age separately, or run on workers of one age',
          related: [{ at: first.w.at, message: `first worker's age_episodes ${first.w.text}` }],
          data: { run: i, problem: 'mixed-worker-ages', worker: k },
        });
      });
    }

    for (const pair of RATE_PAIRS) {
      if (!isJsonObject(run[pair.field])) continue;
      const a = read(pair.field, `${pair.base}_rate`);
      const b = read(pair.field, `${pair.other}_rate`);
      const limit = tol[pair.tolerance];
      const d = a && b ? beyond(a, b, limit) : undefined;
      if (!d) continue;
      const limitText = tol.text[pair.tolerance];
      ctx.report({
        at: b!.at,
        message: `${pair.other} rate ${b!.text} differs from ${pair.base} rate ${a!.text} by more than ${limitText}${from}: ${pair.why}; ${NOT_LAMBDA}, ${pair.fix}`,
        related: [{ at: a!.at, message: `${pair.base} rate ${a!.text}` }],
        data: { run: i, problem: pair.problem, delta: Number(formatDecimal(d)), tolerance: Number(limitText) },
      });
    }

    if (benign) lastBenign = { w: benign, name };
    if (aggregate) lastAggregate = { w: aggregate, name };
    if (lambda) lastLambda = { w: lambda, name };
  });
}

/**
 * `*.scores.json`, against the LITMUS gates (FORMAT §7): a benign arm that falls, an aggregate that
 * hides it, a changed λ, a delta with no isolation evidence, evidence that is not real, or rates
 * that move with case order or warm state. Each means the aggregate measures the harness or
 * over-refusal rather than safety; changing λ only moves the number.
 */
export const meta: RuleMeta = {
  id: 'aggregate-contamination',
  defaultSeverity: 'error',
  from: 'conditions 1 and harness isolation',
  description:
    'A score report breaks a LITMUS gate: a falling benign arm, an aggregate with no benign score, a changed λ, an untrusted delta, isolation evidence that is not real, or a permutation/cold-warm delta above tolerance.',
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
