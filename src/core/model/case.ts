import type { JsonPath } from '../text/types';
import type { SuiteDocument } from './document';
import type { ToolModel } from './tools';
import type { EnvironmentFile, EnvironmentUse } from './environment';

/** The case and tool-file records the workspace index is made of (grouping and the index both read them). */

export type Arm = 'adversarial' | 'benign';

/**
 * How one entry of a case's `tools` array resolved. The same object for every case of a folder whose
 * entry reads the same (a suite's cases name the same few tools): where the entry is, is the case's
 * (`index.casePath(c, 'tools', i)`).
 */
export interface ToolUse {
  /** The reference string, for `path#name` entries. */
  ref?: string;
  /** The tool, inline or referenced, when it resolved. */
  tool?: ToolModel;
  inline: boolean;
  /**
   * Why a reference did not resolve. `outside-workspace`: it leads out of the confinement roots
   * (the editor's workspace folders), so it was not read.
   */
  problem?: 'malformed' | 'missing-file' | 'unreadable' | 'not-a-tool-file' | 'missing-tool' | 'outside-workspace';
  /** The file a reference names (normalised URI), when it is well-formed. */
  targetUri?: string;
  targetName?: string;
}

/**
 * One case of a case file, resolved against the index. The same object across versions of its
 * document while the case's value (text/parse.ts keeps an untouched case's value), its place and
 * its references stand, with `doc` moved to the current version: caches may key on the model,
 * never on what its document's text says (positions come from `doc` when asked).
 */
export interface CaseModel {
  /** The current version of the document that holds the case. */
  doc: SuiteDocument;
  root: number;
  /** Path of the case object within its root: [] for a single case or a JSONL line, ['cases', i] in a suite. */
  path: JsonPath;
  value: Record<string, unknown>;
  id?: string;
  arm?: Arm;
  family?: string;
  probe?: string;
  tools: ToolUse[];
  /** How its `environment` resolved, when it has one. */
  environment?: EnvironmentUse;
}

export type { EnvironmentFile, EnvironmentUse };

export interface ToolFile {
  doc: SuiteDocument;
  tools: ToolModel[];
  byName: Map<string, ToolModel[]>;
}
