// esbuild writes strings and templates ASCII-only but leaves regular-expression literals (and kept
// comments) as they are, and the detector's multilingual patterns hold CJK, curly quotes and
// bullets. One such character makes V8 hold the whole 2 MB bundle as a two-byte string: twice the
// memory, and a slower UTF-8 decode on every start (~10 ms of each CLI run, measured). So each
// bundle's remaining non-ASCII code units are written as `\uXXXX`, which means the same code unit
// in a regular expression (with or without the `u` flag, surrogate pairs included), a string and a
// comment alike. Only a pattern's `source` text changes, which nothing reads. The source map's
// columns on those lines are moved by the same amounts, so stack traces still point home.
import { readFileSync, writeFileSync } from 'node:fs';

const NON_ASCII = /[^\x00-\x7f]/g;
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Rewrites `file` (and `file.map` beside it) ASCII-only; true when anything changed. */
export function asciiBundle(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return false;
  // `\` before the character would turn the escape into a literal backslash and text: refuse.
  const escaped = /\\[^\x00-\x7f]/.exec(text);
  if (escaped) throw new Error(`${file}: an escaped non-ASCII character at offset ${escaped.index}; write it as \\uXXXX in the source`);
  const lines = text.split('\n');
  /** Per changed line: the generated columns at which a character grew by 5. */
  const grown = new Map();
  const out = lines.map((line, i) => {
    if (!/[^\x00-\x7f]/.test(line)) return line;
    const at = [];
    for (let c = 0; c < line.length; c++) if (line.charCodeAt(c) > 0x7f) at.push(c);
    grown.set(i, at);
    return line.replace(NON_ASCII, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'));
  });
  writeFileSync(file, out.join('\n'));
  try {
    const map = JSON.parse(readFileSync(`${file}.map`, 'utf8'));
    map.mappings = moveColumns(map.mappings, grown);
    writeFileSync(`${file}.map`, JSON.stringify(map));
  } catch (e) {
    if (e.code !== 'ENOENT') throw e;
  }
  return true;
}

/** The mappings with each segment's generated column on a grown line moved past the escapes before it. */
function moveColumns(mappings, grown) {
  return mappings
    .split(';')
    .map((line, i) => {
      const at = grown.get(i);
      if (!at || line === '') return line;
      let before = 0;
      let after = 0;
      return line
        .split(',')
        .map((segment) => {
          const [column, rest] = firstVlq(segment);
          before += column;
          const moved = before + 5 * at.filter((c) => c < before).length;
          const text = vlq(moved - after) + rest;
          after = moved;
          return text;
        })
        .join(',');
    })
    .join(';');
}

/** The first base-64 VLQ number of a segment, and the text after it. */
function firstVlq(segment) {
  let value = 0;
  let shift = 0;
  let i = 0;
  for (;;) {
    const digit = B64.indexOf(segment[i++]);
    value += (digit & 31) << shift;
    shift += 5;
    if (!(digit & 32)) break;
  }
  return [value & 1 ? -(value >>> 1) : value >>> 1, segment.slice(i)];
}

function vlq(n) {
  let v = n < 0 ? (-n << 1) | 1 : n << 1;
  let out = '';
  do {
    let digit = v & 31;
    v >>>= 5;
    if (v) digit |= 32;
    out += B64[digit];
  } while (v);
  return out;
}
