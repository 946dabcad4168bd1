/**
 * Debounced, cancellable runs per group. Every new request bumps the group's generation; a run
 * checks its generation through `isCancelled`, so a stale run stops at core's next check and its
 * result is dropped rather than published over a newer one.
 */
export interface Scheduler<R> {
  /** Runs the group after `delayMs` of quiet; a later call restarts the wait. */
  schedule(group: string, delayMs: number): void;
  /** Runs the group now, cancelling any pending or running run; undefined when overtaken. */
  runNow(group: string): Promise<R | undefined>;
  /** Resolves when the group has no pending or running run. */
  idle(group: string): Promise<void>;
  cancelAll(): void;
}

export function createScheduler<R>(
  run: (group: string, isCancelled: () => boolean) => Promise<R | undefined>,
  onResult: (group: string, result: R) => void,
  onError: (group: string, error: unknown) => void,
): Scheduler<R> {
  const generation = new Map<string, number>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const running = new Map<string, Promise<unknown>>();
  const waiters = new Map<string, (() => void)[]>();

  const bump = (group: string): number => {
    const g = (generation.get(group) ?? 0) + 1;
    generation.set(group, g);
    const t = timers.get(group);
    if (t) clearTimeout(t);
    timers.delete(group);
    return g;
  };

  const settle = (group: string) => {
    if (timers.has(group) || running.has(group)) return;
    for (const w of waiters.get(group) ?? []) w();
    waiters.delete(group);
  };

  const start = async (group: string, gen: number): Promise<R | undefined> => {
    const isCancelled = () => generation.get(group) !== gen;
    const p = run(group, isCancelled);
    running.set(group, p);
    try {
      const result = await p;
      if (result === undefined || isCancelled()) return undefined;
      onResult(group, result);
      return result;
    } catch (e) {
      onError(group, e);
      return undefined;
    } finally {
      if (running.get(group) === p) running.delete(group);
      settle(group);
    }
  };

  return {
    schedule(group, delayMs) {
      const gen = bump(group);
      timers.set(
        group,
        setTimeout(() => {
          timers.delete(group);
          void start(group, gen);
        }, delayMs),
      );
    },
    runNow(group) {
      return start(group, bump(group));
    },
    idle(group) {
      if (!timers.has(group) && !running.has(group)) return Promise.resolve();
      return new Promise((resolve) => {
        const list = waiters.get(group) ?? [];
        list.push(resolve);
        waiters.set(group, list);
      });
    },
    cancelAll() {
      for (const g of [...generation.keys()]) bump(g);
    },
  };
}
