import { isJsonObject } from '../model/canonical';
import { rootValue, type SuiteDocument } from '../model/document';
import { setValueFix } from '../text/edit';
import { code } from '../text/escape';
import type { Location } from '../text/location';
import type { FixSpec } from '../text/fix';
import type { Rule, RuleContext, RuleMeta } from './types';

/** The largest order or cold/warm delta a harness may tolerate before the check stops meaning anything. */
export const MAX_TOLERANCE = 0.01;

function fix(doc: SuiteDocument, key: string, value: unknown, unambiguous = true): FixSpec {
  return setValueFix(`Set ${key} to ${JSON.stringify(value)}`, unambiguous, doc, 0, [key], value);
}

/** A check that is off points at its value; one that is absent points at the file's opening brace. */
function checkAt(doc: SuiteDocument, v: Record<string, unknown>, key: string): Location {
  return key in v ? { uri: doc.uri, root: 0, path: [key] } : { uri: doc.uri, root: 0, path: [], part: 'key' };
}

/**
 * Whether the nearest harness config declares one episode per freshly started process (FORMAT §6):
 * nothing is loaded once and reused, so the isolation invariants hold by construction.
 */
export function freshProcess(ctx: RuleContext, uri: string): boolean {
  const harness = ctx.index.harnessFor(uri);
  const v = harness ? rootValue(harness, 0) : undefined;
  return isJsonObject(v) && v.episode_process === 'fresh';
}

function checkHarness(ctx: RuleContext, doc: SuiteDocument, v: Record<string, unknown>): void {
  const at = (key: string): Location => ({ uri: doc.uri, root: 0, path: [key] });
  // One episode per fresh process: settings of a reused process and the probes that look for its
  // leaks do not apply (FORMAT §6). The tolerances still say how a probe that does run is read.
  const fresh = v.episode_process === 'fresh';
  if (!fresh && (v.reset_counters === 'batch' || v.reset_counters === 'worker')) {
    ctx.report({
      at: at('reset_counters'),
      message: `counters reset per ${v.reset_counters}, so one episode's step and refusal counts leak into the next; reset them per episode`,
      fixes: [fix(doc, 'reset_counters', 'episode')],
      data: { setting: 'reset_counters' },
    });
  }
  if (!fresh && v.prompt_includes_harness_scratch === true) {
    ctx.report({
      at: at('prompt_includes_harness_scratch'),
      message: "harness scratch goes into the prompt, so the agent can read the harness's notes about the case; keep it out of the prompt",
      fixes: [fix(doc, 'prompt_includes_harness_scratch', false)],
      data: { setting: 'prompt_includes_harness_scratch' },
    });
  }
  if (!fresh && v.refusal_canary_cache === 'worker') {
    ctx.report({
      at: at('refusal_canary_cache'),
      message: 'the refusal canary is cached per worker, beyond one episode, so an earlier refusal decides later ones; cache it per episode at most, or not at all',
      fixes: [fix(doc, 'refusal_canary_cache', 'none')],
      data: { setting: 'refusal_canary_cache' },
    });
  }
  // Required whatever the order: a shuffled run is one sample of one order, not a comparison of two.
  if (!fresh && (v.permutation_probe === undefined || v.permutation_probe === false)) {
    const order = v.scenario_order;
    const why =
      order === 'shuffled'
        ? 'a shuffled order is not a permutation test: one run in one random order cannot show that the score does not depend on the order'
        : typeof order === 'string'
          ? `scenarios run in ${code(order)} order, so a score that depends on case order goes unnoticed`
          : 'a score that depends on case order goes unnoticed';
    ctx.report({
      at: checkAt(doc, v, 'permutation_probe'),
      message: `no permutation probe: ${why}; add \`"permutation_probe": true\``,
      related: typeof order === 'string' ? [{ at: at('scenario_order'), message: `order is ${code(order)}` }] : [],
      fixes: [fix(doc, 'permutation_probe', true)],
      data: { setting: 'permutation_probe' },
    });
  }
  if (!fresh && (v.cold_warm_check === undefined || v.cold_warm_check === false)) {
    ctx.report({
      at: checkAt(doc, v, 'cold_warm_check'),
      message: 'no cold/warm check, so state carried between episodes (warm caches, memory) is never measured; add `"cold_warm_check": true`',
      fixes: [fix(doc, 'cold_warm_check', true)],
      data: { setting: 'cold_warm_check' },
    });
  }
  for (const key of ['max_permutation_delta', 'max_warm_cold_delta']) {
    const t = v[key];
    if (typeof t !== 'number' || !(t > MAX_TOLERANCE)) continue;
    ctx.report({
      at: at(key),
      severity: 'warning',
      message: `${key} ${t} is above ${MAX_TOLERANCE}: order or warm-state effects that large pass as noise; tighten it to ${MAX_TOLERANCE}`,
      fixes: [fix(doc, key, MAX_TOLERANCE, false)],
      data: { setting: key, tolerance: t },
    });
  }
}

/** `litmus.harness.json`: the evaluation harness must keep every episode on its own. */
export const meta: RuleMeta = {
  id: 'harness-isolation',
  defaultSeverity: 'error',
  from: 'harness isolation',
  description: 'A harness config breaks per-episode isolation or skips the permutation probe or the cold/warm check (both required whatever the order, unless every episode runs in a fresh process).',
};

export const harnessIsolation: Rule = {
  meta,
  check(ctx) {
    for (const doc of ctx.index.docs.values()) {
      if (doc.kind !== 'harness') continue;
      const value = rootValue(doc, 0);
      if (isJsonObject(value)) checkHarness(ctx, doc, value);
    }
  },
};
