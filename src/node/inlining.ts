import { setFlagsFromString } from 'node:v8';

/**
 * Gives V8's optimiser a tenth of its usual inlining budget (100 bytes of bytecode inlined into a
 * function it optimises, not 920). The budget suits programs that run hot for minutes; a lint is a
 * burst of a second or two, whose optimised compiles came late, large, and competing with the lint
 * and the collector for the machine's cores. Measured (docs/performance.md, "Twenty-second pass"):
 * CLI lints of 10,000 cases 7–10 % sooner and of 100,000 up to 15 %; the language server's first
 * lint of a 10,000-case folder ~8 % sooner on average (noisy), its edits as fast as before.
 *
 * Call it before the code it is for runs hot. A value given on Node's command line stands, and a
 * runtime whose `node:v8` will not take the flag (another engine) runs at its own speed.
 */
export function useShortRunInlining(): void {
  if (process.execArgv.some((a) => a.startsWith('--max-inlined-bytecode-size-cumulative') || a.startsWith('--max_inlined_bytecode_size_cumulative'))) return;
  try {
    setFlagsFromString('--max-inlined-bytecode-size-cumulative=100');
  } catch {
    // The flag only buys speed.
  }
}
