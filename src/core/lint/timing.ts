/**
 * Where a lint's rule time goes (the CLI's `TIMING`, as ESLint's): milliseconds per rule, and per
 * analysis the rules share through `ctx.memo`, charged to itself rather than to whichever rule
 * asked for it first. What a rule is the first to build on the index (case models, links) stays
 * in that rule's time. The clock is the host's: core reads none.
 */
export interface RuleTimes {
  readonly now: () => number;
  /** Milliseconds by rule id, and by shared analysis as `(shared) <memo key>`. */
  readonly spent: Map<string, number>;
}

const SHARED = '(shared) ';

/** The name a shared analysis is listed under. */
export function sharedName(key: string): string {
  return SHARED + key;
}

/** Every millisecond counted so far. */
function counted(times: RuleTimes): number {
  let total = 0;
  for (const ms of times.spent.values()) total += ms;
  return total;
}

/**
 * Runs `work` and adds its time to `name`, less what timed work nested in it took (a shared
 * analysis it started is counted under its own name, however deep it nests).
 */
export function timed<T>(times: RuleTimes | undefined, name: string, work: () => T): T {
  if (!times) return work();
  const before = counted(times);
  const start = times.now();
  try {
    return work();
  } finally {
    const own = times.now() - start - (counted(times) - before);
    times.spent.set(name, (times.spent.get(name) ?? 0) + own);
  }
}
