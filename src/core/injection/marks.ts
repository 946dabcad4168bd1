/**
 * Which of a few ASCII marks a text holds, found in one pass over its characters. The lexical
 * signals test a dozen of them per string (`<` before a tag, `:` before a role line, `/` before a
 * shell path …); one pass and a bit test each costs less than a search of the string for each.
 */

const MARKS = "<[#:/`_,.@!&%'";
const BIT = new Int32Array(128);
for (let i = 0; i < MARKS.length; i++) BIT[MARKS.charCodeAt(i)] = 1 << i;

/** The bit of one mark of MARKS (0 for any other character). */
export function markBit(ch: string): number {
  return BIT[ch.charCodeAt(0)] ?? 0;
}

/** Set when the text holds a character outside ASCII. */
export const NON_ASCII_BIT = 1 << MARKS.length;

/** The bits of the marks `text` holds, and NON_ASCII_BIT when it holds a character outside ASCII. */
export function marksOf(text: string): number {
  let m = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    m |= c < 128 ? BIT[c] : NON_ASCII_BIT;
  }
  return m;
}
