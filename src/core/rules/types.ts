import type { ResolvedConfig } from '../model/config';
import type { Location } from '../text/location';
import type { FixSpec } from '../text/fix';
import type { Severity } from '../text/types';
import type { WorkspaceIndex } from '../model/workspace';

export interface RelatedSpec {
  at: Location;
  message: string;
}

/** What a rule reports: a path, a message, and what the fixes and the hover need. */
export interface Finding {
  rule: string;
  at: Location;
  message: string;
  related?: RelatedSpec[];
  /** This finding's own default, when it differs from the rule's (e.g. a tolerance is a warning). */
  severity?: Severity;
  /** Never shown below this, whatever the config says (hidden text is always at least a warning). */
  minSeverity?: Severity;
  /** Never shown above this (a labelled payload is a hint, never a warning). */
  maxSeverity?: Severity;
  fixes?: FixSpec[];
  /** Plain data for hosts (hover, code actions). Never parsed out of the message. */
  data?: Record<string, unknown>;
  /**
   * The fact this finding states, when other findings (of this rule or another) can state the same
   * one about the same case: one step matching one unsafe action is both an unsafe completion and a
   * contract the arms disagree on. Findings with equal facts are shown as one (lint/facts.ts;
   * docs/format.md, "One fact, one finding"). Built with `caseFact`, so it names its case.
   */
  fact?: string;
  /**
   * A contamination finding (FORMAT §5): capped at `info`, with the reason said, where the config
   * declares `"scoring": "disjoint"` (the arms are reported apart, outside the LITMUS note's scope).
   */
  contamination?: boolean;
  /** A plugin rule's documentation page (built-in rules: docs/rules/<id>.md). */
  docsUrl?: string;
}

/** What a rule hands `report`: a finding without its rule id, which the linter adds. */
export type Report = Omit<Finding, 'rule'>;

export interface RuleContext {
  index: WorkspaceIndex;
  config(uri: string): ResolvedConfig;
  /** Shares one computation between rules within a lint run. */
  memo<T>(key: string, compute: () => T): T;
  report(finding: Report): void;
  /** Every rule id of the linter, for rules that check names of rules (suppressions). */
  ruleIds: readonly string[];
  /**
   * Whether findings placed in this document are kept this run. The incremental linter runs a rule
   * over every document its findings read and keeps those of the documents it re-judges: a rule may
   * skip a case whose every finding would land in a document not kept. A full run keeps every one.
   */
  keeps: (uri: string) => boolean;
  /**
   * Whether the host lints this workspace again after an edit (the editor's incremental linter):
   * a rule may then keep what it found per case for the next run (rules/kept-by-case.ts). A run
   * made once (the CLI's) would only pay for keeping it.
   */
  remember: boolean;
}

/**
 * What a rule says about itself, next to its check (as ESLint rules carry `meta`). It is the one
 * source of the diagnostic code, the default severity, the docs link, the CLI's rule list, the README
 * table and the SARIF rule table.
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
  /**
   * Every finding of the rule is a contamination finding (FORMAT §5): capped at `info`, with the
   * reason said, where the config declares `"scoring": "disjoint"`. A rule with only some such
   * findings marks those (`Finding.contamination`).
   */
  contamination?: boolean;
  /**
   * A finding makes its case invalid as a test whatever its severity, as a scenario-validity one
   * does: the suite report quarantines the case (the reference trajectories' case verdicts, §3d).
   */
  invalidatesCase?: boolean;
  /**
   * The documentation page of a plugin's rule (built-in rules have theirs under docs/rules/). A
   * plugin rule's id is `namespace/rule`, so it can never take a built-in rule's name.
   */
  docsUrl?: string;
}

export interface Rule {
  meta: RuleMeta;
  check(ctx: RuleContext): void;
}
