/** The shape of a fix, shared by every stage that proposes one (detector labels, schema repairs, rules). */

/** A text change in offsets of the document text it was computed from. */
export interface TextChange {
  offset: number;
  length: number;
  content: string;
}

/** A fix as rules describe it: changes per document, each tied to the version it was computed for. */
export interface FixSpec {
  title: string;
  /** Only one fix of the diagnostic could apply: `--fix` and fix-all may take it. */
  unambiguous: boolean;
  changes: { uri: string; version?: number; changes: TextChange[] }[];
}
