/**
 * Filler: a long run of one character or of a short unit of up to eight characters ("ööööö…", ") ] } ) ] } …") that pushes an
 * instruction at its end out of view, and out of the opening that shape signals read. The run is
 * replaced by a paragraph break, so the text after it is read as text of its own, and its presence
 * is a weak signal. One pass per unit length (1 to 8 characters): linear.
 */

const MIN_REPEATS = 16;
const MAX_UNIT = 8;
const MIN_TEXT = 160;

export interface Unfilled {
  text: string;
  /** Characters of filler removed. */
  removed: number;
}

/**
 * A cheap test that a run can be there. A run of 32 or more characters covers at least one whole
 * 16-character block at a multiple of 16, and that block repeats itself at the run's unit (1 to 8):
 * test each block for each unit, most fail at their first character.
 */
function mayRepeat(text: string): boolean {
  for (let b = 0; b + 16 <= text.length; b += 16) {
    for (let u = 1; u <= MAX_UNIT; u++) {
      let j = b;
      while (j + u < b + 16 && text.charCodeAt(j) === text.charCodeAt(j + u)) j++;
      // A run that is cut has a unit with a letter or mark in it, and its block holds a whole unit:
      // a block of white space alone (a long run of spaces) is no filler's.
      if (j + u >= b + 16) {
        if (!white(text, b, b + 16)) return true;
        break;
      }
    }
  }
  return false;
}

/** Whether text[from, to) is all white space, as `\s` reads it. */
function white(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const space =
      c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
    if (!space) return false;
  }
  return true;
}

/** The text with each run of a repeated unit (at least MIN_REPEATS times, 32+ characters) cut out. */
export function stripFiller(text: string): Unfilled {
  // Filler that pushes text out of view is long; most strings are short and pay nothing here.
  if (text.length < MIN_TEXT || !mayRepeat(text)) return { text, removed: 0 };
  const cut: [number, number][] = [];
  for (let unit = 1; unit <= MAX_UNIT; unit++) {
    let start = 0;
    for (let i = unit; i <= text.length; i++) {
      if (i < text.length && text.charCodeAt(i) === text.charCodeAt(i - unit)) continue;
      // text[start .. i) repeats its first `unit` characters.
      const length = i - start;
      if (length >= Math.max(32, unit * MIN_REPEATS) && /\S/.test(text.slice(start, start + unit))) cut.push([start, i]);
      start = i - unit + 1;
    }
  }
  if (!cut.length) return { text, removed: 0 };
  cut.sort((a, b) => a[0] - b[0]);
  let out = '';
  let at = 0;
  let removed = 0;
  for (const [s, e] of cut) {
    if (e <= at) continue;
    const from = Math.max(s, at);
    out += text.slice(at, from) + '\n\n';
    removed += e - from;
    at = e;
  }
  return { text: out + text.slice(at), removed };
}
