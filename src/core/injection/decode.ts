/**
 * Undoes the encodings payloads hide behind (base64, hex, percent and HTML-entity escapes).
 * Each decoder returns only text that reads as text, so a hash or an ID never becomes "decoded".
 */

const MAX_TOKEN = 8192;

const UNSPACED_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const LETTER = /[\p{L}\p{M}]/u;

/** Share of printable characters; decoded binary is noise, not a hidden message. */
function readable(s: string): boolean {
  if (s.length < 8) return false;
  let ok = 0;
  let letters = 0;
  let spaces = 0;
  let unspaced = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 10 || c === 13 || c === 9 || c >= 0xa0) ok++;
    if ((c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a)) letters++;
    else if (c >= 0xa0) {
      // Only text outside ASCII pays for a Unicode property test.
      const ch = s[i];
      if (LETTER.test(ch)) {
        letters++;
        if (UNSPACED_LETTER.test(ch)) unspaced++;
      }
    }
    if (c === 0x20 || c === 10) spaces++;
  }
  const n = s.length;
  // Prose: nearly all printable, mostly letters, and words separated by spaces (or written in a
  // script that has none: Chinese, Japanese, Thai).
  return ok / n > 0.95 && letters / n > 0.5 && (spaces >= 2 || unspaced >= 8);
}

function utf8(bytes: number[]): string | undefined {
  // Most candidate runs are identifiers that decode to binary; skip the decoder for those.
  let control = 0;
  for (const b of bytes) if (b < 0x20 && b !== 10 && b !== 13 && b !== 9) control++;
  if (control > bytes.length / 20) return undefined;
  // A strict UTF-8 decoder: core has no TextDecoder (it runs without DOM or Node types).
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i];
    let cp: number;
    let n: number;
    if (b < 0x80) [cp, n] = [b, 0];
    else if (b >= 0xc2 && b < 0xe0) [cp, n] = [b & 0x1f, 1];
    else if (b >= 0xe0 && b < 0xf0) [cp, n] = [b & 0x0f, 2];
    else if (b >= 0xf0 && b < 0xf5) [cp, n] = [b & 0x07, 3];
    else return undefined;
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((n === 2 && cp < 0x800) || (n === 3 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
    out += String.fromCodePoint(cp);
    i += n + 1;
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each ASCII code's value in base64, -1 when it is none. */
const B64_VALUE = Int8Array.from({ length: 128 }, (_, c) => B64.indexOf(String.fromCharCode(c)));

function base64Bytes(token: string): number[] | undefined {
  let end = token.length;
  while (end > 0 && token[end - 1] === '=') end--;
  let clean = token.slice(0, end);
  // `cfg=SGVsbG8...`: a key and `=` before the payload are not part of it.
  const eq = clean.lastIndexOf('=');
  if (eq >= 0) clean = clean.slice(eq + 1);
  clean = clean.replace(/-/g, '+').replace(/_/g, '/');
  if (clean.length % 4 === 1) return undefined;
  const bytes: number[] = [];
  let buf = 0;
  let bits = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    const v = c < 128 ? B64_VALUE[c] : -1;
    if (v < 0) return undefined;
    buf = (buf << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buf >> bits) & 0xff);
    }
  }
  return bytes;
}

/** The runs of characters in a class, cut at MAX_TOKEN, whose length `keep` accepts. */
function runs(text: string, inClass: (c: number) => boolean, keep: (length: number) => boolean): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && inClass(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (keep(i - start)) out.push(text.slice(start, Math.min(i, start + MAX_TOKEN)));
      start = -1;
    }
  }
  return out;
}

const isBase64 = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2b || c === 0x2f || c === 0x3d || c === 0x2d || c === 0x5f;
const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Runs of base64 alphabet long enough to carry a sentence. */
function base64Tokens(text: string): string[] {
  return runs(text, isBase64, (length) => length >= 16);
}

/** Runs of hex digits long enough to carry a sentence, whole bytes only. */
function hexTokens(text: string): string[] {
  return runs(text, isHex, (length) => length >= 24 && length % 2 === 0);
}

export interface Decoded {
  encoding: 'base64' | 'hex' | 'percent' | 'html-entities';
  text: string;
  /** Not prose but another encoded layer (base64 of base64): decode again, do not score yet. */
  layer?: boolean;
  /** A short token decoded to a few words: a finding only when they give an order. */
  short?: boolean;
}

/** Printable ASCII that is itself one long base64 or hex run. */
function encodedAgain(s: string): boolean {
  if (s.length < 16) return false;
  let alphabet = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2b || c === 0x2f || c === 0x3d) alphabet++;
  }
  return alphabet / s.length > 0.95;
}

function decodePercent(text: string): string | undefined {
  let count = 0;
  for (let i = text.indexOf('%'); i >= 0; i = text.indexOf('%', i + 1)) {
    if (/^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) count++;
  }
  // A URL with a few %20s is a URL; text spelled in escapes is mostly escapes.
  if (count < 4 || (3 * count) / text.length < 0.3) return undefined;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string | undefined {
  if (!text.includes('&')) return undefined;
  let count = 0;
  const out = text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/g, (m, body: string) => {
    let ch: string | undefined;
    if (body.startsWith('#x')) ch = String.fromCodePoint(Math.min(parseInt(body.slice(2), 16), 0x10ffff));
    else if (body.startsWith('#')) ch = String.fromCodePoint(Math.min(parseInt(body.slice(1), 10), 0x10ffff));
    else ch = NAMED[body];
    if (ch === undefined) return m;
    count++;
    return ch;
  });
  return count >= 4 ? out : undefined;
}

/** A few words (letters, spaces, light punctuation), as a short encoded order decodes to: "Ignore all", "say hi". */
const FEW_WORDS = /^[\p{L}\p{M}'’]+( [\p{L}\p{M}'’]+){1,6}[.!?]?$/u;

/**
 * A whole value that is one short base64 token (8 to 24 characters: too short to decode to the
 * sentence the run scan below wants) and decodes to a few words. A credential pair ("user:pass") or an ID decodes to no words.
 */
function shortBase64(text: string): string | undefined {
  const t = text.trim();
  if (t.length < 8 || t.length > 24 || !/^[A-Za-z0-9+/]+={0,2}$/.test(t) || /^[a-z]+$|^[A-Z]+$|^[0-9]+$/.test(t)) return undefined;
  const bytes = base64Bytes(t);
  const s = bytes && utf8(bytes);
  return s && FEW_WORDS.test(s) ? s : undefined;
}

/** Every readable text hidden in `text` by one layer of encoding. */
export function decodeLayer(text: string): Decoded[] {
  const out: Decoded[] = [];
  const short = text.length >= 8 && text.length < 32 ? shortBase64(text) : undefined;
  if (short) out.push({ encoding: 'base64', text: short, short: true });
  for (const token of base64Tokens(text)) {
    const bytes = base64Bytes(token);
    const s = bytes && utf8(bytes);
    if (s && readable(s)) out.push({ encoding: 'base64', text: s });
    else if (s && encodedAgain(s)) out.push({ encoding: 'base64', text: s, layer: true });
  }
  for (const token of hexTokens(text)) {
    const bytes: number[] = [];
    for (let i = 0; i < token.length; i += 2) bytes.push(parseInt(token.slice(i, i + 2), 16));
    const s = utf8(bytes);
    if (s && readable(s)) out.push({ encoding: 'hex', text: s });
  }
  const pct = decodePercent(text);
  if (pct && pct !== text && readable(pct)) out.push({ encoding: 'percent', text: pct });
  const ent = decodeEntities(text);
  // `&lt;angle&gt;` in documentation is markup; text spelled in entities is mostly entities.
  const entityShare = ent ? (text.length - ent.length) / text.length : 0;
  if (ent && ent !== text && entityShare > 0.3 && readable(ent)) out.push({ encoding: 'html-entities', text: ent });
  return out;
}
