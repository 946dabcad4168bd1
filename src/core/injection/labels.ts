import { rootValue, type SuiteDocument } from '../model/document';
import { parsePointer, pathInValue, pathStartsWith } from '../text/pointer';
import type { JsonPath } from '../text/types';
import { decodeLocationPath, normalizeUri, resolveTarget } from '../model/uri';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';

/** One `injection_field` string of a case, resolved. */
export interface Label {
  case: CaseModel;
  /** Path of the label string in the case's document root. */
  path: JsonPath;
  text: string;
  /** Where it points, when it resolved to an existing value. */
  target?: { uri: string; root: number; path: JsonPath };
  /**
   * Why it did not resolve. `not-a-label-file`: its file is loaded but is neither a tool-schema nor
   * an environment file (FORMAT §4): a case file's payloads are labelled by `#/…` in their own case.
   */
  problem?: 'malformed' | 'missing-file' | 'missing-value' | 'broken-file' | 'not-a-label-file';
  /** The file it names (normalised), when well-formed. */
  targetUri?: string;
  /**
   * It points into a data surface (FORMAT §4: `tool_outputs`, an environment, overrides, `task`),
   * where the author's label is trusted while it resolves to a string or a value holding strings.
   */
  dataSurface?: boolean;
  /**
   * It points into a case's own fields, but beside the text its surfaces scan (FORMAT §3a): a tool
   * output's `tool` or `arguments`, the reference string of an environment file, the overrides
   * object around its values. No payload can sit there, so the label is stale.
   */
  offSurface?: boolean;
  /** The value it resolves to is a string or holds one. */
  holdsStrings?: boolean;
}

/** The fields of a case that hold data surfaces, as the first step of a `#/…` label. */
const CASE_DATA_FIELDS = new Set(['tool_outputs', 'environment', 'environment_overrides', 'task']);

/**
 * Whether a `#/…` label's path (from the case) lies in the text a surface scans (FORMAT §3a): a tool
 * output's `output`, an inline environment, an override's value, the task. Labels elsewhere in those
 * fields name what the agent does not read as data: a tool's name, call arguments, a file path.
 */
function onCaseSurface(caseValue: Record<string, unknown>, rel: JsonPath): boolean {
  switch (rel[0]) {
    case 'task':
      return true;
    case 'environment':
      return typeof caseValue.environment !== 'string';
    case 'environment_overrides':
      return rel.length >= 2;
    case 'tool_outputs':
      return rel.length >= 3 && rel[2] === 'output';
    default:
      return false;
  }
}

function valueAt(doc: SuiteDocument, root: number, path: JsonPath): unknown {
  let v: unknown = rootValue(doc, root);
  for (const step of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

function holdsString(v: unknown, depth = 0): boolean {
  if (typeof v === 'string') return true;
  if (depth > 200 || v === null || typeof v !== 'object') return false;
  for (const x of Object.values(v)) if (holdsString(x, depth + 1)) return true;
  return false;
}

function markData(label: Label, doc: SuiteDocument, data: boolean): Label {
  if (!data || !label.target) return label;
  label.dataSurface = true;
  label.holdsStrings = holdsString(valueAt(doc, label.target.root, label.target.path));
  return label;
}

/** The label strings of a case: a string, or each string of an array (anything else is the schema rule's). */
export function labelStrings(c: CaseModel): { path: JsonPath; text: string }[] {
  const v = c.value.injection_field;
  // Asked of every case a lint reads; most have no label, and no path is built for them.
  if (v === undefined) return [];
  const base = c.path.concat('injection_field');
  if (typeof v === 'string') return [{ path: base, text: v }];
  if (Array.isArray(v)) return v.flatMap((s, i) => (typeof s === 'string' ? [{ path: base.concat(i), text: s }] : []));
  return [];
}

/** Resolved on the value, as rules read it: no parse tree is built for a label (ranges come at the end). */
function resolveIn(doc: SuiteDocument, root: number, prefix: JsonPath, tokens: string[]): JsonPath | undefined {
  const r = doc.parsed.roots[root];
  if (!r || r.broken) return undefined;
  const rel = pathInValue(valueAt(doc, root, prefix), tokens);
  return rel ? prefix.concat(rel) : undefined;
}

/** A label that resolved to `path` inside its own case: a surface's text (trusted), beside it, or an inline tool. */
function inOwnCase(label: Label, path: JsonPath): Label {
  const c = label.case;
  label.target = { uri: c.doc.uri, root: c.root, path };
  const rel = path.slice(c.path.length);
  if (typeof rel[0] !== 'string' || !CASE_DATA_FIELDS.has(rel[0])) return label;
  if (!onCaseSurface(c.value, rel)) {
    label.offSurface = true;
    return label;
  }
  return markData(label, c.doc, true);
}

/** Resolves `#/pointer` (into the case object) or `<relative path>#/pointer` (into a tool-schema or environment file). */
export function resolveLabel(index: WorkspaceIndex, c: CaseModel, path: JsonPath, text: string): Label {
  const label: Label = { case: c, path, text };
  const hash = text.indexOf('#');
  const tokens = hash >= 0 ? parsePointer(text.slice(hash + 1)) : undefined;
  if (!tokens) {
    label.problem = 'malformed';
    return label;
  }
  const file = decodeLocationPath(text.slice(0, hash));
  if (file === '') {
    const found = resolveIn(c.doc, c.root, c.path, tokens);
    if (!found) {
      label.problem = 'missing-value';
      return label;
    }
    return inOwnCase(label, found);
  }
  let uri: string;
  try {
    uri = resolveTarget(c.doc.uri, file);
  } catch {
    label.problem = 'malformed';
    return label;
  }
  label.targetUri = uri;
  const doc = targetDoc(index, uri);
  if (!doc) {
    label.problem = 'missing-file';
    return label;
  }
  const root = doc.parsed.roots[0];
  if (doc.kind !== 'tools' && doc.kind !== 'environment') {
    // FORMAT §4: a path names a tool-schema or environment file. Into a case file it would label
    // another case's own payload, which counts for that case alone (§3a), and hide both findings;
    // the case's own file and place spelt out is the case's `#/…` (principal-confusion reads it so).
    const own = doc === c.doc && c.root === 0 && root && !root.broken ? resolveIn(doc, 0, [], tokens) : undefined;
    if (own && own.length >= c.path.length && pathStartsWith(own, c.path)) return inOwnCase(label, own);
    label.problem = 'not-a-label-file';
    return label;
  }
  if (!root || root.broken) {
    // `parse-error` already reports the file; a label into it cannot be judged until it parses.
    label.problem = 'broken-file';
    return label;
  }
  const found = resolveIn(doc, 0, [], tokens);
  if (found) label.target = { uri: doc.uri, root: 0, path: found };
  else label.problem = 'missing-value';
  return markData(label, doc, doc.kind === 'environment');
}

/**
 * The documents of an index by their normalised URIs (the first of any that share one), made once
 * per documents map: a label into a missing file looked at every document, and 5,000 cases each
 * with such a label took seconds.
 */
const byNormalUri = new WeakMap<WorkspaceIndex['docs'], { size: number; docs: Map<string, SuiteDocument> }>();

/** The document a label's file names (a normalised URI), in the index. */
function targetDoc(index: WorkspaceIndex, uri: string): SuiteDocument | undefined {
  const direct = index.docs.get(uri);
  if (direct) return direct;
  let kept = byNormalUri.get(index.docs);
  if (!kept || kept.size !== index.docs.size) {
    const docs = new Map<string, SuiteDocument>();
    for (const d of index.docs.values()) {
      const u = normalizeUri(d.uri);
      if (!docs.has(u)) docs.set(u, d);
    }
    byNormalUri.set(index.docs, (kept = { size: index.docs.size, docs }));
  }
  return kept.docs.get(uri);
}

const NO_LABELS: readonly Label[] = [];

/**
 * The labels of each case, resolved, kept per case model (the same object while its document and
 * references are unchanged): the analysis and two rules read them, and the server re-judges every
 * case near an edit, most of them unchanged. A label into another file depends on that file's
 * document too: it is kept with the document it resolved against, and resolved again when the
 * index holds another. Read-only: every reader shares them.
 */
const resolved = new WeakMap<CaseModel, { labels: readonly Label[]; against: (SuiteDocument | undefined)[] }>();

export function caseLabels(index: WorkspaceIndex, c: CaseModel): readonly Label[] {
  // Most cases have no label, and keep no entry.
  if (c.value.injection_field === undefined) return NO_LABELS;
  const kept = resolved.get(c);
  if (kept && kept.labels.every((l, i) => l.targetUri === undefined || targetDoc(index, l.targetUri) === kept.against[i])) return kept.labels;
  const labels = labelStrings(c).map((l) => resolveLabel(index, c, l.path, l.text));
  resolved.set(c, { labels, against: labels.map((l) => (l.targetUri === undefined ? undefined : targetDoc(index, l.targetUri))) });
  return labels;
}

/**
 * Whether a label names a payload. Lenient: the payload string itself, or the array or object
 * value (inside its keyword) that contains it.
 */
export function labelCovers(target: { uri: string; root: number; path: JsonPath }, hit: { uri: string; root: number; path: JsonPath; slotPath: JsonPath }): boolean {
  return target.uri === hit.uri && target.root === hit.root && target.path.length >= hit.slotPath.length && pathStartsWith(hit.path, target.path);
}

type Located = { uri: string; root: number; path: JsonPath; slotPath: JsonPath };

/**
 * A step of the paths filed so far, with the hits that a target ending here covers. The steps below
 * it are one (`step`, `only`) until a second is filed, then a map (`next`): below a case's slot
 * nearly every step has one, and a map at each was most of the index (3.4 MB at the rich 10k).
 */
interface PlaceNode<H> {
  step: string | number | undefined;
  only: PlaceNode<H> | undefined;
  next: Map<string | number, PlaceNode<H>> | undefined;
  hits: H[] | undefined;
}

function placeNode<H>(): PlaceNode<H> {
  return { step: undefined, only: undefined, next: undefined, hits: undefined };
}

function below<H>(node: PlaceNode<H>, step: string | number): PlaceNode<H> | undefined {
  return node.only !== undefined ? (node.step === step ? node.only : undefined) : node.next?.get(step);
}

function fileBelow<H>(node: PlaceNode<H>, step: string | number): PlaceNode<H> {
  const child = placeNode<H>();
  if (node.only === undefined && node.next === undefined) {
    node.step = step;
    node.only = child;
    return child;
  }
  if (node.only !== undefined) {
    node.next = new Map([[node.step!, node.only]]);
    node.step = undefined;
    node.only = undefined;
  }
  node.next!.set(step, child);
  return child;
}

/**
 * The hits each label target covers (exactly `labelCovers`), by lookup. A hit is filed under every
 * prefix of its path at least as long as its slot path (the targets that cover it), in a tree of
 * path steps: no key is built from a path, so a hostile file's megabyte-long keys cost their length
 * once, not once per depth. Pairing every label with every hit of its file was quadratic, and a
 * suite file of a thousand cases, each with its label and its planted payload (an InjecAgent
 * import), spent most of an edit there.
 */
export function coverIndex<H extends Located>(hits: Iterable<H>): (target: { uri: string; root: number; path: JsonPath }) => readonly H[] {
  const roots = new Map<string, PlaceNode<H>>();
  for (const hit of hits) {
    const key = `${hit.root}\u0000${hit.uri}`;
    let node = roots.get(key);
    if (!node) roots.set(key, (node = placeNode()));
    for (let i = 0; i <= hit.path.length; i++) {
      // Most places hold one hit: a list of one, not one grown by push (room for seventeen).
      if (i >= hit.slotPath.length) {
        if (node.hits) node.hits.push(hit);
        else node.hits = [hit];
      }
      if (i === hit.path.length) break;
      const step = hit.path[i];
      node = below(node, step) ?? fileBelow(node, step);
    }
  }
  return (target) => {
    let node = roots.get(`${target.root}\u0000${target.uri}`);
    for (let i = 0; node && i < target.path.length; i++) node = below(node, target.path[i]);
    return node?.hits ?? [];
  };
}
