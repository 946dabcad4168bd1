/**
 * Undoes the encodings payloads hide behind (base64, hex, percent and HTML-entity escapes).
 * Each decoder returns only text that reads as text, so a hash or an ID never becomes "decoded".
 */

import { appendAll } from '../text/multimap';

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
/** The same, reading the URL-safe alphabet's `-` and `_` as `+` and `/` (without rewriting the token first). */
const B64_ANY_VALUE = Int8Array.from(B64_VALUE, (v, c) => (c === 0x2d ? 62 : c === 0x5f ? 63 : v));

function base64Bytes(token: string): number[] | undefined {
  let end = token.length;
  while (end > 0 && token[end - 1] === '=') end--;
  let clean = token.slice(0, end);
  // `cfg=SGVsbG8...`: a key and `=` before the payload are not part of it.
  const eq = clean.lastIndexOf('=');
  if (eq >= 0) clean = clean.slice(eq + 1);
  if (clean.length % 4 === 1) return undefined;
  const bytes: number[] = [];
  let buf = 0;
  let bits = 0;
  for (let i = 0; i < clean.length; i++) {
    const c = clean.charCodeAt(i);
    const v = c < 128 ? B64_ANY_VALUE[c] : -1;
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

/** Each ASCII code's classes: 1 base64 (with the URL-safe `-` and `_`, and `=`), 2 hex digit. */
const CLASS = Uint8Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return (/[A-Za-z0-9+/=_-]/.test(ch) ? 1 : 0) | (/[0-9a-fA-F]/.test(ch) ? 2 : 0);
});

/**
 * Runs of base64 alphabet long enough to carry a sentence (16+), and runs of hex digits (24+, whole
 * bytes); each cut at MAX_TOKEN. A run of 16 or more covers a position of every remainder modulo 16,
 * so only every sixteenth character is looked at until one is in the alphabet; its run is then read
 * out both ways (hex digits are base64 letters too, so every long hex run lies in such a run).
 */
function encodedRuns(text: string): { base64: string[]; hex: string[] } {
  const base64: string[] = [];
  const hex: string[] = [];
  const n = text.length;
  const cls = (i: number): number => {
    const c = text.charCodeAt(i);
    return c < 128 ? CLASS[c] : 0;
  };
  for (let i = 15; i < n; ) {
    if (!(cls(i) & 1)) {
      i += 16;
      continue;
    }
    let b = i;
    while (b > 0 && cls(b - 1) & 1) b--;
    let e = i + 1;
    while (e < n && cls(e) & 1) e++;
    if (e - b >= 16) {
      base64.push(text.slice(b, Math.min(e, b + MAX_TOKEN)));
      let h = -1;
      for (let j = b; j <= e; j++) {
        if (j < e && cls(j) & 2) {
          if (h < 0) h = j;
        } else if (h >= 0) {
          if (j - h >= 24 && (j - h) % 2 === 0) hex.push(text.slice(h, Math.min(j, h + MAX_TOKEN)));
          h = -1;
        }
      }
    }
    // The next position of remainder 15 past the run (the character at `e` is outside it).
    i = e + ((15 - (e % 16) + 16) % 16);
  }
  return { base64, hex };
}

export interface Decoded {
  encoding: 'base64' | 'hex' | 'percent' | 'html-entities' | 'binary' | 'morse';
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

/**
 * Spelled-out bytes and Morse code, as token-smuggling prompts write them ("decode this: '57 68 61
 * 74 …'", "01010111 01101000 …", ".-- .... .- -"): runs of at least eight units separated by
 * spaces. A unit that is not a whole byte (a typo in the run) is skipped, not a reason to give up.
 */
const HEX_BYTES = /(?:\b[0-9a-fA-F]{2}[ ,]+){7,}[0-9a-fA-F]{2}\b/g;
const BINARY = /(?:\b[01]{7,9}\s+){7,}[01]{7,9}\b/g;
const MORSE_RUN = /(?:[.\-]{1,7}(?: \/ | {1,3}|\/))+[.\-]{1,7}/g;
const MORSE: Record<string, string> = {
  '.-': 'a', '-...': 'b', '-.-.': 'c', '-..': 'd', '.': 'e', '..-.': 'f', '--.': 'g', '....': 'h', '..': 'i', '.---': 'j', '-.-': 'k', '.-..': 'l', '--': 'm',
  '-.': 'n', '---': 'o', '.--.': 'p', '--.-': 'q', '.-.': 'r', '...': 's', '-': 't', '..-': 'u', '...-': 'v', '.--': 'w', '-..-': 'x', '-.--': 'y', '--..': 'z',
  '-----': '0', '.----': '1', '..---': '2', '...--': '3', '....-': '4', '.....': '5', '-....': '6', '--...': '7', '---..': '8', '----.': '9',
  '..--..': '?', '.-.-.-': '.', '--..--': ',', '-.-.--': '!', '.----.': "'", '-..-.': '/',
};

/**
 * What every Morse run of SPELLED holds: two symbols, a space, a symbol. "--flag" and "..." (common in
 * documentation) do not, so their texts go on to the cheaper word test below.
 */
const MORSE_HINT = /[.-]{2} [.-]/;
const SPELLED = /[0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2}|[01]{8}\s+[01]{8}|[.-]{2,4} [.-]{1,4} [.-]{1,4} [.-]/;

/**
 * Whether spelled bytes can be there, from the text's words when the caller has them: eight
 * two-digit hex words, or a word of eight (or nine) binary digits; Morse opens with a letter of
 * two or more symbols, so two of them stand side by side.
 */
function maySpell(text: string, ws: readonly string[] | undefined): boolean {
  if (MORSE_HINT.test(text)) return true;
  if (!ws) return SPELLED.test(text);
  let pairs = 0;
  for (const x of ws) {
    if (x.length === 2) {
      const a = x.charCodeAt(0);
      const b = x.charCodeAt(1);
      if (a < 128 && b < 128 && CLASS[a] & 2 && CLASS[b] & 2 && ++pairs >= 8) return true;
    } else if (x.length === 8 || x.length === 9) {
      let bits = 0;
      while (bits < x.length && (x.charCodeAt(bits) === 0x30 || x.charCodeAt(bits) === 0x31)) bits++;
      if (bits === x.length) return true;
    }
  }
  return false;
}

function spelledBytes(text: string, ws?: readonly string[]): Decoded[] {
  const out: Decoded[] = [];
  if (!maySpell(text, ws) || !SPELLED.test(text)) return out;
  if (/[0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2}/.test(text)) {
    for (const m of text.matchAll(HEX_BYTES)) {
      const s = utf8(m[0].split(/[ ,]+/).filter(Boolean).map((h) => parseInt(h, 16)));
      if (s && readable(s)) out.push({ encoding: 'hex', text: s });
    }
  }
  if (/[01]{8}\s+[01]{8}/.test(text)) {
    for (const m of text.matchAll(BINARY)) {
      const s = utf8(m[0].split(/\s+/).filter((b) => b.length === 8).map((b) => parseInt(b, 2)));
      if (s && readable(s)) out.push({ encoding: 'binary', text: s });
    }
  }
  if (/[.-]{2,4} [.-]{1,4} [.-]{1,4} [.-]/.test(text)) {
    for (const m of text.matchAll(MORSE_RUN)) {
      const words = m[0].split(/ ?\/ ?| {3}/);
      if (words.length < 3) continue;
      const s = words.map((wd) => wd.split(' ').map((c) => MORSE[c] ?? '').join('')).join(' ');
      if (readable(s)) out.push({ encoding: 'morse', text: s });
    }
  }
  return out;
}

const TAIL_END = /[A-Za-z0-9+/=]\s*$/;
const TAIL_TOKEN = /(?:^|\s)([A-Za-z0-9+/]{8,24}={0,2})\s*$/;

/**
 * Whether the text can end in a token TAIL_TOKEN takes: past trailing white space (what `\s` matches)
 * and up to two `=`, its last eight characters are base64 letters. Most texts end in a word shorter
 * than that or in a full stop, and skip the pattern.
 */
function endsInToken(text: string): boolean {
  let end = text.length;
  // TAIL_END has let through at most three characters of white space.
  while (end > text.length - 4 && end > 0 && WHITE.test(text[end - 1])) end--;
  for (let pad = 0; pad < 2 && end > 0 && text.charCodeAt(end - 1) === 0x3d; pad++) end--;
  if (end < 8) return false;
  for (let i = end - 8; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || !(CLASS[c] & 1) || c === 0x3d || c === 0x2d || c === 0x5f) return false;
  }
  return true;
}
const WHITE = /\s/;

/**
 * Every readable text hidden in `text` by one layer of encoding. `ws`, when given, are the words of
 * `text` (a cheap test of whether bytes are spelled out in it).
 */
export function decodeLayer(text: string, ws?: readonly string[]): Decoded[] {
  const out: Decoded[] = [];
  const short = text.length >= 8 && text.length < 32 ? shortBase64(text) : undefined;
  if (short) out.push({ encoding: 'base64', text: short, short: true });
  else if (text.length >= 12 && TAIL_END.test(text.slice(-4)) && endsInToken(text)) {
    // A short token standing alone at the end of a longer text ("…\n\nc2F5IHB3bmVk", "…: aGkgdGhlcmU="): read as a whole short value is.
    const m = TAIL_TOKEN.exec(text.slice(-40));
    const tail = m ? shortBase64(m[1]) : undefined;
    if (tail) out.push({ encoding: 'base64', text: tail, short: true });
  }
  const runs = encodedRuns(text);
  for (const token of runs.base64) {
    const bytes = base64Bytes(token);
    const s = bytes && utf8(bytes);
    if (s && readable(s)) out.push({ encoding: 'base64', text: s });
    else if (s && encodedAgain(s)) out.push({ encoding: 'base64', text: s, layer: true });
  }
  for (const token of runs.hex) {
    const bytes: number[] = [];
    for (let i = 0; i < token.length; i += 2) bytes.push(parseInt(token.slice(i, i + 2), 16));
    const s = utf8(bytes);
    if (s && readable(s)) out.push({ encoding: 'hex', text: s });
  }
  if (text.length >= 40 && (text.includes(' ') || text.includes(','))) appendAll(out, spelledBytes(text, ws));
  const pct = decodePercent(text);
  if (pct && pct !== text && readable(pct)) out.push({ encoding: 'percent', text: pct });
  const ent = decodeEntities(text);
  // `&lt;angle&gt;` in documentation is markup; text spelled in entities is mostly entities.
  const entityShare = ent ? (text.length - ent.length) / text.length : 0;
  if (ent && ent !== text && entityShare > 0.3 && readable(ent)) out.push({ encoding: 'html-entities', text: ent });
  return out;
}
