/**
 * Colour only where a person reads it: on a terminal, unless NO_COLOR is set (no-color.org);
 * FORCE_COLOR wins over both (CI logs that render ANSI), and FORCE_COLOR=0 turns colour off.
 */
export function useColor(env: Record<string, string | undefined>, isTTY: boolean): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false', 'no'].includes(force.toLowerCase());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}
