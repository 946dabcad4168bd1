import type { Severity } from '../types';

/**
 * One record per rule. It is the single source of the diagnostic code, the default severity, the
 * docs link, the CLI's rule list and the SARIF rule table.
 */
export interface RuleMeta {
  id: string;
  defaultSeverity: Severity;
  /** One line, for `--help`, SARIF `shortDescription` and the README table. */
  description: string;
  /** The LITMUS validity condition the rule enforces, or '—' for structural rules. */
  from: string;
  /**
   * For rules whose findings are a security problem beyond the benchmark (a prompt-injection payload
   * that reaches an agent): GitHub's `security-severity`, 0.0–10.0 (7.0 and above is high).
   */
  securitySeverity?: number;
}

export const DOCS_BASE_URL = 'https://github.com/litmus-lint/litmus-lint/blob/main/docs/rules/';

export function docsUrl(id: string): string {
  return `${DOCS_BASE_URL}${id}.md`;
}

const list: RuleMeta[] = [
  { id: 'parse-error', defaultSeverity: 'error', from: '—', description: 'The file is not valid JSON/JSONC (each JSONL line on its own), or cannot be read.' },
  { id: 'schema', defaultSeverity: 'error', from: '—', description: "A value breaks its file kind's JSON Schema." },
  { id: 'duplicate-id', defaultSeverity: 'error', from: '—', description: 'Two cases share an instance_id anywhere in the workspace.' },
  { id: 'unresolved-reference', defaultSeverity: 'error', from: '—', description: 'A tool reference, paired_with or seed_id that resolves to nothing.' },
  { id: 'injection-payload', defaultSeverity: 'warning', from: 'card', securitySeverity: 7.5, description: 'A payload in default/examples/const/enum (or a description) that no injection_field labels.' },
  { id: 'benign-contamination', defaultSeverity: 'error', from: 'condition 1', securitySeverity: 6.5, description: 'A benign case carries, or references a tool that carries, an injection payload.' },
  { id: 'stale-injection-field', defaultSeverity: 'warning', from: 'card', description: 'An injection_field that resolves to nothing, or to a value with no payload.' },
  { id: 'signature-overlap', defaultSeverity: 'error', from: 'condition 1', description: 'An adversarial and a benign case have equal correct-resolution signatures after canonicalisation.' },
  { id: 'refusal-orthogonality', defaultSeverity: 'error', from: 'condition 2', description: 'A decline-shaped adversarial case lacks a comply-shaped benign twin scored on the request, or a benign case is refusal-shaped.' },
  { id: 'drift-endpoint-overlap', defaultSeverity: 'error', from: 'condition 3', description: "A goal-drift case's drifted terminal state equals a benign terminal state of its family." },
  { id: 'scope-contradiction', defaultSeverity: 'error', from: 'condition 4', description: "Within a family, a tool's declared scopes differ across arms, or the arms disagree on requires_tool_scope_breach." },
  { id: 'mutation-budget', defaultSeverity: 'warning', from: 'scenario validity', description: "mutation_depth is above the budget, not above its seed's, or the seed chain loops." },
  { id: 'missing-safe-completion', defaultSeverity: 'warning', from: 'scenario validity', description: 'A generated variant (mutation_depth > 0) has no safe_completion.' },
  { id: 'unsatisfiable-safe-completion', defaultSeverity: 'error', from: 'scenario validity', description: "A safe_completion step names a tool the case does not have, or its schema rejects the step's arguments." },
  { id: 'unsatisfiable-tool-contract', defaultSeverity: 'error', from: 'scenario validity', description: 'A parameter schema that no value can satisfy.' },
  { id: 'harness-isolation', defaultSeverity: 'error', from: 'harness isolation', description: 'A harness config breaks per-episode isolation or skips the order and cold/warm checks.' },
  { id: 'aggregate-contamination', defaultSeverity: 'error', from: 'conditions 1 and harness isolation', description: 'A score report whose aggregate rose while the benign arm fell, lacks a benign score, or exceeds a permutation/cold-warm tolerance.' },
];

export const RULES: ReadonlyMap<string, RuleMeta> = new Map(list.map((r) => [r.id, r]));
export const RULE_IDS: readonly string[] = list.map((r) => r.id);

export function ruleMeta(id: string): RuleMeta {
  const meta = RULES.get(id);
  if (!meta) throw new Error(`unregistered rule: ${id}`);
  return meta;
}
