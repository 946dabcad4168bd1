import { formatPointer } from '../text/pointer';
import type { InjectionAnalysis } from './analysis';
import type { PayloadHit } from './scan';

/** What the editor hover shows for a payload (plain data; the host escapes `decoded`). */
export function hitData(analysis: InjectionAnalysis, hit: PayloadHit): Record<string, unknown> {
  const labelledBy = (analysis.labelsOf.get(hit) ?? []).map((l) => l.case.id ?? '');
  const data: Record<string, unknown> = {
    pointer: formatPointer(hit.path),
    score: hit.verdict.score,
    signals: hit.verdict.signals.map((s) => ({ id: s.id, explanation: s.explanation })),
    usedBy: analysis.usersOf(hit.tool).map((u) => ({ id: u.id ?? '', arm: u.arm ?? '' })),
  };
  if (hit.verdict.decoded !== undefined) data.decoded = hit.verdict.decoded;
  if (labelledBy.length) data.labelledBy = [...new Set(labelledBy)];
  return data;
}
