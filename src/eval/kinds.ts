/**
 * Misses and false alarms grouped by kind: the field a string sits in and the signals the detector
 * raised on it (ids only, never the text), so a report names what to fix without quoting a corpus.
 */
import type { Signal } from '../core/injection';

export interface Judged {
  field: string;
  score: number;
  signals: readonly Signal[];
}

export interface Kind {
  key: string;
  count: number;
  /** Mean score of the strings of this kind. */
  meanScore: number;
}

/** The strongest signals of a verdict, as a kind: `none` when it raised nothing. */
export function signalKind(signals: readonly Signal[], top = 2): string {
  if (!signals.length) return 'none';
  return [...signals]
    .sort((a, b) => b.weight - a.weight || a.id.localeCompare(b.id))
    .slice(0, top)
    .map((s) => s.id)
    .join('+');
}

/** Groups judged strings by field and signal kind, most frequent first. */
export function kinds(items: readonly Judged[], limit: number): Kind[] {
  const by = new Map<string, { count: number; total: number }>();
  for (const it of items) {
    const key = `${it.field} · ${signalKind(it.signals)}`;
    const k = by.get(key) ?? { count: 0, total: 0 };
    k.count++;
    k.total += it.score;
    by.set(key, k);
  }
  return [...by]
    .map(([key, k]) => ({ key, count: k.count, meanScore: Math.round((100 * k.total) / k.count) / 100 }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key))
    .slice(0, limit);
}
