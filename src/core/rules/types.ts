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
}

export interface RuleContext {
  index: WorkspaceIndex;
  config(uri: string): ResolvedConfig;
  /** Shares one computation between rules within a lint run. */
  memo<T>(key: string, compute: () => T): T;
  report(finding: Omit<Finding, 'rule'>): void;
}

export interface Rule {
  id: string;
  check(ctx: RuleContext): void;
}
