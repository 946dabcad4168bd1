/**
 * The literal text every match of a pattern must contain, read off the pattern (in RE2's spelling)
 * without compiling it. A suite's `respond` patterns are mostly a phrase ("(?i)riverside view
 * hotel\b"), each case with its own, and each is tested against a few answers that do not contain
 * it: compiling each (re2js builds a case-folded program, ~40 µs) and building its automaton to
 * say "no" was a tenth of such a lint. RE2 itself keeps literal prefilters; re2js has none for
 * case-folded literals.
 *
 * Only a plain sequence is read: literal characters (printable ASCII, or escaped punctuation),
 * `.`, `\s \S \d \D \w \W`, character classes and quantifiers, with the zero-width `^ $ \b \B`,
 * and `(?i)` first. Anything else (a group, an alternation, another escape, a non-ASCII character)
 * gives no required text, and the pattern is left to RE2 alone.
 */
export interface RequiredText {
  /** The longest run of literal characters a match must contain (lower-cased when `fold`). */
  text: string;
  /** Matched case-insensitively (`(?i)` or the `i` flag). */
  fold: boolean;
  /**
   * The pattern is that text and zero-width assertions only (`(?i)hotel 12\b`): RE2 surely
   * compiles it, to a program of about its length.
   */
  literalOnly: boolean;
}

/** RE2 takes any escaped ASCII punctuation as itself. */
const ESCAPED_LITERAL = /[!-/:-@[-`{-~]/;
/** Characters that mean something unescaped; every other printable ASCII character is itself. */
const META = '\\^$.|?*+()[]{}';

export function requiredText(source: string, flags: string): RequiredText | undefined {
  let fold = flags.includes('i');
  let i = 0;
  if (source.startsWith('(?i)')) {
    fold = true;
    i = 4;
  }
  const n = source.length;
  let literalOnly = true;
  let best = '';
  let run = '';
  const endRun = () => {
    if (run.length > best.length) best = run;
    run = '';
  };
  while (i < n) {
    const c = source[i];
    // What the next token is: a literal character, another single-character matcher (undefined), or an assertion.
    let literal: string | undefined;
    let zeroWidth = false;
    if (c === '\\') {
      const d = source[i + 1] ?? '';
      if (d === 'b' || d === 'B') zeroWidth = true;
      else if (d.length === 1 && 'sSdDwW'.includes(d)) literalOnly = false;
      else if (d.length === 1 && ESCAPED_LITERAL.test(d)) literal = d;
      else return undefined;
      i += 2;
    } else if (c === '^' || c === '$') {
      zeroWidth = true;
      i++;
    } else if (c === '.') {
      literalOnly = false;
      i++;
    } else if (c === '[') {
      const end = classEnd(source, i);
      if (end === undefined) return undefined;
      literalOnly = false;
      i = end;
    } else if (META.includes(c) || c < ' ' || c > '~') {
      // A group, an alternation, a quantifier with nothing to repeat, a control or non-ASCII character.
      return undefined;
    } else {
      literal = c;
      i++;
    }
    const q = quantifierLength(source, i);
    if (q > 0) {
      // A repeated assertion is legal but odd: left to RE2.
      if (zeroWidth) return undefined;
      // What a quantifier applies to may repeat or vanish: it is no part of a required run.
      literalOnly = false;
      endRun();
      i += q;
      continue;
    }
    if (zeroWidth) continue;
    if (literal === undefined) endRun();
    else run += fold ? literal.toLowerCase() : literal;
  }
  endRun();
  return best.length > 0 || literalOnly ? { text: best, fold, literalOnly } : undefined;
}

/** Whether `text` could hold a match: false only when it lacks the required text. */
export function mayMatch(required: RequiredText, text: string): boolean {
  if (!required.fold) return text.includes(required.text);
  // Case folding maps `k` to the Kelvin sign and `s` to the long s: ASCII text only is lower-cased to compare.
  return !ASCII.test(text) || text.toLowerCase().includes(required.text);
}

const ASCII = /^[\x00-\x7f]*$/;

/** `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, each possibly lazy: its length at `i`, 0 when there is none. */
function quantifierLength(source: string, i: number): number {
  const c = source[i];
  let len = 0;
  if (c === '*' || c === '+' || c === '?') len = 1;
  else if (c === '{') {
    const m = /^\{\d+(,\d*)?\}/.exec(source.slice(i, i + 24));
    if (!m) return 0;
    len = m[0].length;
  } else return 0;
  return source[i + len] === '?' ? len + 1 : len;
}

/** Index just past the class that opens at `i`, or undefined when the pattern ends first. */
function classEnd(source: string, i: number): number | undefined {
  let j = i + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  while (j < source.length) {
    const ch = source[j];
    if (ch === '\\') {
      j += 2;
      continue;
    }
    // `[:alpha:]` inside a class: its `]` does not close the class.
    if (ch === '[' && source[j + 1] === ':') {
      const end = source.indexOf(':]', j + 2);
      if (end < 0) return undefined;
      j = end + 2;
      continue;
    }
    if (ch === ']') return j + 1;
    j++;
  }
  return undefined;
}
