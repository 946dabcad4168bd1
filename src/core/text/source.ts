import type { LineIndex } from './lines';
import type { ParsedText } from './parse';

/**
 * What the text stage needs of a file: its text, its line table and its parse. The model's
 * documents are sources; locations and edits are computed from this alone, so they sit below the model.
 */
export interface ParsedSource {
  readonly text: string;
  readonly lines: LineIndex;
  readonly parsed: ParsedText;
}
