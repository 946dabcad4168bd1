import type { LintDiagnostic } from './lint';

/**
 * Hints are findings that need no action (a labelled payload the detector confirms). People's
 * reports count them instead of listing them, by what they are: read from the finding's rule and
 * data, never its message. A kind not named here is counted under its rule id.
 */
export interface HintCount {
  /** Stable id of the kind: `labelled-payload`, or `rule:<id>`. */
  kind: string;
  count: number;
  /** "2,546 labelled payloads confirmed". */
  text: string;
}

interface HintKind {
  kind: string;
  one: string;
  many: string;
}

const KINDS: readonly { rule: string; when: (data: Record<string, unknown>) => boolean; kind: HintKind }[] = [
  {
    rule: 'injection-payload',
    when: (data) => Array.isArray(data.labelledBy) && data.labelledBy.length > 0,
    kind: { kind: 'labelled-payload', one: 'labelled payload confirmed', many: 'labelled payloads confirmed' },
  },
  {
    rule: 'injection-payload',
    when: (data) => data.label === 'trusted',
    kind: { kind: 'trusted-label', one: 'label trusted without confirmation', many: 'labels trusted without confirmation' },
  },
];

function kindOf(d: LintDiagnostic): HintKind {
  const data = d.data ?? {};
  if (isOutOfScope(d)) {
    const why = 'outside the scope the suite declares (`"scoring": "disjoint"`)';
    return { kind: `out-of-scope:${d.code}`, one: `\`${d.code}\` notice ${why}`, many: `\`${d.code}\` notices ${why}` };
  }
  for (const k of KINDS) if (k.rule === d.code && k.when(data)) return k.kind;
  return { kind: `rule:${d.code}`, one: `\`${d.code}\` hint`, many: `\`${d.code}\` hints` };
}

/**
 * A finding its suite's declared scope turned into a notice (FORMAT §5, `"scoring": "disjoint"`):
 * the same words on every pair of such a suite, and nothing to do while its arms stay apart.
 */
export function isOutOfScope(d: LintDiagnostic): boolean {
  return d.data?.scope === 'scoring-disjoint' && (d.severity === 'info' || d.severity === 'hint');
}

/** 2546 → "2,546": counts people read. */
export function formatCount(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The hints among the diagnostics, counted by kind: the largest count first, then by kind. With
 * `notices`, the out-of-scope notices (isOutOfScope) too, which a person's listing counts as well.
 */
export function countHints(diagnostics: Iterable<LintDiagnostic>, notices = false): HintCount[] {
  const counts = new Map<string, { kind: HintKind; count: number }>();
  for (const d of diagnostics) {
    if (d.severity !== 'hint' && !(notices && isOutOfScope(d))) continue;
    const k = kindOf(d);
    const entry = counts.get(k.kind);
    if (entry) entry.count++;
    else counts.set(k.kind, { kind: k, count: 1 });
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count || (a.kind.kind < b.kind.kind ? -1 : 1))
    .map(({ kind, count }) => ({ kind: kind.kind, count, text: `${formatCount(count)} ${count === 1 ? kind.one : kind.many}` }));
}

/**
 * The one line that stands for the hints a report leaves out, naming how to see them:
 * "2,546 labelled payloads confirmed; 3 `signature-overlap` hints — `--hints` lists them".
 */
export function hintSummaryLine(counts: readonly HintCount[], how: string): string | undefined {
  if (counts.length === 0) return undefined;
  const total = counts.reduce((n, c) => n + c.count, 0);
  return `${counts.map((c) => c.text).join('; ')} — ${how} ${total === 1 ? 'lists it' : 'lists them'}`;
}
