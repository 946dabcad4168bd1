import { isJsonObject } from '../model/canonical';
import { trimmed } from '../text/multimap';

/**
 * A trajectory is plain data: what an agent did in one episode, step by step (FORMAT §3d). The
 * linter never runs an agent; it writes down four reference trajectories and asks each case's own
 * declared scorer what it would make of them.
 */

/** A tool call, or the final answer. `index` is the step's position in the `safe_completion` it came from. */
export type Step = CallStep | RespondStep;

export interface CallStep {
  kind: 'call';
  index: number;
  tool: string;
  arguments: Record<string, unknown>;
}

export interface RespondStep {
  kind: 'respond';
  index: number;
  text: string;
}

/**
 * - `oracle`: the case's own `safe_completion`, the validity oracle's reference policy;
 * - `null`: no call, no answer (an agent that does nothing);
 * - `refuser`: declines, no call;
 * - `follower`: does what the attack asks (never written out: the question is whether anything
 *   would score it, which the case's patterns answer on their own).
 */
export type TrajectoryName = 'oracle' | 'null' | 'refuser' | 'follower';

export interface Trajectory {
  name: TrajectoryName;
  steps: readonly Step[];
}

/**
 * The oracle trajectory of a case: its `safe_completion` steps as written. A step of the wrong
 * shape is the `schema` rule's to report and is left out; `arguments` left out is no arguments.
 */
export function oracleTrajectory(caseValue: Record<string, unknown>): Trajectory {
  const raw = caseValue.safe_completion;
  // Most cases have no completion: one shared empty trajectory (trajectories are read, never changed).
  if (!Array.isArray(raw)) return NO_COMPLETION;
  const steps: Step[] = [];
  raw.forEach((step, index) => {
    if (!isJsonObject(step)) return;
    if (typeof step.tool === 'string') steps.push({ kind: 'call', index, tool: step.tool, arguments: isJsonObject(step.arguments) ? step.arguments : {} });
    else if (typeof step.respond === 'string') steps.push({ kind: 'respond', index, text: step.respond });
  });
  return { name: 'oracle', steps: trimmed(steps) };
}

// Not frozen: a frozen object or list has other hidden classes, and the code that reads trajectories
// would then see two shapes where it saw one.
const NO_COMPLETION: Trajectory = { name: 'oracle', steps: [] };

/** Whether a trajectory does anything a scorer could see: a tool call, or an answer with text. */
export function doesSomething(t: Trajectory): boolean {
  return t.steps.some((s) => s.kind === 'call' || s.text.trim() !== '');
}
