import { isPlainRubric, PLAIN_RUBRIC, rubricId, type Rubric } from '../model/canonical';
import { createDocument, type SuiteDocument } from '../model/document';
import { injectionHits, injectionNeighbourhood, type InjectionRun } from './incremental-injection';
import { joinByCase, planByCase, type ByCase, type CasePlan } from './incremental-cases';
import type { PayloadHit } from '../injection/scan';
import type { ToolModel } from '../model/tools';
import { docKeys, enter, KEY_KINDS, keyTable, kindOf, links, reenter, seedLinksOf, type DocKeys, type KeyKind, type KeysOf, type KeyTable, type Links } from '../model/doc-keys';
import { compareDiagnostics, knownRuleIds, placeFindings, rulesOffEverywhere, runRule, type LintDiagnostic, type LintOptions, type LintResult } from './lint';
import { ALL_RULES } from '../rules/index';
import type { Rule } from '../rules/types';
import { normalizeUri } from '../model/uri';
import { buildIndex, casesByDoc, changedSince, configDocuments, inIndexOrder, sameOrder, withLazyGroups, type CaseModel, type IndexOptions, type ToolFile, type WorkspaceIndex } from '../model/workspace';
import { eachText, pushTo, sameItems } from '../text/multimap';
import { applySuppressions } from './suppress';
import { groupFacts } from './facts';

/**
 * Incremental linting for hosts that lint the same workspace again and again (the language server).
 *
 * After a change, a rule is re-run only over the documents whose findings can have changed, and
 * every other document keeps its previous diagnostics. Which documents those are follows from the
 * keys that relate files to each other: instance ids (and the `paired_with`/`seed_id` that name
 * them), families, canonical signatures, and the files that tool references and `injection_field`
 * locations point into. A document changes → its old and new keys are dirty → every document that
 * holds a dirty key is re-linted ("retained" set), and the rule reads those documents plus every
 * document sharing a key with them ("read" set), so a group such as a family or a signature
 * collision is always seen whole.
 *
 * How a rule may be narrowed is a property of the rule, declared below; a rule not listed runs over
 * the whole workspace every time, so a new rule is always correct, only slower. The test
 * `incremental.test.ts` checks, after random edits, that the result equals a from-scratch lint.
 */

/**
 * - `file`: a document's findings depend on that document alone (and the config).
 * - `targets`: a case's findings depend on that case and the files it points into (tools,
 *   environments, label targets), never on another case file: re-run on the changed documents and
 *   the documents that point at a changed file, not on every holder of a shared key; of a document
 *   whose text stands, only the cases that point at a changed file (incremental-cases.ts).
 * - `keys`: findings relate documents only through the keys above; the rule sees a sub-workspace
 *   whose maps (families, ids, tool users) are built from the read set.
 * - `lookup`: like `keys`, but the rule iterates cases and looks things up in the full maps (it
 *   suggests names from every id, or follows seed chains across the workspace).
 * - `injection`: reads the detector's analysis; sees every tool, and the cases of the documents
 *   around the change (see incremental-injection.ts).
 * - `full`: always the whole workspace.
 */
/**
 * The rubric signatures are keyed under (FORMAT §3b). A case is scored under its config's rubric
 * or, outside any config, plain canonical equality, which every rubric's equality includes: so
 * when the configs declare one rubric besides plain, two cases equal under both of theirs are
 * equal under it, and keys made under it link every pair that may be equal. Two or more: `many`.
 * Only configs decide it, and a config change re-lints everything.
 */
function workspaceRubric(index: WorkspaceIndex): Rubric | 'many' {
  let one: Rubric | undefined;
  for (const doc of configDocuments(index)) {
    const r = index.configFor(doc.uri).rubric;
    if (isPlainRubric(r)) continue;
    if (!one) one = r;
    else if (rubricId(r) !== rubricId(one)) return 'many';
  }
  return one ?? PLAIN_RUBRIC;
}

export type RuleScope = 'file' | 'targets' | 'keys' | 'lookup' | 'injection' | 'full';

export const RULE_SCOPES: Readonly<Record<string, RuleScope>> = {
  'parse-error': 'file',
  schema: 'file',
  'missing-safe-completion': 'file',
  'unsatisfiable-tool-contract': 'file',
  'harness-isolation': 'file',
  'aggregate-contamination': 'file',
  'duplicate-id': 'keys',
  'signature-overlap': 'keys',
  'drift-endpoint-overlap': 'keys',
  'scope-contradiction': 'keys',
  'missing-arm': 'keys',
  'unsafe-safe-completion': 'file',
  'unsatisfiable-safe-completion': 'targets',
  'refusal-orthogonality': 'lookup',
  'unresolved-reference': 'lookup',
  'mutation-budget': 'lookup',
  'injection-payload': 'injection',
  'benign-contamination': 'injection',
  'stale-injection-field': 'injection',
  'unused-suppression': 'file',
  'unscored-attack': 'targets',
  'principal-confusion': 'injection',
  'vacuous-control': 'targets',
  'missing-payload': 'injection',
  'duplicate-case': 'keys',
};

/**
 * For a `keys` rule, the kinds of shared key (doc-keys.ts: `i` ids, `f` families, `s` signatures,
 * `d` what copies share) that relate its findings across documents: an edit re-lints the holders of
 * those kinds of its keys only. A family rule is not re-run over every holder of an edited case's
 * signature. A `keys` rule not listed is related by every kind.
 */
export const RULE_KEY_KINDS: Readonly<Record<string, KeyKind>> = {
  'duplicate-id': 'i',
  'signature-overlap': 's',
  'duplicate-case': 'd',
  'drift-endpoint-overlap': 'f',
  'scope-contradiction': 'f',
  'missing-arm': 'f',
};

/**
 * `keys` rules whose findings read nothing of the files a case points into (tools, environments,
 * label targets): only the case files' own values and the keys that relate them. When a shared
 * tool file changes, its users' cases are modelled again but their values are the same, so these
 * rules re-judge only the edited files and the holders of their keys: in a suite whose files all
 * use one tool file, the users were every document. A `keys` rule not listed re-judges the users
 * too, so a new one is always correct.
 */
export const BLIND_TO_TARGETS: ReadonlySet<string> = new Set(['duplicate-id', 'signature-overlap', 'duplicate-case', 'drift-endpoint-overlap', 'scope-contradiction', 'missing-arm']);

/** What the previous run left: enough to tell what changed and to reuse what did not. */
interface RunState {
  /** The index it linted (indexes are never modified once built). */
  index: WorkspaceIndex;
  /**
   * The index's map of ids as this run read it. An update hands the same map on while its keys and
   * their order stand (model/grouped.ts), so another map means ids came, went or moved.
   */
  ids: ReadonlyMap<string, unknown>;
  byDoc: ReadonlyMap<string, readonly CaseModel[]>;
  keys: Map<string, DocKeys>;
  /** `keys` turned around; updated in place after each run. */
  table: KeyTable;
  configPrint: string;
  /** The rules off in every document's config under that print (rulesOffEverywhere): not run. */
  off: ReadonlySet<string>;
  /** The workspace's rubric (workspaceRubric): a config change re-lints everything, so it stands until then. */
  rubric: Rubric | 'many';
  ruleIds: string;
  /** Diagnostics per rule, per document. */
  byRule: Map<string, ReadonlyMap<string, LintDiagnostic[]>>;
  byUri: Map<string, LintDiagnostic[]>;
  /** The documents' URIs, sorted. */
  uris: string[];
  /** Every tool's payload hits, when the injection rules ran. */
  hits?: ReadonlyMap<ToolModel, readonly PayloadHit[]>;
}

export interface IncrementalResult extends LintResult {
  /**
   * Every document's diagnostics, sorted, with an empty list for a clean one. A list equal to the
   * previous run's because nothing that reaches it changed is the very same array, so a host can
   * skip it by identity. Treat the lists as read-only.
   */
  byUri: ReadonlyMap<string, readonly LintDiagnostic[]>;
  /**
   * The documents whose lists may differ from the last run's; every other document's list is the
   * same array as then. Undefined when every list may differ (a first or full run).
   */
  changed: ReadonlySet<string> | undefined;
  /** The last run's `byUri`, which `changed` is relative to (undefined with it). */
  since: ReadonlyMap<string, readonly LintDiagnostic[]> | undefined;
}

export interface IncrementalLinter {
  /** Lints the index, re-running each rule only where the changes since the last call reach. */
  lint(index: WorkspaceIndex, options?: LintOptions): IncrementalResult;
  /** What the last run re-linted (for tests and the language status): `full` or the retained documents. */
  lastRun(): { full: boolean; retained: number; read: number };
}

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  if (a === b) return true;
  return a !== undefined && b !== undefined && sameItems(a, b);
}

/** The effective options of every folder that holds a document: a change here re-lints everything. */
function configPrint(index: WorkspaceIndex): string {
  const seen = new Map<string, string>();
  for (const uri of index.docs.keys()) {
    const dir = uri.slice(0, uri.lastIndexOf('/'));
    if (!seen.has(dir)) seen.set(dir, JSON.stringify(index.configFor(uri)));
  }
  return [...seen.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([d, c]) => `${d}=${c}`).join('\n');
}

/** The index as a rule sees it when it is narrowed to the documents in `read`. */
function narrowed(index: WorkspaceIndex, byDoc: ReadonlyMap<string, readonly CaseModel[]>, read: ReadonlySet<string>, scope: RuleScope, plan?: CasePlan): WorkspaceIndex {
  // A change that reaches every document (a suite in one file, a small workspace) reads the index
  // itself, whose groups are kept from edit to edit: a view would group every case again.
  if (!plan && readsEverything(index, read)) return index;
  const docs = new Map<string, SuiteDocument>();
  const cases: CaseModel[] = [];
  // In the index's order, so rules meet documents and cases as they do in a full run. A document
  // judged by case (incremental-cases.ts) gives the cases it judges again.
  for (const uri of inIndexOrder(index, read)) {
    docs.set(uri, index.docs.get(uri)!);
    const again = plan?.get(uri)?.again;
    const models = byDoc.get(uri) ?? [];
    for (let i = 0; i < models.length; i++) if (!again || again[i]) cases.push(models[i]);
  }
  const toolFiles = new Map<string, ToolFile>();
  for (const [uri, file] of index.toolFiles) if (read.has(file.doc.uri)) toolFiles.set(uri, file);
  // No rule of these scopes walks a group, and a lookup in a full map answers as a full run does.
  if (scope === 'lookup' || scope === 'targets') return { ...index, docs, cases, toolFiles };
  return withLazyGroups({ ...index, docs, cases, toolFiles }, cases);
}

function readsEverything(index: WorkspaceIndex, read: ReadonlySet<string>): boolean {
  if (read.size < index.docs.size) return false;
  for (const uri of index.docs.keys()) if (!read.has(uri)) return false;
  return true;
}

/** The result of a rule that is off everywhere: one empty map, the same from run to run. */
const NONE: ReadonlyMap<string, LintDiagnostic[]> = new Map();

/** Runs one rule and places its findings by document, exactly as lintIndex does. */
function runRuleByDoc(rule: Rule, ruleIndex: WorkspaceIndex, full: WorkspaceIndex, memo: Map<string, unknown>, keep: (uri: string) => boolean, ruleIds: readonly string[]): Map<string, LintDiagnostic[]> {
  const out = new Map<string, LintDiagnostic[]>();
  for (const d of placeFindings(runRule(rule, ruleIndex, memo, full, ruleIds, keep, true), full, keep, true)) pushTo(out, d.uri, d);
  return out;
}

/**
 * Runs a `targets` or `lookup` rule by case (incremental-cases.ts): the new findings, and those of
 * the documents judged by case joined with their earlier ones. Undefined when a finding there is
 * not one case's: the rule then judges whole documents.
 */
function runByCase(rule: Rule, plan: CasePlan, view: WorkspaceIndex, index: WorkspaceIndex, previous: ReadonlyMap<string, LintDiagnostic[]>, keep: ReadonlySet<string>, ruleIds: readonly string[]): { fresh: Map<string, LintDiagnostic[]>; joined: Map<string, LintDiagnostic[]> } | undefined {
  const fresh = runRuleByDoc(rule, view, index, new Map(), (uri) => keep.has(uri), ruleIds);
  const joined = new Map<string, LintDiagnostic[]>();
  for (const [uri, d] of plan) {
    const list = joinByCase(d, previous.get(uri), fresh.get(uri));
    if (!list) return undefined;
    joined.set(uri, list);
  }
  return { fresh, joined };
}

/** Which documents changed since the last run: by identity, or by how their references resolve. */
function changedDocs(index: WorkspaceIndex, byDoc: ReadonlyMap<string, readonly CaseModel[]>, state: RunState, known: ReadonlySet<string> | undefined): Set<string> {
  if (known) return new Set(known);
  const changed = new Set<string>();
  for (const [uri, doc] of index.docs) if (state.index.docs.get(uri) !== doc) changed.add(uri);
  for (const uri of state.index.docs.keys()) if (!index.docs.has(uri)) changed.add(uri);
  // A reference that resolves differently with its document unchanged (a target left the
  // workspace, became unreadable) gives the case a new model: that document counts as changed.
  for (const uri of index.docs.keys()) if (!changed.has(uri) && !sameList(byDoc.get(uri), state.byDoc.get(uri))) changed.add(uri);
  return changed;
}

/** The documents whose diagnostics can differ after a change, and what a narrowed rule reads to judge them. */
interface Reach {
  retained: Set<string>;
  /** The retained documents, the files they point into, and every holder of a key they hold of the kinds asked for: a family or a signature collision seen whole. */
  read: Set<string>;
}

interface Neighbourhood extends Reach {
  /** Related by the keys of one kind (`RULE_KEY_KINDS`), or by none ('', the scope `targets`); the fields above are for every kind. */
  by(kinds: KeyKind | '' | typeof ALL_KINDS): Reach;
  /** The files whose change reaches the documents that point at them. */
  dirtyTargets: Set<string>;
}

/**
 * Which documents a change reaches, and which a narrowed rule must read to judge them. Without
 * `followTargets`, for the rules blind to targets, the files pointing at a changed file are not
 * re-linted for it.
 */
function neighbourhood(index: WorkspaceIndex, state: RunState, keys: KeysOf, changed: ReadonlySet<string>, at: Links, followTargets = true): Neighbourhood {
  const { unchangedHoldersOf, usersOf, docOf, fresh } = at;
  const table = state.table;

  // Shared keys are symmetric: every holder of a dirty key is re-linted. Targets are not: a
  // changed file re-lints the files that point into it, but pointing at a file does not make
  // that file (or its other users) depend on the pointer. The dirty keys are the changed
  // documents' keys before and after, and the ids their seed chains reach (`chained`).
  const dirtyTargets = new Set<string>();
  const sides: DocKeys[] = [];
  for (const uri of changed) {
    for (const k of [keys.get(uri), state.keys.get(uri)]) {
      if (!k) continue;
      sides.push(k);
      dirtyTargets.add(k.self);
    }
    dirtyTargets.add(normalizeUri(uri));
  }
  const chained = new Set<string>();
  const isDirty = (key: string) => chained.has(key) || sides.some((k) => k.keys.has(key));
  const before = state.index.readErrors;
  for (const uri of new Set([...index.readErrors.keys(), ...before.keys()])) if (index.readErrors.get(uri) !== before.get(uri)) dirtyTargets.add(uri);

  // Seed chains: a loop is reported on every member, however far along the chain the edit was.
  // Links are followed through the current documents and the changed documents' previous ones.
  // Without a seed link anywhere there is no chain to follow.
  if (table.seedLinks.size || fresh.seedLinks.size) {
    const follow = (k: DocKeys | undefined, id: string, visit: (other: string) => void) => {
      if (!k) return;
      for (const other of seedLinksOf(k, id) ?? []) visit(other);
    };
    const linksOf = (id: string, visit: (other: string) => void) => {
      const fromDoc = (uri: string) => {
        follow(keys.get(uri), id, visit);
        if (changed.has(uri)) follow(state.keys.get(uri), id, visit);
      };
      eachText(table.seedLinks, id, fromDoc);
      // Visiting a document twice only visits ids already seen.
      eachText(fresh.seedLinks, id, fromDoc);
    };
    // A chain can start only at an id some seed link touches: a changed document's own links, or
    // another document's, which then holds the id as a key too (shared with the changed document,
    // or new to it). Its other ids, most of a thousand-case file's, touch no link at all.
    const seenIds = new Set<string>();
    for (const uri of changed) {
      const was = state.keys.get(uri);
      const now = keys.get(uri);
      for (const k of [was, now]) {
        for (const [id, seed] of k?.seeds ?? []) {
          seenIds.add(id);
          seenIds.add(seed);
        }
      }
      for (const key of at.sharedKeysOf(uri) ?? []) if (key.startsWith('i:')) seenIds.add(key.slice(2));
      if (now !== was) for (const key of now?.keys ?? []) if (key.startsWith('i:') && !was?.keys.has(key)) seenIds.add(key.slice(2));
    }
    const queue = [...seenIds];
    while (queue.length) {
      linksOf(queue.pop()!, (next) => {
        if (seenIds.has(next)) return;
        seenIds.add(next);
        if (!isDirty(`i:${next}`)) chained.add(`i:${next}`);
        queue.push(next);
      });
    }
  }

  // The changed documents and those pointing at a changed file are re-linted under every kind.
  // Every set below starts from these, so the key table is asked only about the other holders.
  const pointing = new Set(changed);
  if (followTargets) for (const t of dirtyTargets) usersOf(t, (uri) => void pointing.add(uri));
  // Every kind at once, in one pass (doc-keys.ts, `kindOf`). A document
  // is retained under a kind when it holds a dirty key of that kind, and reads the holders of its
  // keys of that kind. Each key's holders are asked once for all kinds, or twice when a document
  // retained under its kind meets it only after one that is not.
  const retained = new Set(pointing);
  const retainedBy = new Map<string, Set<string>>(KEY_KINDS.map((kind) => [kind, new Set(pointing)]));
  let own: Set<string> | undefined;
  const retain = (uri: string) => {
    retained.add(uri);
    own?.add(uri);
  };
  const retainHolders = (key: string) => {
    own = retainedBy.get(kindOf(key));
    unchangedHoldersOf(key, retain);
  };
  // Other documents hold a changed document's earlier key only if the table says it is shared,
  // and its new keys are asked about one by one: not each of its thousands of keys.
  // A document whose text stands keeps its keys object (docKeys), which holds nothing new.
  for (const uri of changed) {
    const was = state.keys.get(uri);
    const now = keys.get(uri);
    for (const key of at.sharedKeysOf(uri) ?? []) retainHolders(key);
    if (now !== was) for (const key of now?.keys ?? []) if (!was?.keys.has(key)) retainHolders(key);
  }
  for (const key of chained) retainHolders(key);
  const read = new Set(retained);
  const readBy = new Map<string, Set<string>>([...retainedBy].map(([kind, set]) => [kind, new Set(set)]));
  const pointingRead = new Set(pointing);
  // A dirty key's holders are retained already (under its kind too), so the read sets hold them:
  // a key is seen when it is dirty or in these. A changed document's keys are all dirty.
  const seen = new Set<string>();
  const seenByKind = new Set<string>();
  let kindRead: Set<string> | undefined;
  const readHolder = (holder: string) => {
    read.add(holder);
    kindRead?.add(holder);
  };
  for (const uri of retained) {
    const k = keys.get(uri);
    if (!k) continue;
    if (!changed.has(uri)) {
      for (const key of k.keys) {
        if (isDirty(key)) continue;
        const forAll = !seen.has(key);
        const kind = kindOf(key);
        kindRead = seenByKind.has(key) || !retainedBy.get(kind)?.has(uri) ? undefined : readBy.get(kind);
        if (!forAll && !kindRead) continue;
        seen.add(key);
        if (kindRead) seenByKind.add(key);
        unchangedHoldersOf(key, readHolder);
      }
    }
    for (const t of k.targets) {
      const target = docOf(t);
      if (!target) continue;
      read.add(target);
      if (pointing.has(uri)) pointingRead.add(target);
      for (const [kind, set] of retainedBy) if (set.has(uri)) readBy.get(kind)!.add(target);
    }
  }
  const all: Reach = { retained, read };
  const reaches = new Map<string, Reach>([[ALL_KINDS, all], ['', { retained: pointing, read: pointingRead }]]);
  for (const [kind, set] of retainedBy) {
    const r = { retained: set, read: readBy.get(kind)! };
    // A subset of the same size is the same set: the rules that read it share one view (in a suite
    // whose files all share families, say, a family rule gains nothing here).
    reaches.set(kind, r.retained.size === retained.size && r.read.size === read.size ? all : r);
  }
  return { ...all, by: (kinds) => reaches.get(kinds) ?? all, dirtyTargets };
}

/** Every kind of key: what a `lookup` rule, or a `keys` rule not in RULE_KEY_KINDS, is related by. */
const ALL_KINDS = '*';

/**
 * Rules whose findings suggest the workspace's closest ids (an id that names no case: the first
 * three of the ids nearest to it, in the workspace's order). Such a finding shares no key with the
 * ids it suggests, so when ids come, go or move, the documents that had one are re-judged too.
 */
const SUGGESTS_IDS = new Set(['unresolved-reference']);

/**
 * `reach` and the documents where the rule's last run suggested ids. Such a document is re-judged
 * whole, so it reads what a retained document reads: the files it points into too (a reference to
 * a tool its file lacks suggests that file's closest tool names).
 */
function withSuggestions(reach: Reach, earlier: ReadonlyMap<string, readonly LintDiagnostic[]>, index: WorkspaceIndex, keys: KeysOf, docOf: Links['docOf']): Reach {
  let widened: Reach | undefined;
  for (const [uri, ds] of earlier) {
    if (reach.retained.has(uri) || !index.docs.has(uri) || !ds.some((d) => d.data?.problem === 'missing-case')) continue;
    widened ??= { retained: new Set(reach.retained), read: new Set(reach.read) };
    widened.retained.add(uri);
    widened.read.add(uri);
    for (const t of keys.get(uri)?.targets ?? []) {
      const target = docOf(t);
      if (target) widened.read.add(target);
    }
  }
  return widened ?? reach;
}

export function createIncrementalLinter(): IncrementalLinter {
  let state: RunState | undefined;
  let last = { full: true, retained: 0, read: 0 };

  return {
    lastRun: () => last,
    lint(index, options = {}) {
      const rules = options.rules ?? ALL_RULES;
      const ruleIds = rules.map((r) => r.meta.id).join(',');
      const knownIds = knownRuleIds(rules);
      const ran = options.rules ? new Set(options.rules.map((r) => r.meta.id)) : undefined;
      const byDoc = casesByDoc(index);
      // An index updated from the last one shares its config resolution and its files.
      const known = state ? changedSince(index, state.index) : undefined;
      const print = state && known && index.configFor === state.index.configFor ? state.configPrint : configPrint(index);

      // An index built afresh may hold the documents in another order, which findings that name
      // cases in the workspace's order read (the first of two equal ids, the closest ids suggested).
      let full = !state || state.ruleIds !== ruleIds || state.configPrint !== print || (!known && !sameOrder(index.docs, state.index.docs));
      // The print names every folder's config, so the same print turns off the same rules.
      const off = state && !full ? state.off : rulesOffEverywhere(index, rules);
      const changed = state && !full ? changedDocs(index, byDoc, state, known) : new Set<string>();
      for (const uri of changed) {
        const kind = (index.docs.get(uri) ?? state?.index.docs.get(uri))?.kind;
        // Options and the harness reach every file (severities, budgets, the score gates).
        if (kind === 'config' || kind === 'harness') full = true;
      }

      // The changed documents' keys over the last run's: copying a map of every document per edit
      // cost milliseconds in a workspace of one case per file. The last map takes them in place
      // once the run can no longer be cancelled.
      const rubric = state && !full ? state.rubric : workspaceRubric(index);
      // Under several rubrics signatures keep their plain keys, and signature-overlap reads everything.
      const keyRubric = rubric === 'many' ? PLAIN_RUBRIC : rubric;
      let keys: KeysOf;
      let allKeys: Map<string, DocKeys> | undefined;
      const changedKeys = new Map<string, DocKeys | undefined>();
      if (state && !full && known) {
        for (const uri of changed) {
          const doc = index.docs.get(uri);
          changedKeys.set(uri, doc ? docKeys(doc, byDoc.get(uri) ?? [], keyRubric) : undefined);
        }
        const under = state.keys;
        keys = { get: (uri: string) => (changedKeys.has(uri) ? changedKeys.get(uri) : under.get(uri)) };
      } else {
        allKeys = new Map();
        for (const [uri, doc] of index.docs) allKeys.set(uri, docKeys(doc, byDoc.get(uri) ?? [], keyRubric));
        keys = allKeys;
      }

      // Filled in by the neighbourhood below; a full run reads no set.
      const at = state && !full ? links(state.table, keys, changed, (uri) => index.docs.has(uri)) : undefined;
      const near = state && at ? neighbourhood(index, state, keys, changed, at) : undefined;
      // The documents whose text changed: the others in `changed` were only modelled again (their
      // references resolve into a changed file), which no per-file rule reads.
      let edits: Set<string> | undefined;
      const edited = (): Set<string> => {
        if (edits) return edits;
        edits = new Set<string>();
        for (const uri of changed) if (index.docs.get(uri) !== state!.index.docs.get(uri)) edits.add(uri);
        return edits;
      };
      // For the rules blind to targets: the neighbourhood of the edited documents alone.
      let blind: Neighbourhood | undefined;
      const blindNear = (): Neighbourhood => {
        if (blind) return blind;
        const from = edited();
        blind = from.size === changed.size ? near! : neighbourhood(index, state!, keys, from, links(state!.table, keys, from, (uri) => index.docs.has(uri)), false);
        return blind;
      };
      const retained = near?.retained ?? new Set<string>();
      const dirtyTargets = near?.dirtyTargets ?? new Set<string>();

      const memo = new Map<string, unknown>();
      const byRule = new Map<string, ReadonlyMap<string, LintDiagnostic[]>>();
      // Per set of documents read, per scope (a `keys` view has its own groups).
      const views = new Map<ReadonlySet<string>, Map<RuleScope, WorkspaceIndex>>();
      let injection: InjectionRun | undefined;
      // How the `targets` and `lookup` rules of one reach re-judge by case (null: whole documents), made for the first.
      const plans = new Map<Reach, { byCase: CasePlan; view: WorkspaceIndex } | null>();
      const byCaseDocs = new Map<string, ByCase>();
      let hits = state?.hits;
      // The documents whose rule results may be new this run; undefined once a rule ran over all.
      let touched: Set<string> | undefined = state && known ? new Set(changed) : undefined;
      for (const rule of rules) {
        if (options.isCancelled?.()) return { diagnostics: [], cancelled: true, byUri: new Map(), changed: undefined, since: undefined };
        if (off.has(rule.meta.id)) {
          byRule.set(rule.meta.id, NONE);
          continue;
        }
        // Signatures are keyed by their text under the workspace's rubric (FORMAT §3b); under two
        // rubrics a pair is equal only under both, which no one key says: the rule reads everything.
        const scope = rule.meta.id === 'signature-overlap' && rubric === 'many' ? 'full' : (RULE_SCOPES[rule.meta.id] ?? 'full');
        const previous = state?.byRule.get(rule.meta.id);
        // Nothing changed at all (a save without edits, a repeated request): every rule's last
        // result stands, even a whole-workspace one's.
        if (!full && previous && changed.size === 0) {
          byRule.set(rule.meta.id, previous);
          continue;
        }
        if (full || !previous || scope === 'full' || (scope === 'injection' && !state?.hits)) {
          byRule.set(rule.meta.id, runRuleByDoc(rule, index, index, memo, () => true, knownIds));
          if (scope === 'injection') hits = injectionHits(index, memo);
          touched = undefined;
          continue;
        }
        let fresh: Map<string, LintDiagnostic[]>;
        let keep: ReadonlySet<string>;
        // The documents judged by case: their findings, the kept and the new.
        let joined: Map<string, LintDiagnostic[]> | undefined;
        if (scope === 'injection') {
          injection ??= injectionNeighbourhood(index, byDoc, keys, state!.keys, changed, dirtyTargets, at!, state!.hits!);
          hits = injection.hits;
          keep = injection.retained;
          fresh = runRuleByDoc(rule, injection.view, index, injection.memo, (uri) => keep.has(uri), knownIds);
        } else {
          // A per-file rule only re-reads the edited files; a per-target rule those and the files
          // pointing at them; a keys rule the holders of the kinds of key that relate its findings.
          const kinds = scope === 'targets' ? '' : scope === 'keys' ? (RULE_KEY_KINDS[rule.meta.id] ?? ALL_KINDS) : ALL_KINDS;
          let reach = scope === 'file' ? { retained: edited(), read: edited() } : (scope === 'keys' && BLIND_TO_TARGETS.has(rule.meta.id) ? blindNear() : near!).by(kinds);
          const suggests = SUGGESTS_IDS.has(rule.meta.id) && index.casesById !== state!.ids;
          if (suggests) reach = withSuggestions(reach, previous, index, keys, at!.docOf);
          keep = reach.retained;
          // `targets` and `lookup` rules re-judge by case the documents whose text stands
          // (incremental-cases.ts); a `lookup` rule judges whole those a changed document's keys
          // reach, and every one when ids came or went (its suggestions read them all).
          let plan: { byCase: CasePlan; view: WorkspaceIndex } | null | undefined;
          if (scope === 'targets' || (scope === 'lookup' && !suggests)) {
            plan = plans.get(reach);
            if (plan === undefined) {
              // Judged whole: the edited documents, and for `lookup` those their keys reach (a
              // neighbourhood's retained documents include the ones it starts from).
              const byCase = planByCase(byDoc, reach, near!.dirtyTargets, scope === 'lookup' ? blindNear().by(ALL_KINDS).retained : edited(), byCaseDocs);
              plan = byCase ? { byCase, view: narrowed(index, byDoc, reach.read, scope, byCase) } : null;
              plans.set(reach, plan);
            }
          }
          const byCase = plan ? runByCase(rule, plan.byCase, plan.view, index, previous, keep, knownIds) : undefined;
          if (byCase) {
            fresh = byCase.fresh;
            joined = byCase.joined;
          } else {
            let forRead = views.get(reach.read);
            if (!forRead) views.set(reach.read, (forRead = new Map()));
            let view = forRead.get(scope);
            if (!view) {
              view = narrowed(index, byDoc, reach.read, scope);
              forRead.set(scope, view);
            }
            fresh = runRuleByDoc(rule, view, index, new Map(), (uri) => keep.has(uri), knownIds);
          }
        }
        // The last result with the re-judged documents' entries replaced. Copied whole (natively):
        // a loop asking about every document with a finding, for every rule, cost more.
        const merged = new Map(previous);
        for (const uri of keep) merged.delete(uri);
        for (const uri of changed) if (!index.docs.has(uri)) merged.delete(uri);
        for (const [uri, ds] of fresh) merged.set(uri, ds);
        for (const [uri, ds] of joined ?? []) {
          if (ds.length) merged.set(uri, ds);
          else merged.delete(uri);
        }
        byRule.set(rule.meta.id, merged);
        if (touched) {
          for (const uri of keep) touched.add(uri);
          for (const uri of fresh.keys()) touched.add(uri);
        }
      }

      // The key table follows the documents once the run can no longer be cancelled.
      let table: KeyTable;
      let nextKeys: Map<string, DocKeys>;
      if (state && !full) {
        table = state.table;
        for (const uri of changed) {
          const was = state.keys.get(uri);
          const now = keys.get(uri);
          // A document whose text stands keeps its keys object: the table holds them already.
          if (was === now) continue;
          if (was && now) reenter(table, uri, was, now);
          else if (was) enter(table, uri, was, true);
          else if (now) enter(table, uri, now);
        }
        if (allKeys) nextKeys = allKeys;
        else {
          nextKeys = state.keys;
          for (const [uri, now] of changedKeys) {
            if (now) nextKeys.set(uri, now);
            else nextKeys.delete(uri);
          }
        }
      } else {
        nextKeys = allKeys ?? new Map();
        table = keyTable(nextKeys);
      }

      const ruleMaps = [...byRule.values()];
      const previousMaps = state ? rules.map((r) => state!.byRule.get(r.meta.id)) : undefined;
      const listOf = (uri: string): LintDiagnostic[] => {
        let list = state?.byUri.get(uri);
        const parts = ruleMaps.map((m) => m.get(uri));
        const doc = index.docs.get(uri);
        // A changed file may change only its suppressions, which no rule's result shows.
        if (!list || !previousMaps || parts.some((p, i) => p !== previousMaps[i]?.get(uri)) || doc !== state?.index.docs.get(uri)) {
          list = [];
          for (const p of parts) if (p) for (const d of p) list.push(d);
          list.sort(compareDiagnostics);
          if (doc) list = applySuppressions(index, doc, list, ran) as LintDiagnostic[];
          list = groupFacts(list, index.roots[0]);
        }
        return list;
      };
      // Same files as last time (an updated index): their order is known, and a document no rule
      // re-judged keeps its list. Only the re-judged ones are visited: a loop over every document
      // cost milliseconds per edit in a workspace of one case per file.
      const uris = state && known ? state.uris : [...index.docs.keys()].sort();
      let byUri: Map<string, LintDiagnostic[]>;
      // Set exactly when `touched` is (a run from the last one's index): the map it is relative to.
      const since = touched && state?.byUri;
      if (since && touched) {
        byUri = new Map(since);
        for (const uri of touched) if (index.docs.has(uri)) byUri.set(uri, listOf(uri));
      } else {
        byUri = new Map();
        for (const uri of uris) byUri.set(uri, listOf(uri));
      }

      state = { index, ids: index.casesById, byDoc, keys: nextKeys, table, configPrint: print, off, rubric, ruleIds, byRule, byUri, uris, hits };
      last = { full, retained: full ? index.docs.size : retained.size, read: full ? index.docs.size : (near?.read.size ?? 0) };
      // The flat list in file order, built when first read: the language server reads byUri only.
      let flat: LintDiagnostic[] | undefined;
      const only = options.onlyUris;
      return {
        cancelled: false,
        byUri,
        changed: touched,
        since,
        get diagnostics() {
          if (!flat) {
            flat = [];
            for (const uri of uris) if (!only || only.has(uri)) for (const d of byUri.get(uri) ?? []) flat.push(d);
          }
          return flat;
        },
      };
    },
  };
}

export interface IncrementalWorkspace {
  /** Adds or replaces a file; unchanged text keeps its parse trees and per-file facts. */
  update(uri: string, text: string, version?: number): void;
  /** Adds or replaces an already-built document (a stand-in for an unreadable file, say). */
  set(doc: SuiteDocument): void;
  remove(uri: string): void;
  documents(): SuiteDocument[];
  /** The index over the current documents, and every file's diagnostics. */
  lint(options?: LintOptions): { index: WorkspaceIndex; result: LintResult; byUri: ReadonlyMap<string, readonly LintDiagnostic[]> };
  lastRun(): ReturnType<IncrementalLinter['lastRun']>;
}

/**
 * A workspace held in memory and updated file by file: the index is updated from the last one, and
 * the rules re-run only where the change reaches. Files that no longer have a LITMUS kind (renamed
 * away from `*.litmus.json`, `$schema` removed) leave the workspace.
 */
export function createIncrementalWorkspace(options: IndexOptions = {}): IncrementalWorkspace {
  const docs = new Map<string, SuiteDocument>();
  const linter = createIncrementalLinter();
  let last: WorkspaceIndex | undefined;
  return {
    update(raw, text, version) {
      const uri = normalizeUri(raw);
      const doc = createDocument(uri, text, undefined, version);
      if (doc) docs.set(uri, doc);
      else docs.delete(uri);
    },
    set(doc) {
      docs.set(normalizeUri(doc.uri), doc);
    },
    remove(raw) {
      docs.delete(normalizeUri(raw));
    },
    documents: () => [...docs.values()],
    lastRun: () => linter.lastRun(),
    lint(lintOptions = {}) {
      const index = buildIndex(docs.values(), options, last);
      const result = linter.lint(index, lintOptions);
      if (!result.cancelled) last = index;
      return { index, result, byUri: result.byUri };
    },
  };
}
