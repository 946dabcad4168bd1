import type { SuiteDocument } from '../model/document';
import type { CaseModel } from '../model/workspace';
import { sameItems } from '../text/multimap';
import { markLasting } from '../text/location';
import type { Report, RuleContext } from './types';

/** What a case's findings were, with where the case sat when they were made (their paths name it). */
interface KeptFindings {
  uri: string;
  root: number;
  path: readonly (string | number)[];
  reports: readonly Report[];
  /** The document a fix among them was made on (its edits are computed on that text). */
  fixedOn?: SuiteDocument;
}

/**
 * The document the fixes of `reports` were made on, if any has one. A case keeps its value and its
 * model through an edit elsewhere in its file, but a fix is made on one version of the document
 * (text/fix.ts, `lazyDocumentFix`): kept findings with a fix are given again only on that version.
 */
function fixedOn(reports: readonly Report[], c: CaseModel): SuiteDocument | undefined {
  return reports.some((r) => r.fixes !== undefined && r.fixes.length > 0) ? c.doc : undefined;
}

/** A case judged to have no finding: wherever it sits, it still has none. */
const NONE = 0;

/** Whether kept findings fit the case's document as it is: any, unless a fix among them was made on another version. */
function fits(kept: { fixedOn?: SuiteDocument }, c: CaseModel): boolean {
  return !kept.fixedOn || kept.fixedOn === c.doc;
}

/** Judges `c` afresh: its findings are reported, marked as kept for the next run, and returned with the document a fix among them was made on. */
function judgeNow(ctx: Pick<RuleContext, 'report'>, c: CaseModel, judge: (report: (r: Report) => void) => void): { reports: readonly Report[]; fixedOn?: SuiteDocument } {
  const reports: Report[] = [];
  judge((r) => void reports.push(r));
  markLasting(reports);
  for (const r of reports) ctx.report(r);
  return { reports, fixedOn: fixedOn(reports, c) };
}

/**
 * The findings of a rule that reads nothing but the case's own value, kept per value. The editor
 * re-judges every case of an edited file, and of the files whose cases use an edited tool file,
 * though a case whose text did not change keeps its value object (text/unchanged.ts): such a case
 * gives its findings again, as long as it sits where they point (a case inserted above it moves
 * it, and its findings' paths with it). A case without findings needs no place.
 */
export class KeptByCase {
  private readonly kept = new WeakMap<object, KeptFindings | typeof NONE>();

  /** Reports `c`'s findings: those kept for its value, or what `judge` reports (then kept). */
  report(ctx: Pick<RuleContext, 'report' | 'remember'>, c: CaseModel, judge: (report: (r: Report) => void) => void): void {
    // A run made once keeps nothing: it would only pay for the keeping.
    if (!ctx.remember) return judge(ctx.report);
    const hit = this.kept.get(c.value);
    if (hit === NONE) return;
    if (hit && hit.uri === c.doc.uri && hit.root === c.root && sameItems(hit.path, c.path) && fits(hit, c)) {
      for (const r of hit.reports) ctx.report(r);
      return;
    }
    const now = judgeNow(ctx, c, judge);
    this.kept.set(c.value, now.reports.length === 0 ? NONE : { uri: c.doc.uri, root: c.root, path: c.path, ...now });
  }
}

/** What a case's findings were, with what they read besides the case's model. */
interface KeptForModel {
  also: readonly unknown[];
  reports: readonly Report[];
  fixedOn?: SuiteDocument;
}

/**
 * The findings of a rule that reads a case's model — its value and place, the tool models its
 * references resolve to, its environment — and nothing else but what `also` names (the labels it
 * read, say), kept per model. The index hands a case the same model while all of that resolves as
 * before (model/workspace.ts, `modelsOf`): an edit of a tool file re-judges only the cases whose
 * tools it changed, not every case of every file that uses the file. What `also` lists is compared
 * item by item, by identity: list objects that are new whenever what the rule read of them changed.
 */
export class KeptByModel {
  private readonly kept = new WeakMap<CaseModel, KeptForModel>();

  /** Reports `c`'s findings: those kept for its model and `also`, or what `judge` reports (then kept). */
  report(ctx: Pick<RuleContext, 'report' | 'remember'>, c: CaseModel, also: () => readonly unknown[], judge: (report: (r: Report) => void) => void): void {
    if (!ctx.remember) return judge(ctx.report);
    const hit = this.kept.get(c);
    const read = also();
    if (hit && sameItems(hit.also, read) && fits(hit, c)) {
      for (const r of hit.reports) ctx.report(r);
      return;
    }
    this.kept.set(c, { also: read, ...judgeNow(ctx, c, judge) });
  }
}
