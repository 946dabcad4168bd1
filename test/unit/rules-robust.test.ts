import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../../src/core';
import { buildSuiteReport, renderSuiteReport } from '../../src/core/lint/report';

/** Seeded and bounded, so every run checks the same cases. */
const RUNS = { seed: 4, numRuns: 60 };
const MINE = new Set([
  'signature-overlap',
  'refusal-orthogonality',
  'drift-endpoint-overlap',
  'scope-contradiction',
  'mutation-budget',
  'missing-safe-completion',
  'unsatisfiable-safe-completion',
  'unsatisfiable-tool-contract',
  'harness-isolation',
  'aggregate-contamination',
]);

/** Values that are sometimes meaningful to the rules and sometimes any JSON at all. */
const either = <T>(meaningful: fc.Arbitrary<T>) => fc.oneof(meaningful, fc.jsonValue({ maxDepth: 3 }), fc.constant(undefined));
const ids = fc.constantFrom('a', 'b', 'c', 'd');
const schemaKeyword = fc.dictionary(
  fc.constantFrom('type', 'enum', 'const', 'required', 'properties', 'additionalProperties', 'minimum', 'maximum', 'minItems', 'maxItems', 'allOf', 'anyOf', 'not', 'items', 'patternProperties', '$schema', '$ref'),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 6 },
);
const caseArb = fc.record(
  {
    instance_id: either(ids),
    arm: either(fc.constantFrom('adversarial', 'benign')),
    probe: either(fc.constantFrom('goal_drift', 'skill_misuse')),
    family: either(fc.constantFrom('f', 'g')),
    resolution: either(fc.constantFrom('comply', 'decline', 'partial_decline')),
    paired_with: either(ids),
    discriminator: either(fc.constantFrom('request', 'response')),
    correct_resolution_signature: either(fc.constantFrom('s', { k: 1 })),
    terminal_state: either(fc.constantFrom('end', 1)),
    drift_terminal_state: either(fc.constantFrom('end', 1.0)),
    tool_scopes: either(fc.dictionary(fc.constantFrom('t', 'u'), fc.array(fc.constantFrom('r', 'w')))),
    requires_tool_scope_breach: either(fc.boolean()),
    seed_id: either(ids),
    mutation_depth: either(fc.integer({ min: -1, max: 12 })),
    tools: either(fc.array(fc.record({ name: fc.constantFrom('t', 'u'), description: fc.constant('d'), inputSchema: fc.oneof(schemaKeyword, fc.boolean()) }), { maxLength: 2 })),
    safe_completion: either(fc.array(fc.record({ tool: either(fc.constantFrom('t', 'u', 'v')), arguments: either(fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 2 }))) }), { maxLength: 3 })),
  },
  { requiredKeys: [] },
);
const harnessArb = fc.dictionary(
  fc.constantFrom('reset_counters', 'prompt_includes_harness_scratch', 'refusal_canary_cache', 'scenario_order', 'permutation_probe', 'cold_warm_check', 'max_permutation_delta', 'max_warm_cold_delta'),
  fc.oneof(fc.constantFrom('episode', 'batch', 'worker', 'none', 'sorted', 'shuffled', true, false, 0.5, 0.001), fc.jsonValue({ maxDepth: 2 })),
);
const runArb = fc.dictionary(
  fc.constantFrom('suite_version', 'benign_score', 'aggregate', 'permutation', 'cold_warm'),
  fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), fc.record({ canonical_rate: fc.jsonValue(), permuted_rate: fc.jsonValue(), cold_rate: fc.jsonValue(), warm_rate: fc.jsonValue() }), fc.jsonValue({ maxDepth: 2 })),
);

describe('property: the contamination and validity rules tolerate any values', () => {
  it('never throw, place every finding inside its document, and the report renders', async () => {
    const fired = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.array(caseArb, { maxLength: 6 }), harnessArb, fc.array(runArb, { maxLength: 4 }), async (cases, harness, runs) => {
        const files: Record<string, string> = {
          'file:///ws/s.litmus.json': JSON.stringify({ suite: 's', cases }, null, 1),
          'file:///ws/l.litmus.jsonl': cases.map((c) => JSON.stringify(c)).join('\n'),
          'file:///ws/litmus.harness.json': JSON.stringify(harness),
          'file:///ws/r.scores.json': JSON.stringify({ suite: 's', runs }),
        };
        const { index } = await loadWorkspace(memoryFileSystem(files), ['file:///ws']);
        const { diagnostics } = lintIndex(index);
        for (const d of diagnostics) {
          if (!MINE.has(d.code)) continue;
          fired.add(d.code);
          const text = files[d.uri];
          assert.ok(d.offset >= 0 && d.offset + d.length <= text.length, `${d.code} out of range`);
          assert.ok(d.length > 0, `${d.code} has an empty range: ${d.message}`);
        }
        const report = buildSuiteReport(index, diagnostics);
        for (const format of ['text', 'json', 'markdown'] as const) assert.ok(renderSuiteReport(report, format).includes('VERDICT'));
      }),
      RUNS,
    );
    // The generator must reach the rules, or the property says nothing.
    assert.ok(fired.size >= 7, `only ${[...fired].join(', ')} fired`);
  });
});
