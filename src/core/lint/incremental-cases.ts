import { pointsInto } from '../model/doc-keys';
import type { SuiteDocument } from '../model/document';
import type { CaseModel } from '../model/workspace';
import { locationSpan } from '../text/location';
import type { Span } from '../text/types';
import { compareDiagnostics, type LintDiagnostic } from './lint';

/**
 * Re-judging case by case for the rules of scopes `targets` and `lookup` (incremental.ts), whose
 * findings on a case follow from that case, the files it points into and (`lookup`) the keys that
 * relate it to other documents, and lie inside it. A document whose text stands (and, for
 * `lookup`, that no edited document's keys reach) is re-linted under them because files it points
 * into changed (a shared tool file edited): then only its cases that point into a changed file
 * are judged again, and its other cases keep their findings, which sit where they sat. In a suite
 * whose files all use one tool file, that was every case of every file for each edit of the tool
 * file.
 *
 * A finding that sits outside every case of such a document, or a new one outside the cases judged
 * again, is not a case's alone: the document is then judged whole (`joinByCase` says so). The
 * view a plan's rules read is `narrowed`'s (incremental.ts), given the plan.
 */

/** The documents judged by case, by URI; the others of a reach are judged whole. */
export type CasePlan = ReadonlyMap<string, ByCase>;

/** A document judged by case: its cases in order, which are judged again, and their spans once needed. */
export interface ByCase {
  doc: SuiteDocument;
  models: readonly CaseModel[];
  again: boolean[];
  spans?: Span[];
}

/**
 * Which retained documents a rule judges by case after a change: those not in `whole` (which holds
 * the documents whose text changed), each judging again its cases that point into `dirty`.
 * Undefined when that leaves out no case (nothing to gain over judging the documents whole).
 */
export function planByCase(
  byDoc: ReadonlyMap<string, readonly CaseModel[]>,
  reach: { retained: ReadonlySet<string> },
  dirty: ReadonlySet<string>,
  whole: ReadonlySet<string>,
  /** The documents judged by case in this run's other plans: what is judged again, and where cases sit, is theirs too. */
  known: Map<string, ByCase>,
): CasePlan | undefined {
  const plan = new Map<string, ByCase>();
  let left = 0;
  for (const uri of reach.retained) {
    const models = byDoc.get(uri);
    // A document without cases has none to keep: judged whole, as before.
    if (whole.has(uri) || !models?.length) continue;
    let d = known.get(uri);
    // A model is new only when a file its references name changed, so pointing into one says it all.
    if (!d) known.set(uri, (d = { doc: models[0].doc, models, again: models.map((c) => pointsInto(c, dirty)) }));
    for (const again of d.again) if (!again) left++;
    plan.set(uri, d);
  }
  return left === 0 ? undefined : plan;
}

/**
 * Where each case of a document sits, in order: from its start to the next case's (only
 * separators lie between: a comma, blanks, a JSONL line break), the last to its own end. Reading
 * every case to its end was a scan of every file a tool edit reached; where cases start, the
 * locator that placed their findings already knows.
 */
function spansOf(d: ByCase): Span[] {
  if (d.spans) return d.spans;
  const { doc, models } = d;
  const starts = models.map((c) => startOf(doc, c));
  const last = models.length ? locationSpan(doc, { uri: doc.uri, root: models[models.length - 1].root, path: models[models.length - 1].path }) : undefined;
  return (d.spans = starts.map((offset, i) => ({ offset, length: Math.max(0, (i + 1 < starts.length ? starts[i + 1] : last!.offset + last!.length) - offset) })));
}

/** Where a case's value starts: off the text for strict JSON, else from its tree. */
function startOf(doc: SuiteDocument, c: CaseModel): number {
  return doc.parsed.roots[c.root]?.startOf?.(c.path) ?? locationSpan(doc, { uri: doc.uri, root: c.root, path: c.path }).offset;
}

/** The case whose span holds the diagnostic's, by its place among spans sorted by offset; -1 when none does. */
function caseAt(spans: readonly Span[], d: LintDiagnostic): number {
  let lo = 0;
  let hi = spans.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid].offset <= d.offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found >= 0 && d.offset + d.length <= spans[found].offset + spans[found].length ? found : -1;
}

/**
 * A document's findings under a rule after a judging by case: the earlier ones of the cases not
 * judged again, and the new ones. Undefined when a finding is not a single case's: one outside
 * every case, or a new one outside the cases judged again (the document is then judged whole).
 */
export function joinByCase(d: ByCase, before: LintDiagnostic[] | undefined, fresh: readonly LintDiagnostic[] | undefined): LintDiagnostic[] | undefined {
  const out: LintDiagnostic[] = [];
  if (!before?.length && !fresh?.length) return out;
  const spans = spansOf(d);
  for (const x of before ?? []) {
    const i = caseAt(spans, x);
    if (i < 0) return undefined;
    if (!d.again[i]) out.push(x);
  }
  // Nothing new and nothing dropped: the earlier list itself, so that a host can skip it by identity.
  if (!fresh?.length && before && out.length === before.length) return before;
  for (const x of fresh ?? []) {
    const i = caseAt(spans, x);
    if (i < 0 || !d.again[i]) return undefined;
    out.push(x);
  }
  return out.sort(compareDiagnostics);
}
