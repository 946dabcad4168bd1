import { detectKind, type FileKind } from './kinds';
import { parseJson, parseJsonLines, type ParsedText } from '../text/parse';
import { LineIndex } from '../text/lines';

/** One file as core sees it: its text, kind, line index and parsed values (trees built as walked). Immutable once built. */
export interface SuiteDocument {
  uri: string;
  kind: FileKind;
  text: string;
  /** The editor's version when the text came from an open buffer. */
  version?: number;
  lines: LineIndex;
  parsed: ParsedText;
}

/**
 * The last document built per URI. Documents are immutable, so when the same text comes back (the
 * editor re-reads a workspace after every change, most files unchanged) the values, the parts of
 * trees already walked and the per-file facts hung off the old document are reused instead of
 * rebuilt. Comparing the text itself is exact (no hash collisions) and costs a memory compare only
 * when the lengths are equal.
 */
const recent = new Map<string, SuiteDocument>();
/** Enough for a 50k-case workspace several times over; beyond it the oldest entries are dropped. */
const MAX_RECENT = 20_000;

function remember<D extends SuiteDocument>(doc: D): D {
  recent.delete(doc.uri);
  recent.set(doc.uri, doc);
  if (recent.size > MAX_RECENT) recent.delete(recent.keys().next().value as string);
  return doc;
}

/**
 * A document whose line index is built the first time a position is asked for. A class rather
 * than an object literal: V8 builds a literal with a getter in dictionary mode, which made every
 * document about 0.4 KB larger and every read of `uri` or `text` a hash lookup.
 */
class Document implements SuiteDocument {
  #lines: LineIndex | undefined;
  /** The line table of the version this one edits, until this one's is built from it. */
  #previousLines: LineIndex | undefined;
  constructor(
    readonly uri: string,
    readonly kind: FileKind,
    readonly text: string,
    readonly version: number | undefined,
    readonly parsed: ParsedText,
  ) {}

  /** Most files of a large workspace never get a diagnostic; their line tables are never needed. */
  get lines(): LineIndex {
    if (!this.#lines) {
      this.#lines = this.#previousLines ? LineIndex.after(this.#previousLines, this.text) : new LineIndex(this.text);
      this.#previousLines = undefined;
    }
    return this.#lines;
  }

  /** This version edits `previous`: its line table, if it has one, is where this one's starts from (text/lines.ts). */
  edits(previous: SuiteDocument): void {
    if (previous instanceof Document) this.#previousLines = previous.#lines ?? previous.#previousLines;
  }
}

export function createDocument(uri: string, text: string, kind?: FileKind, version?: number): SuiteDocument | undefined {
  const k = kind ?? detectKind(uri, text);
  if (!k) return undefined;
  const previous = recent.get(uri);
  if (previous && previous.kind === k && previous.text === text) {
    if (previous.version === version) return previous;
    // Same text, new editor version: share the trees, but fixes must carry the new version.
    return succeeding(remember(new Document(uri, k, text, version, previous.parsed)), previous);
  }
  // An edit of the file: what it left unchanged keeps its values, and all that is kept per value.
  const before = previous && previous.kind === k ? previous : undefined;
  const parsed = k === 'caseLines' ? parseJsonLines(text, before) : parseJson(text, before);
  const doc = remember(new Document(uri, k, text, version, parsed));
  return before ? succeeding(doc, before) : doc;
}

/**
 * A case file's new version to the version it shares values with, until the index first reads its
 * cases (model/workspace.ts): the cases an edit kept keep their facts and models. Taken once, so a
 * version never holds on to the chain of those before it.
 */
const predecessors = new WeakMap<SuiteDocument, SuiteDocument>();

/** `doc` is the next version of `previous`: it starts its line table and (a case file) its cases' facts from it. */
function succeeding(doc: Document, previous: SuiteDocument): SuiteDocument {
  doc.edits(previous);
  if (doc.kind === 'cases' || doc.kind === 'caseLines') predecessors.set(doc, previous);
  return doc;
}

/** The version a case file's document continues (its values shared by the parse), once; undefined after. */
export function takePredecessor(doc: SuiteDocument): SuiteDocument | undefined {
  const previous = predecessors.get(doc);
  if (previous) predecessors.delete(doc);
  return previous;
}


/**
 * The plain value of one usable root (undefined for a broken one), built once per parse and shared
 * by the index and every rule. Treat it as read-only: everyone sees the same objects.
 */
export function rootValue(doc: SuiteDocument, root: number): unknown {
  const r = doc.parsed.roots[root];
  return r && !r.broken ? r.value : undefined;
}

/** Stands in for a file that could not be read, so the failure is reported on it like any other. */
export function unreadableDocument(uri: string, kind: FileKind, reason: string): SuiteDocument {
  return {
    uri,
    kind,
    text: '',
    lines: new LineIndex(''),
    parsed: { roots: [], issues: [{ offset: 0, length: 0, message: `cannot read this file: ${reason}` }] },
  };
}

/** Drops the document kept for `uri` (an editor buffer was closed): nothing else may need it. */
export function forgetDocument(uri: string): void {
  recent.delete(uri);
}
