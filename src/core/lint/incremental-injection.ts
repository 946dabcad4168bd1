import { sameInjection, type KeysOf, type Links } from '../model/doc-keys';
import { analyseInjection, injectionAnalysis, type InjectionAnalysis } from '../injection/analysis';
import type { PayloadHit } from '../injection/scan';
import { memoOf } from './lint';
import type { ToolModel } from '../model/tools';
import { normalizeUri } from '../model/uri';
import { hasInlineTool, withLazyGroups, inIndexOrder, inlineToolDocs, type CaseModel, type WorkspaceIndex } from '../model/workspace';

/**
 * How the three injection rules (injection-payload, benign-contamination, stale-injection-field)
 * are narrowed. They read the detector's analysis, whose scans compare each tool's text with every
 * tool name of the workspace, so they see every tool file and every inline tool; what is narrowed
 * is the cases (labels, tool users) and the documents whose findings are recomputed.
 *
 * A document's injection findings depend on:
 * - a tool file's (or inline tool's) payloads: its hits, the labels that point into it and the
 *   cases that use its tools (their ids and arms are shown, one adversarial user gets a fix);
 * - a case file's: its own cases and labels, and the hits, labels and users of the tool files it
 *   points at (a benign user's finding lists the tool's other users and labellers).
 * So a changed file (or one whose hits changed, say after a tool was renamed elsewhere) re-lints
 * itself, the files that point at it, the files it points at, and their other users.
 */
export interface InjectionRun {
  /** Every tool file and inline tool; the cases of the read documents. */
  view: WorkspaceIndex;
  /** Holds the view's analysis, shared by the three rules. */
  memo: Map<string, unknown>;
  retained: Set<string>;
  hits: ReadonlyMap<ToolModel, readonly PayloadHit[]>;
}

/** The hits per tool of an analysis run over the whole index with this memo (computed once). */
export function injectionHits(index: WorkspaceIndex, memo: Map<string, unknown>): ReadonlyMap<ToolModel, readonly PayloadHit[]> {
  return injectionAnalysis({ index, memo: memoOf(memo) }).hitsByTool;
}

const inlineCases = new WeakMap<readonly CaseModel[], CaseModel[]>();

/** The cases of a document that carry inline tools: their names are part of every scan. */
function withInlineTools(cases: readonly CaseModel[]): CaseModel[] {
  let out = inlineCases.get(cases);
  if (!out) inlineCases.set(cases, (out = cases.filter(hasInlineTool)));
  return out;
}

function view(index: WorkspaceIndex, byDoc: ReadonlyMap<string, readonly CaseModel[]>, read: ReadonlySet<string>): WorkspaceIndex {
  const cases: CaseModel[] = [];
  // In the index's order, so labels, users and hits come in the order of a full run. Only the read
  // documents and those with inline tools are visited when the index says which those are: asking
  // every document cost milliseconds per edit in a workspace of one case per file.
  const inline = inlineToolDocs(index);
  const uris = inline ? inIndexOrder(index, new Set([...read, ...inline])) : index.docs.keys();
  for (const uri of uris) {
    const models = byDoc.get(uri);
    if (models) for (const c of read.has(uri) ? models : withInlineTools(models)) cases.push(c);
  }
  return withLazyGroups({ ...index, cases }, cases);
}

export function injectionNeighbourhood(
  index: WorkspaceIndex,
  byDoc: ReadonlyMap<string, readonly CaseModel[]>,
  keys: KeysOf,
  oldKeys: KeysOf,
  changed: ReadonlySet<string>,
  dirtyTargets: ReadonlySet<string>,
  at: Links,
  previousHits: ReadonlyMap<ToolModel, readonly PayloadHit[]>,
): InjectionRun {
  const seeds = new Set<string>([...changed, ...dirtyTargets].map(normalizeUri));
  for (;;) {
    const retained = new Set<string>();
    const retain = (uri: string) => void (index.docs.has(uri) && retained.add(uri));
    for (const s of seeds) {
      const uri = at.docOf(s) ?? s;
      retain(uri);
      at.usersOf(s, retain);
      const now = keys.get(uri);
      const before = changed.has(uri) ? oldKeys.get(uri) : undefined;
      // Other users of the files it points at read only what `injection` holds of it (their ids,
      // arms, labels and references): when that stayed, their findings stay. The files pointed at
      // are still re-linted: their fixes edit this document.
      const othersAlike = before !== undefined && now !== undefined && sameInjection(before, now);
      for (const k of [now, before]) {
        for (const t of k?.targets ?? []) {
          const target = at.docOf(t);
          if (target) retain(target);
          // A case's own surfaces and overrides count for it alone: an edit of one user of a
          // shared environment re-lints the environment's findings, not its other users'.
          if (!othersAlike && !k!.environmentsOnly.has(t)) at.usersOf(t, retain);
        }
      }
    }
    const read = new Set(retained);
    const see = (uri: string) => void read.add(uri);
    for (const uri of retained) {
      at.usersOf(normalizeUri(uri), see);
      for (const t of keys.get(uri)?.targets ?? []) at.usersOf(t, see);
    }

    const narrowed = view(index, byDoc, read);
    const memo = new Map<string, unknown>();
    // Own surfaces are scanned only where findings are recomputed: the others' cases are read as
    // users, holders and labellers of the files around the change, which every suite file may share.
    const analysis = analyseInjection(narrowed, (uri) => retained.has(uri));
    injectionAnalysis({ index: narrowed, memo: memoOf(memo) }, analysis);
    const hits = analysis.hitsByTool;
    // A tool whose scan came out differently (a name it mentions was renamed elsewhere) changes
    // the findings around its file as an edit of that file would: widen and look again.
    let widened = false;
    for (const [tool, list] of hits) {
      const file = normalizeUri(tool.uri);
      if (previousHits.get(tool) !== list && !seeds.has(file)) {
        seeds.add(file);
        widened = true;
      }
    }
    if (widened) continue;
    // The rules report every hit and label of the analysis they are given; only the retained
    // files' findings are kept. The analysis they share through the memo is swapped for one whose
    // lists hold just those (every lookup table stays whole), so they build no findings to drop.
    // Should the analysis stop being shared through the memo, the rules compute their own: slower, still exact.
    const own: InjectionAnalysis = {
      ...analysis,
      hits: analysis.hits.filter((h) => retained.has(h.uri)),
      surfaceHits: analysis.surfaceHits.filter((h) => retained.has(h.uri)),
      labels: analysis.labels.filter((l) => retained.has(l.case.doc.uri)),
    };
    for (const [key, value] of memo) if (value === analysis) memo.set(key, own);
    return { view: narrowed, memo, retained, hits };
  }
}
