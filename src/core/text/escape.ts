/**
 * Text from suite files is hostile by design. Anything quoted in a message, hover or terminal line
 * goes through `quote`, so hidden characters show as escapes and cannot reorder, hide or spoof
 * what the author reads.
 */
const MAX_QUOTE = 80;

/** True for code points that render invisibly or change how surrounding text is shown. */
export function isUnsafeCodePoint(cp: number): boolean {
  return (
    cp < 0x20 ||
    (cp >= 0x7f && cp <= 0x9f) ||
    cp === 0xad ||
    cp === 0x034f ||
    cp === 0x061c ||
    (cp >= 0x115f && cp <= 0x1160) ||
    (cp >= 0x17b4 && cp <= 0x17b5) ||
    (cp >= 0x180b && cp <= 0x180f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x2028 && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x206f) ||
    cp === 0x3164 ||
    (cp >= 0xfe00 && cp <= 0xfe0f) ||
    cp === 0xfeff ||
    cp === 0xffa0 ||
    (cp >= 0xfff0 && cp <= 0xfffb) ||
    (cp >= 0x1bca0 && cp <= 0x1bca3) ||
    (cp >= 0x1d173 && cp <= 0x1d17a) ||
    (cp >= 0xe0000 && cp <= 0xe0fff) ||
    (cp >= 0xd800 && cp <= 0xdfff)
  );
}

/** A character `escapeUpTo` shows as it is, one for one. */
const isPlainAscii = (c: number): boolean => c >= 0x20 && c < 0x7f && c !== 0x5c;

/**
 * Escapes text up to `max` characters of output, never splitting an escape sequence or a
 * surrogate pair: each character is kept or dropped whole. `cut` says whether text was left out.
 */
function escapeUpTo(text: string, max: number): { shown: string; cut: boolean } {
  // Printable ASCII but the backslash is itself: the run of it that opens the text (most text is
  // all one such run) is taken as one slice rather than appended a character at a time.
  let i = 0;
  const stop = Math.min(text.length, max);
  while (i < stop && isPlainAscii(text.charCodeAt(i))) i++;
  if (i === text.length) return { shown: text, cut: false };
  let out = text.slice(0, i);
  while (i < text.length) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    let piece: string;
    if (cp === 10) piece = '\\n';
    else if (cp === 13) piece = '\\r';
    else if (cp === 9) piece = '\\t';
    else if (cp === 0x5c) piece = '\\\\';
    else if (isUnsafeCodePoint(cp)) piece = `\\u{${cp.toString(16).toUpperCase()}}`;
    else piece = text.slice(i, i + width);
    if (out.length + piece.length > max) return { shown: out, cut: true };
    out += piece;
    i += width;
  }
  return { shown: out, cut: false };
}

/**
 * Escapes unsafe code points as `\u{XXXX}` (and `\n`, `\t`, ...); lone surrogates included. With
 * `max`, stops before the output would grow past it (no ellipsis: see `quote`).
 */
export function escapeText(text: string, max = Infinity): string {
  return escapeUpTo(text, max).shown;
}

/** A short, escaped, quoted rendering of untrusted text for messages: at most ~80 characters. */
export function quote(text: string, max = MAX_QUOTE): string {
  const { shown, cut } = escapeUpTo(text, max);
  return `"${shown}${cut ? '…' : ''}"`;
}

/** Backtick-quoted name for messages (ids, keys, tool names), escaped and cut like `quote`. */
export function code(text: string, max = 60): string {
  const q = quote(text, max);
  return '`' + q.slice(1, -1).replace(/`/g, "'") + '`';
}

/**
 * Untrusted text for Markdown (hovers), escaped like `quote` and with every ASCII punctuation
 * character backslash-escaped (CommonMark allows that for all of them), so a payload cannot turn
 * into a link, an image, a `command:` URI, HTML or emphasis, nor break out of the surrounding
 * markup. Prefer `code()` inside a code span where a literal rendering will do.
 */
export function markdownText(text: string, max = MAX_QUOTE): string {
  const q = quote(text, max);
  return q.slice(1, -1).replace(/[!-/:-@[-`{-~]/g, (c) => '\\' + c);
}
