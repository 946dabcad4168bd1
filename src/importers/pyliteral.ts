import type { Json } from './write';

/**
 * Python literals as `ast.literal_eval` reads them, for the benchmark fields stored that way
 * (InjecAgent's `Tool Parameters`, `Tool Response Template`): dicts, lists, tuples, strings with
 * either quote and their escapes, adjacent string concatenation, numbers, True/False/None.
 * Anything else is an error with its offset; nothing is evaluated.
 */
export type PyResult = { ok: true; value: Json } | { ok: false; error: string };

const MAX_DEPTH = 200;

export function parsePythonLiteral(text: string): PyResult {
  let i = 0;
  const fail = (what: string): never => {
    throw new PyError(`${what} at offset ${i}`);
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const value = (depth: number): Json => {
    if (depth > MAX_DEPTH) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === undefined) return fail('unexpected end of text');
    if (c === '{') return dict(depth);
    if (c === '[') return seq(']', depth);
    if (c === '(') return seq(')', depth);
    if (c === "'" || c === '"' || ((c === 'r' || c === 'R' || c === 'u' || c === 'U' || c === 'b' || c === 'B') && /['"]/.test(text[i + 1] ?? ''))) {
      let s = str();
      // 'a' 'b' is one string in Python.
      for (;;) {
        const save = i;
        ws();
        if (text[i] === "'" || text[i] === '"') s += str();
        else {
          i = save;
          break;
        }
      }
      return s;
    }
    const word = /^(True|False|None)\b/.exec(text.slice(i, i + 6));
    if (word) {
      i += word[1].length;
      return word[1] === 'True' ? true : word[1] === 'False' ? false : null;
    }
    const num = /^[-+]?(\d[\d_]*\.?[\d_]*([eE][-+]?\d+)?|\.\d[\d_]*([eE][-+]?\d+)?)/.exec(text.slice(i, i + 64));
    if (num) {
      i += num[0].length;
      const n = Number(num[0].replace(/_/g, ''));
      if (!Number.isFinite(n)) fail('number out of range');
      return n;
    }
    return fail(`unexpected ${JSON.stringify(c)}`);
  };
  const dict = (depth: number): Json => {
    i++;
    const out: { [k: string]: Json } = {};
    for (;;) {
      ws();
      if (text[i] === '}') {
        i++;
        return out;
      }
      const k = value(depth + 1);
      if (typeof k !== 'string' && typeof k !== 'number' && typeof k !== 'boolean' && k !== null) fail('a dict key must be a string or a number');
      ws();
      if (text[i] !== ':') fail("expected ':'");
      i++;
      // Defined, not assigned: `out["__proto__"] = v` would set the prototype and drop the key.
      Object.defineProperty(out, String(k), { value: value(depth + 1), enumerable: true, writable: true, configurable: true });
      ws();
      if (text[i] === ',') i++;
      else if (text[i] !== '}') fail("expected ',' or '}'");
    }
  };
  const seq = (close: string, depth: number): Json => {
    i++;
    const out: Json[] = [];
    for (;;) {
      ws();
      if (text[i] === close) {
        i++;
        return out;
      }
      out.push(value(depth + 1));
      ws();
      if (text[i] === ',') i++;
      else if (text[i] !== close) fail(`expected ',' or '${close}'`);
    }
  };
  const str = (): string => {
    let raw = false;
    while (/[rRuUbB]/.test(text[i])) {
      if (text[i] === 'r' || text[i] === 'R') raw = true;
      i++;
    }
    const q = text[i];
    const triple = text.startsWith(q.repeat(3), i);
    const end = triple ? q.repeat(3) : q;
    i += end.length;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      if (text.startsWith(end, i)) {
        i += end.length;
        return out;
      }
      const c = text[i];
      if (!triple && (c === '\n' || c === '\r')) fail('line break inside a string');
      if (c === '\\' && !raw) {
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case 'b': out += '\b'; break;
          case 'f': out += '\f'; break;
          case 'v': out += '\v'; break;
          case 'a': out += '\x07'; break;
          case '0': out += '\0'; break;
          case '\\': out += '\\'; break;
          case "'": out += "'"; break;
          case '"': out += '"'; break;
          case '\n': break;
          case 'x': out += hex(2); break;
          case 'u': out += hex(4); break;
          case 'U': out += hex(8); break;
          case undefined: fail('unterminated string'); break;
          default: out += '\\' + e; // Python keeps unknown escapes as written
        }
        continue;
      }
      if (c === '\\' && raw) {
        out += c + (text[i + 1] ?? '');
        i += 2;
        continue;
      }
      out += c;
      i++;
    }
  };
  const hex = (n: number): string => {
    const h = text.slice(i, i + n);
    if (!new RegExp(`^[0-9a-fA-F]{${n}}$`).test(h)) fail('bad escape');
    i += n;
    const cp = parseInt(h, 16);
    if (cp > 0x10ffff) fail('escape out of range');
    return String.fromCodePoint(cp);
  };
  try {
    const v = value(0);
    ws();
    if (i < text.length) fail('text after the literal');
    return { ok: true, value: v };
  } catch (e) {
    if (e instanceof PyError) return { ok: false, error: e.message };
    throw e;
  }
}

class PyError extends Error {}
