import { hashText } from '../model/canonical';
import { escapeText } from '../text/escape';
import { displayPath } from '../model/uri';
import { SEVERITY_ORDER } from '../text/types';
import { factKeys, type LintDiagnostic } from './lint';

/** How much of another diagnostic's message a primary's related entry repeats. */
const MAX_ECHO = 160;

/**
 * One fact, one finding (docs/format.md): where one step, pattern or pair breaks several rules at
 * once, each case involved shows one finding. Rules mark what fact a finding states (`Finding.fact`,
 * naming its case); diagnostics of one case that state the same fact become a group. The primary —
 * the most severe, then the first in the file — carries related locations to the others; every
 * diagnostic of the group keeps its own rule and is marked with the group, so machine formats keep
 * them all and human formats show the primary alone. A fact stated once is left as it is.
 *
 * A case fact names its case by its place in the file the findings point into: the group id hashes
 * that file's path relative to `base` (the first workspace root) with it, so the same suite gives the
 * same groups in every checkout.
 *
 * The list is sorted (compareDiagnostics); diagnostics are never modified, grouped ones are copied.
 */
export function groupFacts(list: readonly LintDiagnostic[], base?: string): LintDiagnostic[] {
  let groups: Map<string, LintDiagnostic[]> | undefined;
  for (const d of list) {
    const fact = factKeys.get(d);
    if (fact === undefined) continue;
    const key = `${displayPath(d.uri, base)}\u0000${fact}`;
    groups ??= new Map();
    const g = groups.get(key);
    if (g) g.push(d);
    else groups.set(key, [d]);
  }
  if (!groups) return list as LintDiagnostic[];
  const copies = new Map<LintDiagnostic, LintDiagnostic>();
  for (const [key, members] of groups) {
    if (members.length < 2) continue;
    let primary = members[0];
    for (const m of members) if (SEVERITY_ORDER[m.severity] > SEVERITY_ORDER[primary.severity]) primary = m;
    const rules = [...new Set([primary.code, ...members.map((m) => m.code)])];
    const group = hashText(key);
    for (const m of members) {
      const copy: LintDiagnostic = { ...m, fact: { group, primary: m === primary, rules } };
      if (m === primary) {
        copy.related = [
          ...m.related,
          ...members.filter((o) => o !== primary).map((o) => ({ uri: o.uri, range: o.range, message: `also ${o.code}: ${escapeText(o.message, MAX_ECHO)}` })),
        ];
      }
      factKeys.set(copy, factKeys.get(m)!);
      copies.set(m, copy);
    }
  }
  return copies.size ? list.map((d) => copies.get(d) ?? d) : (list as LintDiagnostic[]);
}
