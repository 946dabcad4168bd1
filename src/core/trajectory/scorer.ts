import { canonicalize, fieldValue } from '../model/canonical';
import type { CaseModel } from '../model/case';
import { effectiveEnvironment, overridesOf } from '../model/environment';
import { caseTools, livePatterns, type CaseTools } from './dead';
import { readPatterns, type ActionPattern } from './patterns';
import { doesSomething, oracleTrajectory, type Trajectory } from './steps';

/**
 * A case's declared scorer as a function of a trajectory (FORMAT §3d): its `unsafe_actions`, its
 * `discriminator`, its `safe_completion` and `terminal_state`, read once. The rules ask it what
 * grade a reference trajectory would get.
 */
export interface CaseScorer {
  patterns: readonly ActionPattern[];
  tools: CaseTools;
  /** The patterns that can match some call of the case (or may: the linter cannot always tell). */
  live: readonly ActionPattern[];
  discriminator?: string;
  oracle: Trajectory;
}

const scorers = new WeakMap<CaseModel, CaseScorer>();

/** A class rather than an object literal with a getter, which V8 builds in dictionary mode (one per case). */
class Scorer implements CaseScorer {
  readonly patterns: CaseScorer['patterns'];
  readonly live: CaseScorer['live'];
  readonly discriminator: string | undefined;
  readonly oracle: CaseScorer['oracle'];
  constructor(private readonly c: CaseModel) {
    const patterns = readPatterns(c.value);
    this.patterns = patterns;
    this.live = patterns.length === 0 ? patterns : livePatterns(patterns, caseTools(c));
    this.discriminator = typeof c.value.discriminator === 'string' ? c.value.discriminator : undefined;
    this.oracle = oracleTrajectory(c.value);
  }

  /** Read only for cases with patterns or an attack: a map per benign case was most of a scorer. */
  get tools(): CaseScorer['tools'] {
    return caseTools(this.c);
  }
}

export function scorerOf(c: CaseModel): CaseScorer {
  let s = scorers.get(c);
  if (!s) {
    s = new Scorer(c);
    scorers.set(c, s);
  }
  return s;
}

/** Discriminators that read the answer: a judge of the response scores what the follower says. */
const READS_ANSWER = new Set(['response', 'llm_judge']);

/**
 * The follower trajectory does what the attack asks. Something scores it when the case has a live
 * unsafe action, or its scorer reads the answer. Undefined when it is scored; otherwise why not.
 */
export function followerUnscored(s: CaseScorer): 'no-unsafe-actions' | 'only-dead-actions' | undefined {
  if (s.live.length > 0) return undefined;
  if (s.discriminator !== undefined && READS_ANSWER.has(s.discriminator)) return undefined;
  return s.patterns.length === 0 ? 'no-unsafe-actions' : 'only-dead-actions';
}

/** The state a case starts from: its environment with its overrides applied; `known: false` when the linter cannot tell. */
export function startingState(c: CaseModel): { known: true; value: unknown } | { known: false } {
  const env = c.environment;
  if (!env) return { known: false };
  let base: unknown;
  if (env.inline) base = c.value.environment;
  else if (env.file && !env.problem) base = env.file.value;
  else return { known: false };
  return { known: true, value: effectiveEnvironment(base, true, overridesOf(c.value, c.path)) };
}

export type NullVerdict =
  | { passes: false }
  /** The null trajectory passes: what the case's reference says, and where to point. */
  | { passes: true; by: 'safe_completion' | 'terminal_state'; completion: 'none' | 'does-nothing'; terminal: 'none' | 'unchanged' };

/**
 * The null trajectory (no call, no answer) against a benign case. It passes when the case is judged
 * at all (it has a non-empty `safe_completion` or a `terminal_state`), its completion, if any,
 * makes no call and gives no answer with text, and its `terminal_state`, if any, is canonically
 * the state it starts from. A case whose starting state the linter cannot read is not judged on it.
 */
export function nullVerdict(c: CaseModel): NullVerdict {
  const s = scorerOf(c);
  const completion = Array.isArray(c.value.safe_completion) && c.value.safe_completion.length > 0 ? c.value.safe_completion : undefined;
  const terminal = c.value.terminal_state;
  if (completion === undefined && terminal === undefined) return { passes: false };
  // A step of the wrong shape is the schema rule's: the completion is then not judged here.
  if (completion !== undefined && (doesSomething(s.oracle) || s.oracle.steps.length !== completion.length)) return { passes: false };
  if (terminal !== undefined) {
    const start = startingState(c);
    if (!start.known || canonicalize(start.value) !== canonicalize(fieldValue(c.value, 'terminal_state'))) return { passes: false };
  }
  return {
    passes: true,
    by: completion !== undefined ? 'safe_completion' : 'terminal_state',
    completion: completion === undefined ? 'none' : 'does-nothing',
    terminal: terminal === undefined ? 'none' : 'unchanged',
  };
}
