import { formatPointer } from '../text/pointer';
import type { JsonPath } from '../text/types';
import type { InjectionAnalysis } from './analysis';
import type { PayloadHit } from './scan';

/**
 * Cases listed in one finding's data (the hover shows 12): the language server sends the data with
 * every diagnostic, and a payload of a tool that a thousand cases use is reported for each.
 * `usedByCount` / `labelledByCount` say how many there are when the list is cut.
 */
export const MAX_LISTED_CASES = 20;

/** The cases that use a payload, as finding data: at most MAX_LISTED_CASES, with the count when there are more. */
export function usedByData(users: readonly { id?: string; arm?: string }[]): Record<string, unknown> {
  const out: Record<string, unknown> = { usedBy: users.slice(0, MAX_LISTED_CASES).map((u) => ({ id: u.id ?? '', arm: u.arm ?? '' })) };
  if (users.length > MAX_LISTED_CASES) out.usedByCount = users.length;
  return out;
}

/** What the editor hover shows for a payload (plain data; the host escapes `decoded`). */
export function hitData(analysis: InjectionAnalysis, hit: PayloadHit): Record<string, unknown> {
  const labelledBy = [...new Set((analysis.labelsOf.get(hit) ?? []).map((l) => l.case.id ?? ''))];
  const data: Record<string, unknown> = {
    pointer: formatPointer(hit.path),
    score: hit.verdict.score,
    signals: hit.verdict.signals.map((s) => ({ id: s.id, explanation: s.explanation })),
    ...usedByData(analysis.usersOf(hit.tool)),
  };
  if (hit.verdict.decoded !== undefined) data.decoded = hit.verdict.decoded;
  if (labelledBy.length) data.labelledBy = labelledBy.slice(0, MAX_LISTED_CASES);
  if (labelledBy.length > MAX_LISTED_CASES) data.labelledByCount = labelledBy.length;
  return data;
}

/** Where a finding on a payload points: the string, or the key when the payload is an object key. */
export function hitAt(hit: { uri: string; root: number; path: JsonPath; key?: true }): { uri: string; root: number; path: JsonPath; part?: 'key' } {
  return hit.key ? { uri: hit.uri, root: hit.root, path: hit.path, part: 'key' } : { uri: hit.uri, root: hit.root, path: hit.path };
}
