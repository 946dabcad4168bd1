/**
 * Filler: a long run of one character or of a short unit of up to eight characters ("ööööö…", ") ] } ) ] } …") that pushes an
 * instruction at its end out of view, and out of the opening that shape signals read. The run is
 * replaced by a paragraph break, so the text after it is read as text of its own, and its presence
 * is a weak signal. One pass per unit length (1 to 8 characters): linear.
 */

const MIN_REPEATS = 16;
const MAX_UNIT = 8;

export interface Unfilled {
  text: string;
  /** Characters of filler removed. */
  removed: number;
}

/** The text with each run of a repeated unit (at least MIN_REPEATS times, 32+ characters) cut out. */
export function stripFiller(text: string): Unfilled {
  if (text.length < 32) return { text, removed: 0 };
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
