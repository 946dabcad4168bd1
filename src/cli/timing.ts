import type { RuleTimes } from '../core';

/**
 * `TIMING` as ESLint reads it: set and not empty turns rule timing on; `all` lists every row, a
 * number above 10 that many, anything else the 10 slowest.
 */
export function timingRows(value: string | undefined): number | undefined {
  if (!value) return undefined;
  if (value.toLowerCase() === 'all') return Infinity;
  const n = Number.parseInt(value, 10);
  return n > 10 ? n : 10;
}

/** A clock and an empty tally, for `LintOptions.times`. */
export function startTimes(): RuleTimes {
  return { now: () => performance.now(), spent: new Map() };
}

/**
 * ESLint's timing table (rule, milliseconds, share of all rule time), slowest first, for standard
 * error: standard output may be a machine format. `why`: what to say when no rule ran.
 */
export function timingTable(times: RuleTimes, rows: number, why?: string): string {
  const all = [...times.spent].sort((a, b) => b[1] - a[1]);
  if (all.length === 0) return `no rule ran${why ? ` (${why})` : ''}\n`;
  const total = all.reduce((sum, [, ms]) => sum + ms, 0);
  const shown = all.slice(0, rows).map(([name, ms]) => [name, ms.toFixed(3), `${total > 0 ? ((100 * ms) / total).toFixed(1) : '0.0'}%`]);
  const head = ['Rule', 'Time (ms)', 'Relative'];
  const widths = head.map((h, i) => Math.max(h.length, ...shown.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
  // ESLint's rule line: each column's width and the spaces around its bars, the colon on the side it aligns to.
  const rule = widths.map((w, i) => (i === 0 ? ':' + '-'.repeat(w) : '-'.repeat(i === widths.length - 1 ? w : w + 1) + ':')).join('|');
  return [line(head), rule, ...shown.map(line)].join('\n') + '\n';
}
