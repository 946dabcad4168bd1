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

/** Escapes unsafe code points as `\u{XXXX}` (and `\n`, `\t`, ...); lone surrogates included. */
export function escapeText(text: string, max = Infinity): string {
  let out = '';
  for (let i = 0; i < text.length && out.length < max; ) {
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (cp === 10) out += '\\n';
    else if (cp === 13) out += '\\r';
    else if (cp === 9) out += '\\t';
    else if (cp === 0x5c) out += '\\\\';
    else if (isUnsafeCodePoint(cp)) out += `\\u{${cp.toString(16).toUpperCase()}}`;
    else out += text.slice(i, i + width);
    i += width;
  }
  return out;
}

/** A short, escaped, quoted rendering of untrusted text for messages: at most ~80 characters. */
export function quote(text: string, max = MAX_QUOTE): string {
  const escaped = escapeText(text, max + 1);
  const cut = escaped.length > max;
  // Never cut inside an escape sequence such as \u{E0069}.
  let shown = cut ? escaped.slice(0, max) : escaped;
  if (cut) {
    const open = shown.lastIndexOf('\\u{');
    if (open >= 0 && shown.indexOf('}', open) < 0) shown = shown.slice(0, open);
    // A backslash cut from its partner would read as a different escape.
    if (/(^|[^\\])(\\\\)*\\$/.test(shown)) shown = shown.slice(0, -1);
    // Half of a surrogate pair would be a lone surrogate: unrenderable, and not valid UTF-8.
    const last = shown.charCodeAt(shown.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) shown = shown.slice(0, -1);
  }
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
