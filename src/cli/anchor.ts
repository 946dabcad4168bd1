import { isJsonObject, rootPathAt, type JsonPath, type LintDiagnostic, type SuiteDocument } from '../core';

/**
 * Where a finding sits in its file without naming a line: the case it is in (by instance_id) and
 * the JSON path of the value from that case, or from the file's root outside cases. Moving a case
 * within its file, or editing the cases around it, leaves the anchor as it was; SARIF's
 * `partialFingerprints` hash it, so GitHub keeps tracking the same alert.
 */
export interface FindingAnchor {
  /** The enclosing case's instance_id, when the finding is inside a case that has one. */
  caseId?: string;
  path: JsonPath;
  /** Only when nothing better is known (a value that does not parse): the finding's line. */
  line?: number;
}

export function findingAnchor(doc: SuiteDocument | undefined, d: LintDiagnostic): FindingAnchor {
  const roots = doc?.parsed.roots ?? [];
  // JSONL has one root per line, in line order: the finding's is the last that starts on or before its line.
  let lo = 0;
  let hi = roots.length - 1;
  let index = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (roots[mid].line <= d.range.start.line) {
      index = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  const root = roots[index];
  // Strict JSON answers off the text: a tree built per file for its findings' anchors was most of
  // what SARIF added to a lint (ASB: 8,000 findings in 13 MB).
  const path = root && !root.broken ? rootPathAt(root, d.offset) : undefined;
  if (!root || !path) return { path: [], line: d.range.start.line };
  const value = root.value;
  if (isJsonObject(value) && Array.isArray(value.cases) && path[0] === 'cases' && typeof path[1] === 'number') {
    const c = value.cases[path[1]];
    const id = isJsonObject(c) && typeof c.instance_id === 'string' ? c.instance_id : undefined;
    if (id !== undefined) return { caseId: id, path: path.slice(2) };
  }
  if (isJsonObject(value) && typeof value.instance_id === 'string' && doc?.kind !== 'tools') return { caseId: value.instance_id, path };
  // A JSONL line without an instance_id: its place among the lines is all that tells it apart.
  return roots.length > 1 ? { path: [index, ...path] } : { path };
}
