import { canonicalHash } from './canonical';
import { createDocument, type SuiteDocument } from './document';
import { compareDiagnostics, placeFindings, runRule, type LintDiagnostic, type LintOptions, type LintResult } from './lint';
import { ALL_RULES } from './rules/index';
import type { Rule } from './rules/types';
import { parseToolReference } from './tools';
import { normalizeUri, resolveRelative } from './uri';
import { buildIndex, type CaseModel, type IndexOptions, type ToolFile, type ToolUse, type WorkspaceIndex } from './workspace';

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
 * - `keys`: findings relate documents only through the keys above; the rule sees a sub-workspace
 *   whose maps (families, ids, tool users) are built from the read set.
 * - `lookup`: like `keys`, but the rule iterates cases and looks things up in the full maps (it
 *   suggests names from every id, or follows seed chains across the workspace).
 * - `full`: always the whole workspace (e.g. the injection detector compares a tool's text with
 *   every tool name in the workspace).
 */
export type RuleScope = 'file' | 'keys' | 'lookup' | 'full';

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
  'unsatisfiable-safe-completion': 'keys',
  'refusal-orthogonality': 'lookup',
  'unresolved-reference': 'lookup',
  'mutation-budget': 'lookup',
};

/** The keys one document holds, computed once per document object. */
interface DocKeys {
  /** Shared with every other holder: `i:` ids, `f:` families, `s:` canonical signatures. */
  keys: Set<string>;
  /** The document as a reference target (its normalised URI). */
  self: string;
  /** The files its tool references and `injection_field` locations point into. */
  targets: Set<string>;
  /** seed_id links of its cases (id → seed), followed transitively for seed-chain loops. */
  seeds: [string, string][];
}

const keyCache = new WeakMap<SuiteDocument, DocKeys>();

function targetOf(fromUri: string, ref: string): string | undefined {
  const parsed = parseToolReference(ref);
  if (!parsed) return undefined;
  try {
    return normalizeUri(resolveRelative(fromUri, parsed.path));
  } catch {
    return undefined;
  }
}

/** The file part of an `injection_field` location (`path#/pointer`); none for `#/pointer`. */
function labelTarget(fromUri: string, label: string): string | undefined {
  const hash = label.indexOf('#');
  const path = hash < 0 ? label : label.slice(0, hash);
  if (!path) return undefined;
  try {
    return normalizeUri(resolveRelative(fromUri, path));
  } catch {
    return undefined;
  }
}

function docKeys(doc: SuiteDocument, cases: readonly CaseModel[]): DocKeys {
  const cached = keyCache.get(doc);
  if (cached) return cached;
  const keys = new Set<string>();
  const targets = new Set<string>();
  const seeds: [string, string][] = [];
  for (const c of cases) {
    const v = c.value;
    if (c.id !== undefined) keys.add(`i:${c.id}`);
    if (typeof v.paired_with === 'string') keys.add(`i:${v.paired_with}`);
    if (typeof v.seed_id === 'string') {
      keys.add(`i:${v.seed_id}`);
      if (c.id !== undefined) seeds.push([c.id, v.seed_id]);
    }
    if (c.family !== undefined) keys.add(`f:${c.family}`);
    const sig = canonicalHash(v.correct_resolution_signature);
    if (sig !== undefined) keys.add(`s:${sig}`);
    if (Array.isArray(v.tools)) {
      for (const entry of v.tools) {
        const t = typeof entry === 'string' ? targetOf(doc.uri, entry) : undefined;
        if (t) targets.add(t);
      }
    }
    const labels = Array.isArray(v.injection_field) ? v.injection_field : [v.injection_field];
    for (const label of labels) {
      const t = typeof label === 'string' ? labelTarget(doc.uri, label) : undefined;
      if (t) targets.add(t);
    }
  }
  const out = { keys, self: normalizeUri(doc.uri), targets, seeds };
  keyCache.set(doc, out);
  return out;
}

/** What the previous run left: enough to tell what changed and to reuse what did not. */
interface RunState {
  docs: Map<string, SuiteDocument>;
  /** How each document's tool references resolved (the index reuses the object while nothing changed). */
  uses: Map<string, ToolUse[]>;
  keys: Map<string, DocKeys>;
  readErrors: Map<string, string>;
  configPrint: string;
  ruleIds: string;
  /** Diagnostics per rule, per document. */
  byRule: Map<string, Map<string, LintDiagnostic[]>>;
}

export interface IncrementalLinter {
  /** Lints the index, re-running each rule only where the changes since the last call reach. */
  lint(index: WorkspaceIndex, options?: LintOptions): LintResult;
  /** What the last run re-linted (for tests and the language status): `full` or the retained documents. */
  lastRun(): { full: boolean; retained: number; read: number };
}

function usesByDoc(index: WorkspaceIndex): Map<string, ToolUse[]> {
  const out = new Map<string, ToolUse[]>();
  for (const c of index.cases) for (const use of c.tools) push(out, c.doc.uri, use);
  return out;
}

function sameUses(a: readonly ToolUse[] | undefined, b: readonly ToolUse[] | undefined): boolean {
  if (!a || !b) return a === b;
  return a.length === b.length && a.every((u, i) => u === b[i]);
}

function casesByDoc(index: WorkspaceIndex): Map<string, CaseModel[]> {
  const out = new Map<string, CaseModel[]>();
  for (const c of index.cases) {
    const list = out.get(c.doc.uri);
    if (list) list.push(c);
    else out.set(c.doc.uri, [c]);
  }
  return out;
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

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The index as a rule sees it when it is narrowed to the documents in `read`. */
function narrowed(index: WorkspaceIndex, read: ReadonlySet<string>, scope: RuleScope): WorkspaceIndex {
  const docs = new Map<string, SuiteDocument>();
  for (const [uri, doc] of index.docs) if (read.has(uri)) docs.set(uri, doc);
  const cases = index.cases.filter((c) => read.has(c.doc.uri));
  const toolFiles = new Map<string, ToolFile>();
  for (const [uri, file] of index.toolFiles) if (read.has(file.doc.uri)) toolFiles.set(uri, file);
  if (scope === 'lookup') return { ...index, docs, cases, toolFiles };
  const casesById = new Map<string, CaseModel[]>();
  const families = new Map<string, CaseModel[]>();
  const toolUsers: WorkspaceIndex['toolUsers'] = new Map();
  for (const c of cases) {
    if (c.id !== undefined) push(casesById, c.id, c);
    if (c.family !== undefined) push(families, c.family, c);
    for (const use of c.tools) if (use.tool) push(toolUsers, use.tool, { case: c, use });
  }
  return { ...index, docs, cases, toolFiles, casesById, families, toolUsers };
}

/** Runs one rule and places its findings by document, exactly as lintIndex does. */
function runRuleByDoc(rule: Rule, ruleIndex: WorkspaceIndex, full: WorkspaceIndex, memo: Map<string, unknown>, keep: (uri: string) => boolean): Map<string, LintDiagnostic[]> {
  const out = new Map<string, LintDiagnostic[]>();
  for (const d of placeFindings(runRule(rule, ruleIndex, memo, full), full, keep)) push(out, d.uri, d);
  return out;
}

export function createIncrementalLinter(): IncrementalLinter {
  let state: RunState | undefined;
  let last = { full: true, retained: 0, read: 0 };

  return {
    lastRun: () => last,
    lint(index, options = {}) {
      const rules = options.rules ?? ALL_RULES;
      const ruleIds = rules.map((r) => r.id).join(',');
      const byDoc = casesByDoc(index);
      const keys = new Map<string, DocKeys>();
      for (const [uri, doc] of index.docs) keys.set(uri, docKeys(doc, byDoc.get(uri) ?? []));
      const print = configPrint(index);
      const uses = usesByDoc(index);

      // What changed since the last run: documents (by identity) and read errors.
      const changed = new Set<string>();
      let full = !state || state.ruleIds !== ruleIds || state.configPrint !== print;
      if (state && !full) {
        for (const [uri, doc] of index.docs) if (state.docs.get(uri) !== doc) changed.add(uri);
        for (const uri of state.docs.keys()) if (!index.docs.has(uri)) changed.add(uri);
        // A reference that resolves differently with its document unchanged (a target left the
        // workspace, became unreadable): that document counts as changed.
        for (const uri of index.docs.keys()) if (!changed.has(uri) && !sameUses(uses.get(uri), state.uses.get(uri))) changed.add(uri);
        for (const uri of changed) {
          const kind = (index.docs.get(uri) ?? state.docs.get(uri))?.kind;
          // Options and the harness reach every file (severities, budgets, the score gates).
          if (kind === 'config' || kind === 'harness') full = true;
        }
      }

      let retained = new Set<string>(index.docs.keys());
      let read = retained;
      if (!full && state) {
        // Shared keys are symmetric: every holder of a dirty key is re-linted. Targets are not: a
        // changed file re-lints the files that point into it, but pointing at a file does not make
        // that file (or its other users) depend on the pointer.
        const dirty = new Set<string>();
        const dirtyTargets = new Set<string>();
        for (const uri of changed) {
          for (const k of [keys.get(uri), state.keys.get(uri)]) {
            if (!k) continue;
            for (const key of k.keys) dirty.add(key);
            dirtyTargets.add(k.self);
          }
          dirtyTargets.add(normalizeUri(uri));
        }
        const errorUris = new Set([...index.readErrors.keys(), ...state.readErrors.keys()]);
        for (const uri of errorUris) if (index.readErrors.get(uri) !== state.readErrors.get(uri)) dirtyTargets.add(uri);

        // Seed chains: a loop is reported on every member, however far along the chain the edit was.
        const seedOf = new Map<string, string[]>();
        const seededBy = new Map<string, string[]>();
        for (const k of [...keys.values(), ...[...changed].map((u) => state!.keys.get(u)).filter((k): k is DocKeys => !!k)]) {
          for (const [id, seed] of k.seeds) {
            push(seedOf, id, seed);
            push(seededBy, seed, id);
          }
        }
        const queue = [...dirty].filter((k) => k.startsWith('i:')).map((k) => k.slice(2));
        const seenIds = new Set(queue);
        while (queue.length) {
          const id = queue.pop()!;
          for (const next of [...(seedOf.get(id) ?? []), ...(seededBy.get(id) ?? [])]) {
            if (seenIds.has(next)) continue;
            seenIds.add(next);
            dirty.add(`i:${next}`);
            queue.push(next);
          }
        }

        const holders = new Map<string, string[]>();
        const users = new Map<string, string[]>();
        const docOf = new Map<string, string>();
        for (const [uri, k] of keys) {
          docOf.set(k.self, uri);
          for (const key of k.keys) push(holders, key, uri);
          for (const t of k.targets) push(users, t, uri);
        }
        retained = new Set(changed);
        for (const key of dirty) for (const uri of holders.get(key) ?? []) retained.add(uri);
        for (const t of dirtyTargets) for (const uri of users.get(t) ?? []) retained.add(uri);
        read = new Set(retained);
        for (const uri of retained) {
          const k = keys.get(uri);
          if (!k) continue;
          for (const key of k.keys) for (const other of holders.get(key) ?? []) read.add(other);
          for (const t of k.targets) {
            const target = docOf.get(t);
            if (target) read.add(target);
          }
        }
      }

      const memo = new Map<string, unknown>();
      const byRule = new Map<string, Map<string, LintDiagnostic[]>>();
      const views = new Map<string, WorkspaceIndex>();
      for (const rule of rules) {
        if (options.isCancelled?.()) return { diagnostics: [], cancelled: true };
        const scope = RULE_SCOPES[rule.id] ?? 'full';
        const previous = state?.byRule.get(rule.id);
        // Nothing changed at all (a save without edits, a repeated request): every rule's last
        // result stands, even a whole-workspace one's.
        if (!full && previous && changed.size === 0) {
          byRule.set(rule.id, previous);
          continue;
        }
        if (full || !previous || scope === 'full') {
          byRule.set(rule.id, runRuleByDoc(rule, index, index, memo, () => true));
          continue;
        }
        // A per-file rule only re-reads the changed files; the others read the whole neighbourhood.
        const keep = scope === 'file' ? changed : retained;
        const readSet = scope === 'file' ? changed : read;
        let view = views.get(scope);
        if (!view) {
          view = narrowed(index, readSet, scope);
          views.set(scope, view);
        }
        const fresh = runRuleByDoc(rule, view, index, new Map(), (uri) => keep.has(uri));
        const merged = new Map<string, LintDiagnostic[]>();
        for (const [uri, ds] of previous) if (!keep.has(uri) && index.docs.has(uri)) merged.set(uri, ds);
        for (const [uri, ds] of fresh) merged.set(uri, ds);
        byRule.set(rule.id, merged);
      }

      state = { docs: new Map(index.docs), uses, keys, readErrors: new Map(index.readErrors), configPrint: print, ruleIds, byRule };
      last = { full, retained: full ? index.docs.size : retained.size, read: full ? index.docs.size : read.size };

      const diagnostics: LintDiagnostic[] = [];
      for (const perUri of byRule.values()) {
        for (const [uri, ds] of perUri) {
          if (options.onlyUris && !options.onlyUris.has(uri)) continue;
          for (const d of ds) diagnostics.push(d);
        }
      }
      diagnostics.sort(compareDiagnostics);
      return { diagnostics, cancelled: false };
    },
  };
}

/** Groups diagnostics by file, with an empty list for every document of the index. */
export function diagnosticsByUri(index: WorkspaceIndex, diagnostics: readonly LintDiagnostic[]): Map<string, LintDiagnostic[]> {
  const out = new Map<string, LintDiagnostic[]>();
  for (const uri of index.docs.keys()) out.set(uri, []);
  for (const d of diagnostics) push(out, d.uri, d);
  return out;
}

export interface IncrementalWorkspace {
  /** Adds or replaces a file; unchanged text keeps its parse trees and per-file facts. */
  update(uri: string, text: string, version?: number): void;
  /** Adds or replaces an already-built document (a stand-in for an unreadable file, say). */
  set(doc: SuiteDocument): void;
  remove(uri: string): void;
  documents(): SuiteDocument[];
  /** The index over the current documents, and every file's diagnostics. */
  lint(options?: LintOptions): { index: WorkspaceIndex; result: LintResult; byUri: Map<string, LintDiagnostic[]> };
  lastRun(): ReturnType<IncrementalLinter['lastRun']>;
}

/**
 * A workspace held in memory and updated file by file: the index is rebuilt from cached per-file
 * facts, and the rules re-run only where the change reaches. Files that no longer have a LITMUS
 * kind (renamed away from `*.litmus.json`, `$schema` removed) leave the workspace.
 */
export function createIncrementalWorkspace(options: IndexOptions = {}): IncrementalWorkspace {
  const docs = new Map<string, SuiteDocument>();
  const linter = createIncrementalLinter();
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
      const index = buildIndex(docs.values(), options);
      const result = linter.lint(index, lintOptions);
      return { index, result, byUri: diagnosticsByUri(index, result.diagnostics) };
    },
  };
}
