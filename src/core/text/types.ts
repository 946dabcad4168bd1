/** Zero-based position; `character` counts UTF-16 code units, as LSP does. */
export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

/** Where something lies in a document's text, without its line and character positions. */
export interface Span {
  offset: number;
  length: number;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type SeveritySetting = Severity | 'off';

export const SEVERITY_ORDER: Record<Severity, number> = { hint: 0, info: 1, warning: 2, error: 3 };

/** A JSON path as jsonc-parser understands it: property names and array indices. */
export type JsonPath = (string | number)[];
