/** Narrower than this, a message column would be a few words wide: lines are laid out for this much. */
export const MIN_WIDTH = 40;
/** What a report laid out for no terminal assumes (a pipe, a file, a CI log). */
export const DEFAULT_WIDTH = 80;

/**
 * The width `stylish` lays its lines out for: `COLUMNS` when it is a whole number (as shells and
 * Python's `shutil.get_terminal_size` have it), else the terminal's own width, else 80.
 */
export function terminalWidth(env: Record<string, string | undefined>, columns: number | undefined): number {
  const fromEnv = env.COLUMNS !== undefined && /^\d+$/.test(env.COLUMNS.trim()) ? Number(env.COLUMNS.trim()) : undefined;
  const width = fromEnv || (columns !== undefined && columns > 0 ? columns : DEFAULT_WIDTH);
  return Math.max(MIN_WIDTH, Math.min(width, 10_000));
}

/** Columns a character takes in a terminal: 0 for a combining mark, 2 for a wide East Asian character or emoji. */
function charWidth(cp: number): number {
  if (cp < 0x300) return 1;
  if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe20 && cp <= 0xfe2f)) return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  ) {
    return 2;
  }
  return 1;
}

/** Columns a text takes in a terminal (it holds no control characters: suite text is escaped). */
export function displayWidth(text: string): number {
  let w = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x300) w++;
    else {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      w += charWidth(cp);
    }
  }
  return w;
}

/**
 * Greedy word wrap to `width` columns: lines break at spaces; a word wider than a line is cut
 * where the line ends (a long URL or payload excerpt), never inside a character.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line: string | undefined;
  let lineW = 0;
  for (const word of text.split(' ')) {
    let w = displayWidth(word);
    if (line !== undefined && lineW + 1 + w <= width) {
      line += ' ' + word;
      lineW += 1 + w;
      continue;
    }
    if (line !== undefined) lines.push(line);
    let rest = word;
    while (w > width) {
      let cut = '';
      let cutW = 0;
      for (const ch of rest) {
        const cw = charWidth(ch.codePointAt(0)!);
        if (cutW + cw > width && cut) break;
        cut += ch;
        cutW += cw;
      }
      lines.push(cut);
      rest = rest.slice(cut.length);
      w -= cutW;
    }
    line = rest;
    lineW = w;
  }
  lines.push(line ?? '');
  return lines;
}
