import { isUtf8 } from 'node:buffer';

/**
 * Suite files are UTF-8 (FORMAT: "All files are JSON ... UTF-8"). A file that is not (Latin-1, UTF-16,
 * a binary blob) must not be read as if it were: decoding it replaces every bad byte with U+FFFD, and
 * a fix written back from that text would destroy bytes no fix touched. So a bad file is named with
 * the offset of its first bad byte, and nothing writes it.
 */
export type Decoded = { ok: true; text: string } | { ok: false; text: string; byteOffset: number; charOffset: number; message: string };

const lossy = new TextDecoder('utf-8');

/** The text of UTF-8 bytes (a byte-order mark dropped), or where they stop being UTF-8. */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  // Buffer's decoder gives TextDecoder's text in less time (a read of every file of a suite), and
  // every byte that is not UTF-8 comes out as U+FFFD: a text without one was well-formed, and a
  // suite file's text (one byte a character) cannot hold one, which V8 answers without a scan. Only
  // a text with one is checked byte by byte, as it may be the file's own (isUtf8: ~13 ms at 10k cases).
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (!text.includes('\ufffd') || isUtf8(bytes)) return { ok: true, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  const byteOffset = firstBadByte(bytes);
  // The position the editor shows for that byte: the text before it decodes cleanly, less the BOM the decoder drops.
  const charOffset = lossy.decode(bytes.subarray(0, byteOffset)).length;
  const value = bytes[byteOffset].toString(16).toUpperCase().padStart(2, '0');
  return { ok: false, text: lossy.decode(bytes), byteOffset, charOffset, message: `not valid UTF-8 at byte ${byteOffset} (0x${value})` };
}

/**
 * The offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC 3629: no
 * overlong forms, no surrogates, nothing above U+10FFFF), counted from 0; the length when there is none.
 */
export function firstBadByte(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      else if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      else if (c === 0xf4) hi = 0x8f;
    } else return i;
    // A sequence cut short is bad at its lead byte: that is where the character that cannot be read starts.
    if (i + need >= b.length) return i;
    if (b[i + 1] < lo || b[i + 1] > hi) return i;
    for (let k = 2; k <= need; k++) if (b[i + k] < 0x80 || b[i + k] > 0xbf) return i;
    i += need + 1;
  }
  return b.length;
}

/** An error for a file that is not UTF-8, as the file systems reject a read of one. */
export function notUtf8Error(path: string, d: Extract<Decoded, { ok: false }>): Error {
  return Object.assign(new Error(`${d.message}: ${path}`), { code: 'EILSEQ', reason: d.message, text: d.text, byteOffset: d.byteOffset, charOffset: d.charOffset });
}
