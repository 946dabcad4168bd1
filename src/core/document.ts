import type { Node } from 'jsonc-parser';
import { detectKind, type FileKind } from './kinds';
import { parseJson, parseJsonLines, type ParsedText } from './parse';
import { LineIndex } from './text';

/** One file as core sees it: its text, kind, line index and parse trees. Immutable once built. */
export interface SuiteDocument {
  uri: string;
  kind: FileKind;
  text: string;
  /** The editor's version when the text came from an open buffer. */
  version?: number;
  lines: LineIndex;
  parsed: ParsedText;
}

export function createDocument(uri: string, text: string, kind?: FileKind, version?: number): SuiteDocument | undefined {
  const k = kind ?? detectKind(uri, text);
  if (!k) return undefined;
  const parsed = k === 'caseLines' ? parseJsonLines(text) : parseJson(text);
  return { uri, kind: k, text, version, lines: new LineIndex(text), parsed };
}

/** The usable tree of a JSON (not JSONL) document. */
export function rootNode(doc: SuiteDocument): Node | undefined {
  const root = doc.parsed.roots[0];
  return root && !root.broken ? root.node : undefined;
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
