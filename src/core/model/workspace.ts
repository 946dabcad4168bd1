import { isJsonObject } from './canonical';
import { defaultConfig, mergeConfig, readConfig, type ConfigOverrides, type ResolvedConfig } from './config';
import { rootValue, takePredecessor, type SuiteDocument } from './document';
import { toolReader } from './stable-tools';
import { parseToolReference, type ToolModel } from './tools';
import type { JsonPath } from '../text/types';
import { regroup, type DocCases, type Grouping } from './grouped';
import { dirnameUri, folderKey, isUnder, normalizeUri, resolveTarget } from './uri';
import { pushTo, sameItems } from '../text/multimap';
import type { CaseModel, ToolFile, ToolUse } from './case';
import { readEnvironmentFile, type EnvironmentFile, type EnvironmentUse } from './environment';

export type { Arm, CaseModel, ToolFile, ToolUse, EnvironmentFile, EnvironmentUse } from './case';

export interface WorkspaceIndex {
  docs: Map<string, SuiteDocument>;
  cases: CaseModel[];
  casesById: Map<string, CaseModel[]>;
  families: Map<string, CaseModel[]>;
  toolFiles: Map<string, ToolFile>;
  /** Environment files (FORMAT §3a), by normalised URI. */
  envFiles: Map<string, EnvironmentFile>;
  /** Every case that uses a tool (inline or by reference), keyed by the tool. */
  toolUsers: Map<ToolModel, { case: CaseModel; use: ToolUse }[]>;
  /** Files that were named or referenced but could not be read, with the reason. */
  readErrors: Map<string, string>;
  /** Workspace folders (or the CLI's given roots) as URIs. */
  roots: string[];
  configFor(uri: string): ResolvedConfig;
  /** The nearest `litmus.harness.json` up the tree from `uri`, if the index holds one. */
  harnessFor(uri: string): SuiteDocument | undefined;
  /** A case's path prefixed onto a path inside it: where to point findings about that case. */
  casePath(c: CaseModel, ...rest: JsonPath): JsonPath;
}

export interface IndexOptions {
  roots?: string[];
  readErrors?: Map<string, string>;
  /** Host defaults (editor settings), under any config file. */
  baseConfig?: ConfigOverrides;
  /** Replaces config discovery (the CLI's `--config`). */
  configOverride?: ConfigOverrides;
  /** Roots references may not leave (the editor's workspace folders); see `LoadOptions.confineTo`. */
  confineTo?: string[];
  /** Reference targets the loader refused to read (e.g. a link that leads outside `confineTo`). */
  outsideWorkspace?: ReadonlySet<string>;
}

/** What one case says about itself, independent of every other file: cached per document. */
interface CaseFacts extends Omit<CaseModel, 'doc' | 'tools'> {
  /** Inline tool entries by their index in `tools`, normalised once. */
  inlineUses: ReadonlyMap<number, ToolUse>;
  /**
   * The last resolution of each reference and what it depended on (see buildIndex), in pairs: the
   * use of entry i at 2i, the facts about its target at 2i + 1. The facts are the object the build
   * shared between every case of the file that names the same reference, so a use costs no record
   * of its own.
   */
  uses: (ToolUse | TargetFacts | undefined)[];
  /** The last resolution of its `environment` reference, with what it depended on. */
  envUse?: CachedEnv;
  /** The last model built from these facts. */
  model?: CaseModel;
}

interface CachedEnv {
  use: EnvironmentUse;
  file?: EnvironmentFile;
  hasDoc: boolean;
  readError?: string;
  outside: boolean;
}

/** What a reference's resolution depended on: the facts about its target file. */
interface TargetFacts {
  file?: ToolFile;
  hasDoc: boolean;
  readError?: string;
  outside: boolean;
}

/**
 * Per-document facts, keyed by the document object. Documents are immutable and the loader hands
 * back the same object for unchanged text, so a re-index after an edit only reads the edited files.
 */
const caseFacts = new WeakMap<SuiteDocument, CaseFacts[]>();
const toolFileFacts = new WeakMap<SuiteDocument, ToolFile>();

/**
 * The facts of a case file's cases, kept per document. The version a document continues
 * (document.ts, `takePredecessor`) gives its facts to the cases an edit did not touch: the parser
 * keeps their values (text/parse.ts), and a case whose value stays in the same place keeps its
 * facts, their resolutions and its model, so the caches the rules key on the model carry over.
 */
function readCaseFacts(doc: SuiteDocument): CaseFacts[] {
  const cached = caseFacts.get(doc);
  if (cached) return cached;
  const out: CaseFacts[] = [];
  const read = toolReader(doc.uri);
  const roots = doc.parsed.roots;
  const previous = takePredecessor(doc);
  const kept = previous ? factsByValue(previous) : undefined;
  // Plain loops: this runs once per case of the workspace, and a closure per file cost more than the work.
  for (let rootIndex = 0; rootIndex < roots.length; rootIndex++) {
    const value = rootValue(doc, rootIndex);
    if (!isJsonObject(value)) continue;
    const cases = value.cases;
    if (doc.kind === 'cases' && Array.isArray(cases)) {
      for (let i = 0; i < cases.length; i++) {
        const c: unknown = cases[i];
        if (!isJsonObject(c)) continue;
        const f = kept?.get(c);
        out.push(f && f.root === rootIndex && f.path.length === 2 && f.path[1] === i ? f : caseFact(rootIndex, ['cases', i], c, read));
      }
    } else if (doc.kind === 'caseLines' || !('cases' in value)) {
      const f = kept?.get(value);
      out.push(f && f.root === rootIndex && f.path.length === 0 ? f : caseFact(rootIndex, [], value, read));
    }
  }
  caseFacts.set(doc, out);
  return out;
}

/** A version's facts by case value, for the next version to take over (while the edit is indexed, then dropped). */
function factsByValue(doc: SuiteDocument): Map<object, CaseFacts> | undefined {
  const facts = caseFacts.get(doc);
  if (!facts) return undefined;
  const byValue = new Map<object, CaseFacts>();
  for (const f of facts) byValue.set(f.value, f);
  return byValue;
}

/** An inline entry that is not a usable tool (the schema rule says why): one answer for every such entry. */
const INLINE_WITHOUT_TOOL: ToolUse = { inline: true };

/** Most cases only reference tools: they share this empty map rather than each holding one. */
const NO_INLINE_USES: ReadonlyMap<number, ToolUse> = new Map();

function caseFact(root: number, path: JsonPath, value: Record<string, unknown>, read: ReturnType<typeof toolReader>): CaseFacts {
  let inlineUses: Map<number, ToolUse> | undefined;
  const tools = value.tools;
  if (Array.isArray(tools)) {
    for (let i = 0; i < tools.length; i++) {
      const entry: unknown = tools[i];
      if (typeof entry === 'string') continue;
      const usePath = path.concat('tools', i);
      (inlineUses ??= new Map()).set(i, { inline: true, tool: read(entry, root, usePath) });
    }
  }
  return {
    root,
    path,
    value,
    id: typeof value.instance_id === 'string' ? value.instance_id : undefined,
    arm: value.arm === 'adversarial' || value.arm === 'benign' ? value.arm : undefined,
    family: typeof value.family === 'string' ? value.family : undefined,
    probe: typeof value.probe === 'string' ? value.probe : undefined,
    inlineUses: inlineUses ?? NO_INLINE_USES,
    uses: [],
    // Set by the index; written here so that every case's facts are one object with no second store.
    envUse: undefined,
    model: undefined,
  };
}

/** A model over the cached facts, with this index's resolution of its tools. */
function caseModel(doc: SuiteDocument, f: CaseFacts, tools: ToolUse[], environment: EnvironmentUse | undefined): CaseModel {
  // `environment` always written (undefined without one): one shape for every model, no second store.
  return { doc, root: f.root, path: f.path, value: f.value, id: f.id, arm: f.arm, family: f.family, probe: f.probe, tools, environment };
}

function readToolFile(doc: SuiteDocument): ToolFile {
  const cached = toolFileFacts.get(doc);
  if (cached) return cached;
  const tools: ToolModel[] = [];
  const byName = new Map<string, ToolModel[]>();
  const value = rootValue(doc, 0);
  const read = toolReader(doc.uri);
  if (isJsonObject(value) && Array.isArray(value.tools)) {
    value.tools.forEach((entry, i) => {
      const tool = read(entry, 0, ['tools', i]);
      if (!tool) return;
      tools.push(tool);
      pushTo(byName, tool.name, tool);
    });
  }
  const file: ToolFile = { doc, tools, byName };
  toolFileFacts.set(doc, file);
  return file;
}

/** What a reference resolves against: the other files of the index. */
interface Resolver {
  docs: Map<string, SuiteDocument>;
  toolFiles: Map<string, ToolFile>;
  envFiles: Map<string, EnvironmentFile>;
  readErrors: Map<string, string>;
  outside(uri: string): boolean;
  /** The resolutions of this build for the files of one folder (`folderKey`): see Resolutions. */
  resolutions(folder: string): Resolutions;
  /** The same for `environment` references, by their text. */
  environments(folder: string): Map<string, CachedEnv>;
}

function resolver(docs: Map<string, SuiteDocument>, toolFiles: Map<string, ToolFile>, envFiles: Map<string, EnvironmentFile>, options: IndexOptions): Resolver {
  const confine = options.confineTo?.map(normalizeUri);
  // Asked once per reference of every re-resolved case; a workspace has few target files.
  const memo = new Map<string, boolean>();
  return {
    docs,
    toolFiles,
    envFiles,
    readErrors: options.readErrors ?? new Map<string, string>(),
    outside(uri) {
      let o = memo.get(uri);
      if (o === undefined) memo.set(uri, (o = !!options.outsideWorkspace?.has(uri) || (!!confine && !confine.some((r) => isUnder(uri, r)))));
      return o;
    },
    resolutions: perFolder(),
    environments: perFolder(),
  };
}

/** A map per folder, made when the folder is first asked for (one build's resolutions). */
function perFolder<T>(): (folder: string) => Map<string, T> {
  const byFolder = new Map<string, Map<string, T>>();
  return (folder) => {
    let out = byFolder.get(folder);
    if (!out) byFolder.set(folder, (out = new Map()));
    return out;
  };
}

/**
 * How the references of one folder's files resolve, by reference text: the cases of a suite name
 * the same few dozen tools again and again, and a text resolves the same way from every file of
 * a folder (`resolveTarget` reads only the folder) within one build. Per folder rather than per
 * file: with one case per file, a resolution per file was a record per tool use.
 */
type Resolutions = Map<string, TargetFacts & { use: ToolUse }>;

function resolveUse(r: Resolver, doc: SuiteDocument, f: CaseFacts, entry: unknown, i: number, resolutions: Resolutions): ToolUse {
  if (typeof entry !== 'string') {
    // The same ToolModel object every time the document is unchanged, so work keyed on it carries over.
    return f.inlineUses.get(i) ?? INLINE_WITHOUT_TOOL;
  }
  // What a reference resolves to depends on its text and on these facts about its target alone;
  // while they stand, the previous resolution is reused.
  const cached = f.uses[2 * i] as ToolUse | undefined;
  const facts = f.uses[2 * i + 1] as TargetFacts | undefined;
  const t = cached?.targetUri;
  if (cached && facts && (t === undefined || (r.toolFiles.get(t) === facts.file && r.docs.has(t) === facts.hasDoc && r.readErrors.get(t) === facts.readError && r.outside(t) === facts.outside))) {
    return cached;
  }
  let resolved = resolutions.get(entry);
  if (!resolved) {
    const use = resolveReference(doc.uri, entry, r);
    const u = use.targetUri;
    resolved = { use, file: u ? r.toolFiles.get(u) : undefined, hasDoc: u ? r.docs.has(u) : false, readError: u ? r.readErrors.get(u) : undefined, outside: u ? r.outside(u) : false };
    resolutions.set(entry, resolved);
  }
  // Its target changed and it resolves as before (an edit of a tool file, to another of its tools):
  // the same use, so the case keeps its model and every cache keyed on it. The same text in the
  // same document names the same file and tool; what they resolve to is what may differ.
  const use = resolved.use;
  if (cached && cached.tool === use.tool && cached.problem === use.problem) {
    f.uses[2 * i + 1] = resolved;
    return cached;
  }
  f.uses[2 * i] = use;
  f.uses[2 * i + 1] = resolved;
  return use;
}

/** Every inline environment resolves alike: the value is the case's own. */
const INLINE_ENVIRONMENT: EnvironmentUse = { inline: true, ref: undefined, targetUri: undefined, file: undefined, problem: undefined };

/** How a case's `environment` resolves: inline, or a reference whose target facts are cached like a tool reference's. */
function resolveEnvUse(r: Resolver, doc: SuiteDocument, f: CaseFacts): EnvironmentUse | undefined {
  const v = f.value.environment;
  if (v === undefined) return undefined;
  if (typeof v !== 'string') return INLINE_ENVIRONMENT;
  const cached = f.envUse;
  const t = cached?.use.targetUri;
  if (cached && (t === undefined || (r.envFiles.get(t) === cached.file && r.docs.has(t) === cached.hasDoc && r.readErrors.get(t) === cached.readError && r.outside(t) === cached.outside))) {
    return cached.use;
  }
  // Resolved once per folder and text in a build (resolveTarget reads only the folder), shared by its cases.
  const envs = r.environments(folderKey(doc.uri));
  let resolved = envs.get(v);
  if (!resolved) {
    const u = environmentTarget(doc.uri, v);
    const file = u === undefined ? undefined : r.envFiles.get(u);
    let problem: EnvironmentUse['problem'];
    if (u === undefined) problem = 'malformed';
    else if (r.outside(u)) problem = 'outside-workspace';
    else if (r.readErrors.has(u)) problem = 'unreadable';
    else if (!file) problem = r.docs.has(u) ? 'not-an-environment-file' : 'missing-file';
    else if (file.broken) problem = 'broken-file';
    // One literal with every field, as for a tool use: a field added later goes to a second store.
    const use: EnvironmentUse = { inline: false, ref: v, targetUri: u, file: problem === undefined || problem === 'broken-file' ? file : undefined, problem };
    resolved = { use, file, hasDoc: u ? r.docs.has(u) : false, readError: u ? r.readErrors.get(u) : undefined, outside: u ? r.outside(u) : false };
    envs.set(v, resolved);
  }
  f.envUse = resolved;
  return resolved.use;
}

/** The file an `environment` reference names (normalised); undefined when it cannot name one. */
export function environmentTarget(fromUri: string, ref: string): string | undefined {
  if (ref.trim() === '' || ref.includes('#')) return undefined;
  try {
    return resolveTarget(fromUri, ref);
  } catch {
    return undefined;
  }
}

/** The case models of one case file, resolved against the index. */
function modelsOf(r: Resolver, doc: SuiteDocument): CaseModel[] {
  const out: CaseModel[] = [];
  const resolutions = r.resolutions(folderKey(doc.uri));
  for (const f of readCaseFacts(doc)) {
    const tools = f.value.tools;
    // Arrays of their exact length (`map`, `new Array(n)`): one grown by `push` keeps room for
    // seventeen entries, and there are two per case.
    if (Array.isArray(tools) && f.uses.length === 0 && tools.length) f.uses = new Array(2 * tools.length);
    const uses: ToolUse[] = Array.isArray(tools) ? tools.map((entry: unknown, i) => resolveUse(r, doc, f, entry, i, resolutions)) : [];
    // A case whose references all resolve as before is the same model as before: rules that key
    // their own caches on it keep them.
    const env = f.value.environment === undefined ? undefined : resolveEnvUse(r, doc, f);
    let c = f.model;
    if (!c || c.environment !== env || c.tools.length !== uses.length || c.tools.some((u, i) => u !== uses[i])) {
      c = caseModel(doc, f, uses, env);
      f.model = c;
    } else if (c.doc !== doc) {
      // The same case in the document's new version (readCaseFacts): the model moves to it.
      c.doc = doc;
    }
    out.push(c);
  }
  return out;
}

const BY_ID: Grouping<string, CaseModel> = {
  keys: (c, visit) => c.id !== undefined && visit(c.id),
  entries: (c, add) => c.id !== undefined && add(c.id, c),
  caseOf: (c) => c,
};
const BY_FAMILY: Grouping<string, CaseModel> = {
  keys: (c, visit) => c.family !== undefined && visit(c.family),
  entries: (c, add) => c.family !== undefined && add(c.family, c),
  caseOf: (c) => c,
};
const BY_TOOL: Grouping<ToolModel, { case: CaseModel; use: ToolUse }> = {
  keys: (c, visit) => {
    for (const use of c.tools) if (use.tool) visit(use.tool);
  },
  entries: (c, add) => {
    for (const use of c.tools) if (use.tool) add(use.tool, { case: c, use });
  },
  caseOf: (u) => u.case,
};

/**
 * What buildIndex keeps beside each index it returns, so that the next build from it updates the
 * maps for the files that changed instead of rebuilding them over every case.
 */
interface IndexMemory {
  /** The options as text: another value re-indexes from scratch. */
  options: string;
  /** Every document's position. */
  rank: Map<string, number>;
  /** The case models of every case file, in order. */
  byDoc: Map<string, CaseModel[]>;
  /** Which case files reference each target file (normalised URIs). */
  referrers: Map<string, Set<string>>;
  /** The case files with a case that carries an inline tool (see inlineToolDocs). */
  inline: ReadonlySet<string>;
  /** The config documents, in the index's order (an update never changes them: see updateIndex). */
  configs: readonly SuiteDocument[];
  /** Identifies the index for `changedSince`. */
  serial: number;
  /** The index this one was updated from, and the files whose documents or case models differ from it. */
  delta?: { from: number; uris: ReadonlySet<string> };
}

const memories = new WeakMap<WorkspaceIndex, IndexMemory>();
let serials = 0;

function optionsKey(o: IndexOptions): string {
  return JSON.stringify([o.roots ?? [], [...(o.readErrors ?? [])], o.baseConfig ?? null, o.configOverride ?? null, o.confineTo ?? null, [...(o.outsideWorkspace ?? [])].sort()]);
}

function isCaseFile(doc: SuiteDocument): boolean {
  return doc.kind === 'cases' || doc.kind === 'caseLines';
}

/**
 * Builds the cross-file index from documents that are already read. Pure and synchronous.
 *
 * Given the `previous` index of the same files (same paths in the same order, same options), only
 * the changed documents and the case files that reference a changed tool file are re-read, and the
 * maps are updated rather than rebuilt; the result is equal to a from-scratch build, order included.
 */
export function buildIndex(documents: Iterable<SuiteDocument>, options: IndexOptions = {}, previous?: WorkspaceIndex): WorkspaceIndex {
  const docs = new Map<string, SuiteDocument>();
  for (const d of documents) docs.set(d.uri, d);
  const key = optionsKey(options);
  const memory = previous && memories.get(previous);
  // In another order the same documents make another index: the workspace's order is what
  // findings that name cases in order read (the closest ids a dangling reference suggests).
  if (previous && memory && memory.options === key && docs.size === previous.docs.size && sameOrder(docs, previous.docs)) {
    const updated = updateIndex(previous, memory, docs, docs, options);
    if (updated) return updated;
  }
  return freshIndex(docs, options, key);
}

/**
 * `buildIndex(docs.values(), options, previous)` for a host that knows which entries of `docs` it
 * replaced (`reread`, URI and document) and hands `docs` over (it no longer changes the map): only
 * those are compared with `previous`. In a workspace of one case per file, copying and comparing
 * every document was a tenth of an edit.
 */
export function reindex(previous: WorkspaceIndex, docs: Map<string, SuiteDocument>, reread: readonly (readonly [string, SuiteDocument])[], options: IndexOptions = {}): WorkspaceIndex {
  const key = optionsKey(options);
  const memory = memories.get(previous);
  if (memory && memory.options === key && docs.size === previous.docs.size && reread.every(([uri, d]) => d.uri === uri && docs.get(uri) === d)) {
    const updated = updateIndex(previous, memory, docs, reread, options);
    if (updated) return updated;
  }
  return buildIndex(docs.values(), options, previous);
}

/** Whether a case carries a usable inline tool: its name takes part in every tool scan. */
export function hasInlineTool(c: CaseModel): boolean {
  return c.tools.some((u) => u.inline && u.tool);
}

/**
 * The case files of an index that hold a case with an inline tool (in no order): the injection
 * rules' narrowed view gathers those cases without asking every document. Undefined for an index
 * this module did not build.
 */
export function inlineToolDocs(index: WorkspaceIndex): ReadonlySet<string> | undefined {
  return memories.get(index)?.inline;
}

/** The index's `litmus.config.json` documents, in its order: kept with the index, since hosts ask after every edit. */
export function configDocuments(index: WorkspaceIndex): readonly SuiteDocument[] {
  return memories.get(index)?.configs ?? [...index.docs.values()].filter((d) => d.kind === 'config');
}

/** The documents of `uris` that the index holds, in the index's order (sorted by position, not found by a walk of every document). */
export function inIndexOrder(index: WorkspaceIndex, uris: Iterable<string>): string[] {
  const rank = memories.get(index)?.rank;
  if (!rank) {
    const wanted = new Set(uris);
    return [...index.docs.keys()].filter((uri) => wanted.has(uri));
  }
  const list: string[] = [];
  for (const uri of uris) if (index.docs.has(uri) && rank.has(uri)) list.push(uri);
  return list.sort((a, b) => rank.get(a)! - rank.get(b)!);
}

/**
 * Whether the documents both maps hold come in the same order in each. A host that removes a
 * document and adds it back (a file deleted and restored between two lints) moves it to the end
 * of its map; findings that name cases in the workspace's order may then read otherwise.
 */
export function sameOrder(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  const ia = a.keys();
  const ib = b.keys();
  for (;;) {
    let x = ia.next();
    while (!x.done && !b.has(x.value)) x = ia.next();
    let y = ib.next();
    while (!y.done && !a.has(y.value)) y = ib.next();
    if (x.done || y.done) return x.done === y.done;
    if (x.value !== y.value) return false;
  }
}

/** The files whose documents or case models differ between `index` and `earlier`, when `index` was updated from it. */
export function changedSince(index: WorkspaceIndex, earlier: WorkspaceIndex): ReadonlySet<string> | undefined {
  const memory = memories.get(index);
  if (index === earlier) return new Set();
  const from = memories.get(earlier)?.serial;
  return memory?.delta && memory.delta.from === from ? memory.delta.uris : undefined;
}

/** The case models of each case file of an index, in order. */
export function casesByDoc(index: WorkspaceIndex): ReadonlyMap<string, readonly CaseModel[]> {
  const known = memories.get(index)?.byDoc;
  if (known) return known;
  const out = new Map<string, CaseModel[]>();
  for (const c of index.cases) pushTo(out, c.doc.uri, c);
  return out;
}

function freshIndex(docs: Map<string, SuiteDocument>, options: IndexOptions, key: string): WorkspaceIndex {
  const toolFiles = new Map<string, ToolFile>();
  const envFiles = new Map<string, EnvironmentFile>();
  const configDocs = new Map<string, SuiteDocument>();
  // Every config, not one per folder: a file that names the config schema by `$schema` is one too.
  const configs: SuiteDocument[] = [];
  const harnessDocs = new Map<string, SuiteDocument>();
  const rank = new Map<string, number>();
  for (const doc of docs.values()) {
    rank.set(doc.uri, rank.size);
    if (doc.kind === 'tools') toolFiles.set(normalizeUri(doc.uri), readToolFile(doc));
    else if (doc.kind === 'environment') envFiles.set(normalizeUri(doc.uri), readEnvironmentFile(doc));
    else if (doc.kind === 'config') {
      configDocs.set(normalizeUri(dirnameUri(doc.uri)), doc);
      configs.push(doc);
    }
    else if (doc.kind === 'harness') harnessDocs.set(normalizeUri(dirnameUri(doc.uri)), doc);
  }

  const r = resolver(docs, toolFiles, envFiles, options);
  const cases: CaseModel[] = [];
  const byDoc = new Map<string, CaseModel[]>();
  const referrers = new Map<string, Set<string>>();
  const inline = new Set<string>();
  for (const doc of docs.values()) {
    if (!isCaseFile(doc)) continue;
    const models = modelsOf(r, doc);
    byDoc.set(doc.uri, models);
    if (models.some(hasInlineTool)) inline.add(doc.uri);
    for (const t of referencedBy(doc)) addReferrer(referrers, t, doc.uri);
    // One by one: spreading a 200,000-line file into push() would overflow the call stack.
    for (const c of models) cases.push(c);
  }
  const { casesById, families, toolUsers } = groupCases(cases);

  const base = mergeConfig(defaultConfig(), options.baseConfig);
  const configCache = new Map<string, ResolvedConfig>();
  const configForDir = (dir: string): ResolvedConfig => {
    const cached = configCache.get(dir);
    if (cached) return cached;
    const doc = configDocs.get(dir);
    const parent = dirnameUri(dir);
    const resolved = doc ? mergeConfig(base, readConfig(doc)) : parent === dir ? base : configForDir(parent);
    configCache.set(dir, resolved);
    return resolved;
  };
  const overridden = options.configOverride ? mergeConfig(base, options.configOverride) : undefined;
  // Asked for every finding and every tool: a map lookup instead of two URI computations.
  const configByUri = new Map<string, ResolvedConfig>();

  const nearest = (map: Map<string, SuiteDocument>, uri: string): SuiteDocument | undefined => {
    let dir = normalizeUri(dirnameUri(uri));
    for (;;) {
      const found = map.get(dir);
      if (found) return found;
      const parent = normalizeUri(dirnameUri(dir));
      if (parent === dir) return undefined;
      dir = parent;
    }
  };

  const index: WorkspaceIndex = {
    docs,
    cases,
    casesById,
    families,
    toolFiles,
    envFiles,
    toolUsers,
    readErrors: r.readErrors,
    roots: options.roots ?? [],
    configFor: (uri) => overridden ?? configByUri.get(uri) ?? remember(configByUri, uri, configForDir(normalizeUri(dirnameUri(uri)))),
    harnessFor: (uri) => nearest(harnessDocs, uri),
    // concat, not a spread: a spread array keeps room for 16 more steps, and findings keep their paths.
    casePath: (c, ...rest) => c.path.concat(rest),
  };
  memories.set(index, { options: key, rank, byDoc, referrers, inline, configs, serial: ++serials });
  return index;
}

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  return value;
}

type Groups = Pick<WorkspaceIndex, 'casesById' | 'families' | 'toolUsers'>;

/** Each grouped map over `cases` in order, as a from-scratch build makes it. */
const GROUPINGS: { readonly [K in keyof Groups]: (cases: readonly CaseModel[]) => Groups[K] } = {
  casesById(cases) {
    const map = new Map<string, CaseModel[]>();
    for (const c of cases) if (c.id !== undefined) pushTo(map, c.id, c);
    return map;
  },
  families(cases) {
    const map = new Map<string, CaseModel[]>();
    for (const c of cases) if (c.family !== undefined) pushTo(map, c.family, c);
    return map;
  },
  toolUsers(cases) {
    const map = new Map<ToolModel, { case: CaseModel; use: ToolUse }[]>();
    for (const c of cases) for (const use of c.tools) if (use.tool) pushTo(map, use.tool, { case: c, use });
    return map;
  },
};

/** The index's grouped maps, built from scratch over `cases` in order. */
export function groupCases(cases: readonly CaseModel[]): Groups {
  return { casesById: GROUPINGS.casesById(cases), families: GROUPINGS.families(cases), toolUsers: GROUPINGS.toolUsers(cases) };
}

/**
 * `index` with its grouped maps over `cases` as getters, each built on its first read: a narrowed
 * view whose rules read one map (a family rule, the injection analysis's tool users) builds that
 * one, and a view for signatures or copies builds none.
 */
export function withLazyGroups<T extends Groups>(index: T, cases: readonly CaseModel[]): T {
  const lazy = <K extends keyof Groups>(key: K): PropertyDescriptor => {
    let built: Groups[K] | undefined;
    return { get: () => (built ??= GROUPINGS[key](cases)), configurable: true, enumerable: true };
  };
  return Object.defineProperties(index, { casesById: lazy('casesById'), families: lazy('families'), toolUsers: lazy('toolUsers') });
}

/**
 * Gives `index` grouped maps of its own again after an update took its maps over: rebuilt from its
 * cases the first time they are read, which only happens when an index is read after a newer one
 * was built from it (a lint cancelled part-way).
 */
function releaseMaps(index: WorkspaceIndex): void {
  withLazyGroups(index, index.cases);
}

function addReferrer(referrers: Map<string, Set<string>>, target: string, uri: string): void {
  const set = referrers.get(target);
  if (set) set.add(uri);
  else referrers.set(target, new Set([uri]));
}

/**
 * The previous index with the changed files' documents swapped in. Undefined when the change is
 * not one it can follow (a file added, removed, renamed, or changed kind; a config or harness file
 * changed, since the options of every file depend on them): then the caller builds afresh.
 */
function updateIndex(previous: WorkspaceIndex, memory: IndexMemory, docs: Map<string, SuiteDocument>, candidates: Iterable<readonly [string, SuiteDocument]>, options: IndexOptions): WorkspaceIndex | undefined {
  const changedDocs: SuiteDocument[] = [];
  for (const [uri, doc] of candidates) {
    const was = previous.docs.get(uri);
    if (was === doc) continue;
    if (!was || was.kind !== doc.kind || doc.kind === 'config' || doc.kind === 'harness') return undefined;
    changedDocs.push(doc);
  }
  if (changedDocs.length === 0) return previous;

  let toolFiles = previous.toolFiles;
  let envFiles = previous.envFiles;
  let referrers = memory.referrers;
  const reresolve = new Set<string>();
  for (const doc of changedDocs) {
    if (doc.kind === 'tools') {
      if (toolFiles === previous.toolFiles) toolFiles = new Map(toolFiles);
      const target = normalizeUri(doc.uri);
      toolFiles.set(target, readToolFile(doc));
      // References into a changed tool file may resolve differently now.
      for (const uri of memory.referrers.get(target) ?? []) reresolve.add(uri);
    } else if (doc.kind === 'environment') {
      if (envFiles === previous.envFiles) envFiles = new Map(envFiles);
      const target = normalizeUri(doc.uri);
      envFiles.set(target, readEnvironmentFile(doc));
      // A case's environment use holds the file object: the referencing cases get new models.
      for (const uri of memory.referrers.get(target) ?? []) reresolve.add(uri);
    } else if (isCaseFile(doc)) {
      reresolve.add(doc.uri);
      const before = referencedBy(previous.docs.get(doc.uri)!);
      const after = referencedBy(doc);
      if (before !== after) {
        if (referrers === memory.referrers) referrers = new Map(referrers);
        // Copy on write: the previous index keeps its own sets.
        for (const t of before) {
          const set = new Set(referrers.get(t));
          set.delete(doc.uri);
          if (set.size) referrers.set(t, set);
          else referrers.delete(t);
        }
        for (const t of after) referrers.set(t, new Set(referrers.get(t)).add(doc.uri));
      }
    }
  }

  const r = resolver(docs, toolFiles, envFiles, options);
  const changed = new Map<string, DocCases>();
  const uris = new Set(changedDocs.map((d) => d.uri));
  let byDoc = memory.byDoc;
  for (const uri of reresolve) {
    const before = memory.byDoc.get(uri) ?? [];
    const after = modelsOf(r, docs.get(uri)!);
    if (sameItems(after, before)) continue;
    if (byDoc === memory.byDoc) byDoc = new Map(byDoc);
    byDoc.set(uri, after);
    changed.set(uri, { before, after });
    uris.add(uri);
  }

  let { cases, casesById, families, toolUsers } = previous;
  if (changed.size) {
    cases = [];
    for (const models of byDoc.values()) for (const c of models) cases.push(c);
    const rank = (uri: string) => memory.rank.get(uri) ?? -1;
    // Copying maps of every id in the workspace would cost more than the update itself: the new
    // index takes the previous one's maps over, and the previous one rebuilds its own if read.
    casesById = regroup(casesById, BY_ID, changed, rank, cases);
    families = regroup(families, BY_FAMILY, changed, rank, cases);
    toolUsers = regroup(toolUsers, BY_TOOL, changed, rank, cases);
  }
  const index: WorkspaceIndex = { ...previous, docs, cases, casesById, families, toolFiles, envFiles, toolUsers, readErrors: r.readErrors };
  if (changed.size) releaseMaps(previous);
  // Copied only when a changed file gains or loses an inline tool: the previous index keeps its set.
  let inline: Set<string> | undefined;
  for (const [uri, { after }] of changed) {
    if (after.some(hasInlineTool) === memory.inline.has(uri)) continue;
    inline ??= new Set(memory.inline);
    if (memory.inline.has(uri)) inline.delete(uri);
    else inline.add(uri);
  }
  memories.set(index, { options: memory.options, rank: memory.rank, byDoc, referrers, inline: inline ?? memory.inline, configs: memory.configs, serial: ++serials, delta: { from: memory.serial, uris } });
  return index;
}

function resolveReference(fromUri: string, ref: string, r: Resolver): Omit<ToolUse, 'path'> {
  const parsed = parseToolReference(ref);
  if (!parsed) return { ref, inline: false, problem: 'malformed' };
  let targetUri: string;
  try {
    targetUri = resolveTarget(fromUri, parsed.path);
  } catch {
    return { ref, inline: false, problem: 'malformed' };
  }
  const use: Omit<ToolUse, 'path'> = { ref, inline: false, targetUri, targetName: parsed.name };
  // Checked first: a file outside was never read, so "missing" or "unreadable" would mislead.
  if (r.outside(targetUri)) {
    use.problem = 'outside-workspace';
    return use;
  }
  if (r.readErrors.has(targetUri)) {
    use.problem = 'unreadable';
    return use;
  }
  const file = r.toolFiles.get(targetUri);
  if (!file) {
    use.problem = r.docs.has(targetUri) ? 'not-a-tool-file' : 'missing-file';
    return use;
  }
  const tool = file.byName.get(parsed.name)?.[0];
  if (!tool) use.problem = 'missing-tool';
  // One literal, as placedUse makes it: a property added later would go to a second store.
  else return { ref, inline: false, targetUri, targetName: parsed.name, tool };
  return use;
}

/** Every environment-file URI the cases of these documents reference (the loader reads them as environment files). */
export function referencedEnvironmentFiles(docs: Iterable<SuiteDocument>): Set<string> {
  const out = new Set<string>();
  for (const doc of docs) {
    if (doc.kind !== 'cases' && doc.kind !== 'caseLines') continue;
    referencedBy(doc);
    for (const t of environmentsCache.get(doc) ?? NO_TARGETS) out.add(t);
  }
  return out;
}

const NO_TARGETS: readonly string[] = [];
/** The environment files among `referencedBy`'s targets, per document. */
const environmentsCache = new WeakMap<SuiteDocument, readonly string[]>();

/** Every file URI the cases of these documents reference, tools and environments (for loading referenced files). */
export function referencedToolFiles(docs: Iterable<SuiteDocument>): Set<string> {
  const out = new Set<string>();
  for (const doc of docs) {
    if (doc.kind !== 'cases' && doc.kind !== 'caseLines') continue;
    for (const uri of referencedBy(doc)) out.add(uri);
  }
  return out;
}

const referencedCache = new WeakMap<SuiteDocument, string[]>();

/** The tool and environment files one document's cases reference (normalised, each once), computed once per document. */
export function referencedBy(doc: SuiteDocument): readonly string[] {
  const cached = referencedCache.get(doc);
  if (cached) return cached;
  const out = new Set<string>();
  const environments = new Set<string>();
  // The cases of a file name the same few dozen references again and again: each text once.
  const seen = new Set<string>();
  const seenEnv = new Set<string>();
  for (const c of readCaseFacts(doc)) {
    const envRef = c.value.environment;
    if (typeof envRef === 'string' && !seenEnv.has(envRef)) {
      seenEnv.add(envRef);
      const env = environmentTarget(doc.uri, envRef);
      if (env) {
        out.add(env);
        environments.add(env);
      }
    }
    const tools = c.value.tools;
    if (!Array.isArray(tools)) continue;
    for (let i = 0; i < tools.length; i++) {
      const entry: unknown = tools[i];
      if (typeof entry !== 'string' || seen.has(entry)) continue;
      seen.add(entry);
      const parsed = parseToolReference(entry);
      if (!parsed) continue;
      try {
        out.add(resolveTarget(doc.uri, parsed.path));
      } catch {
        // malformed: unresolved-reference reports it
      }
    }
  }
  const list = [...out];
  referencedCache.set(doc, list);
  environmentsCache.set(doc, environments.size ? [...environments] : NO_TARGETS);
  return list;
}
