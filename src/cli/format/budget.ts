import type { LintDiagnostic } from '../../core';
import { plural, type FormatContext } from './context';

/**
 * Machine formats stay within OUTPUT_FACTOR times the input the run read, plus OUTPUT_ALLOWANCE for
 * what does not grow with the findings (SARIF's rule table is about 100 KB). Related locations are
 * what multiplies a report (each `duplicate-id` finding links 20 other cases), so they go first:
 * every finding keeps at most 10, then 5, 2, 1, none. Only if the findings alone are still too
 * much are whole findings left out, the least severe first. Either way the report and standard
 * error say what was left out; the exit status still counts every finding.
 */
export const OUTPUT_FACTOR = 60;
export const OUTPUT_ALLOWANCE = 256 * 1024;
const RELATED_CAPS = [Infinity, 10, 5, 2, 1, 0];

/** One finding as the budget sees it: its rank (lower is kept first) and its size in the output. */
export interface Sized {
  rank: number;
  /** Characters the finding takes without its related locations. */
  base: number;
  /** Characters each related location adds, in order. */
  related: readonly number[];
}

export interface Fit {
  /** Per finding, whether it is written. */
  keep: boolean[];
  /** Related locations each written finding keeps at most (Infinity: all). */
  relatedCap: number;
  findingsLeftOut: number;
  relatedLeftOut: number;
}

/** The characters a report of this run may take, or Infinity when the context does not say what was read. */
export function outputBudget(ctx: FormatContext): number {
  return ctx.inputSize === undefined ? Infinity : OUTPUT_FACTOR * ctx.inputSize + OUTPUT_ALLOWANCE;
}

/**
 * Characters of a report held before it is written. Past this the rendering only measures the
 * report and then renders it a second time as it is written: a report of 100,000 files is 30 MB
 * of text, held twice over while it was collected, and the peak of the whole run. Held pieces
 * outlive the young generation and stay in the heap as garbage until a full collection, which the
 * end of a lint rarely sees: 16 MB held was 20 MB of the rich 100k's peak. A 10k lint's report
 * (2 MB) is still held and written once.
 */
const HOLD = 4 << 20;

/**
 * The same for a report written in pieces, as a sequence to write as it comes. Whether the report
 * fits is known before its first piece is handed out, since nothing written can be taken back.
 * The whole rendering stops at the first piece past the budget: a hostile suite's findings may come
 * to gigabytes of text, which must never be held. `render` must write the same text each time.
 */
export function* piecesWithinBudget(ctx: FormatContext, render: (ctx: FormatContext) => Iterable<string>, hold = HOLD): Generator<string> {
  const budget = outputBudget(ctx);
  const whole = { ...ctx, inputSize: undefined };
  let held: string[] | undefined = [];
  let length = 0;
  for (const piece of render(whole)) {
    length += piece.length;
    if (length > budget) {
      yield* render(ctx);
      return;
    }
    if (held && length > hold) held = undefined;
    held?.push(piece);
  }
  yield* held ?? render(whole);
}

/**
 * `piecesWithinBudget` for a report written from one value (a JSON report, a SARIF log, GitLab's
 * issues): the value of the whole report is made once, whether the report is held or measured and
 * then written again; only a report past the budget is made anew, fitted.
 */
export function valuePiecesWithinBudget<V>(ctx: FormatContext, make: (ctx: FormatContext) => V, write: (value: V) => Iterable<string>, hold?: number): Iterable<string> {
  let whole: V | undefined;
  return piecesWithinBudget(ctx, (c) => write(c.inputSize === undefined ? (whole ??= make(c)) : make(c)), hold);
}

const SEVERITY_RANK: Record<LintDiagnostic['severity'], number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Findings that count are kept before suppressed ones, the more severe first. */
export function rankOf(d: LintDiagnostic): number {
  return SEVERITY_RANK[d.severity] + (d.suppressions ? 4 : 0);
}

function sizeWith(item: Sized, cap: number): number {
  let n = item.base;
  const k = Math.min(cap, item.related.length);
  for (let j = 0; j < k; j++) n += item.related[j];
  return n;
}

/** Chooses what a report of `items` writes so that they take at most `room` characters. */
export function fitToBudget(items: readonly Sized[], room: number): Fit {
  const all = items.map(() => true);
  if (room === Infinity) return { keep: all, relatedCap: Infinity, findingsLeftOut: 0, relatedLeftOut: 0 };
  const relatedTotal = items.reduce((n, it) => n + it.related.length, 0);
  for (const cap of RELATED_CAPS) {
    let total = 0;
    for (const it of items) total += sizeWith(it, cap);
    if (total <= room) {
      const kept = items.reduce((n, it) => n + Math.min(cap, it.related.length), 0);
      return { keep: all, relatedCap: cap, findingsLeftOut: 0, relatedLeftOut: relatedTotal - kept };
    }
  }
  // Without related locations and still too large: the most severe findings, in their order, while they fit.
  const order = items.map((_, i) => i).sort((a, b) => items[a].rank - items[b].rank || a - b);
  const keep = items.map(() => false);
  let used = 0;
  let left = 0;
  for (const i of order) {
    if (used + items[i].base <= room) {
      keep[i] = true;
      used += items[i].base;
    } else left++;
  }
  const relatedOfKept = items.reduce((n, it, i) => n + (keep[i] ? it.related.length : 0), 0);
  return { keep, relatedCap: 0, findingsLeftOut: left, relatedLeftOut: relatedOfKept };
}

/** What was left out, for standard error and the report itself; undefined when nothing was. */
export function sizeNotice(fit: Fit): string | undefined {
  const parts: string[] = [];
  if (fit.findingsLeftOut) parts.push(`${plural(fit.findingsLeftOut, 'finding')} (the least severe)`);
  if (fit.relatedLeftOut) parts.push(`${plural(fit.relatedLeftOut, 'related location')} (each finding keeps ${fit.relatedCap === 0 ? 'none' : `at most ${fit.relatedCap}`})`);
  if (!parts.length) return undefined;
  return `${parts.join(' and ')} left out: a machine-readable report stays within ${OUTPUT_FACTOR}× the size of its input (plus ${OUTPUT_ALLOWANCE / 1024} KB)`;
}

/** The length of `JSON.stringify(value, null, 2)` placed `depth` levels deep in a pretty-printed document, with its separator. */
export function prettySize(value: unknown, depth: number): number {
  const text = JSON.stringify(value, null, 2);
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  return text.length + lines * depth * 2 + 2;
}
