import { trimmed } from './multimap';
/**
 * Text that every match of a pattern must contain, read from the pattern alone: a prefilter, so
 * that a thousand `respond` patterns need not each run on every answer (trajectory/answers.ts).
 * Sound, not complete: a run of plain characters at the top level of a pattern with no top-level
 * `|` is in every match, and anything this reader is unsure of (an escape it does not know, an
 * inline flag after the start, an unbalanced group) ends the run or gives no literal at all, never
 * a literal the pattern does not require.
 *
 * Patterns are JSON Schema's (ECMA-262 with the `u` flag) as RE2 runs them (text/regex.ts), which
 * also reads a leading `(?i)`: under it a literal is kept only while it is ASCII, and looked for
 * in the folded text (`foldForLiterals`).
 */
export interface RequiredText {
  /** Runs of characters every match contains (folded under `foldCase`), each at least MIN_LITERAL long. */
  runs: string[];
  /** Compare against `foldForLiterals(text)` rather than the text. */
  foldCase: boolean;
  /**
   * The pattern is plain characters and the assertions `^ $ \b \B` alone (a phrase, such as a
   * `respond` pattern's "(?i)riverside view hotel\b"), which RE2 always compiles: text/regex.ts
   * builds its program only when a text that holds the runs is tested.
   */
  whole: boolean;
}

/** Whether `text` holds every run `required` names; `folded` gives `foldForLiterals(text)`, made once by the caller. */
export function holdsRuns(required: RequiredText, text: string, folded: () => string = () => foldForLiterals(text)): boolean {
  const against = required.foldCase ? folded() : text;
  for (const run of required.runs) if (!against.includes(run)) return false;
  return true;
}

/** Shorter runs filter too little to be worth indexing. */
export const MIN_LITERAL = 3;

/** Characters with a meaning of their own outside a class (a quantifier, a group, an anchor, `.`, `|`). */
const SPECIAL = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
/** Escapes of one letter that stand for one character class or assertion: never part of a run. */
const CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'n', 'r', 't', 'v', 'f']);
/** Escaped characters that stand for themselves (ECMA-262's syntax characters, and `/` and `-`). */
const IDENTITY_ESCAPES = new Set(['^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/', '-']);
/** Flags a leading `(?…)` may set that do not change which characters a literal matches, besides `i`. */
const INERT_FLAGS = new Set(['m', 's', 'U']);
/** `(?flags)` that sets flags for the rest of the pattern, read where it starts (sticky). */
const INLINE_FLAGS = /\(\?[a-zA-Z-]*\)/y;

/**
 * A text folded so that it holds a folded literal wherever RE2's `(?i)` matches that literal: RE2
 * relates an ASCII letter to its other case, and `k` and `s` also to U+212A KELVIN SIGN and U+017F
 * LONG S. `toLowerCase` takes every one of those to the ASCII lower case but the long s, mapped
 * here; what else it changes (`É`, or `İ` to two units) can only add places to look, never lose
 * a match. Native: a megabyte of capitals folds in a millisecond.
 */
export function foldForLiterals(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes('\u017f') ? lower.replace(/\u017f/g, 's') : lower;
}

/** Where the group opening at `i` closes (the index after its `)`), or -1 when it does not. */
function groupEnd(p: string, i: number): number {
  let depth = 0;
  for (let j = i; j < p.length; j++) {
    const c = p[j];
    if (c === '\\') j++;
    else if (c === '[') {
      const end = classEnd(p, j);
      if (end < 0) return -1;
      j = end - 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j + 1;
  }
  return -1;
}

/** Where the class opening at `i` closes (the index after its `]`), or -1 when it does not. */
function classEnd(p: string, i: number): number {
  for (let j = i + 1; j < p.length; j++) {
    if (p[j] === '\\') j++;
    else if (p[j] === ']') return j + 1;
  }
  return -1;
}

/** The length of a quantifier at `i` (with its lazy `?`), 0 when none is there, -1 for a `{` that is not one. */
function quantifierLength(p: string, i: number): number {
  const c = p[i];
  let n = 0;
  if (c === '?' || c === '*' || c === '+') n = 1;
  else if (c === '{') {
    const m = /^\{\d+(?:,\d*)?\}/.exec(p.slice(i, i + 24));
    if (!m) return -1;
    n = m[0].length;
  } else return 0;
  return p[i + n] === '?' ? n + 1 : n;
}

/** The text every match of `pattern` contains, or undefined when this reader cannot tell any. */
export function requiredText(pattern: string): RequiredText | undefined {
  let i = 0;
  let foldCase = false;
  const lead = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (lead) {
    for (const f of lead[1]) {
      if (f === 'i') foldCase = true;
      else if (!INERT_FLAGS.has(f)) return undefined;
    }
    i = lead[0].length;
  }
  const runs: string[] = [];
  let run = '';
  // Nothing but characters and assertions met so far.
  let whole = true;
  // The code units of the last character put on the run: a quantifier after it takes it back off.
  let last = 0;
  const end = () => {
    if (run.length >= MIN_LITERAL) runs.push(run);
    run = '';
    last = 0;
  };
  while (i < pattern.length) {
    const c = pattern[i];
    const q = quantifierLength(pattern, i);
    if (q < 0) return undefined;
    if (q > 0) {
      whole = false;
      // What it repeats may be left out (`?`, `*`, `{0}`) or repeated: the run stops before it.
      run = run.slice(0, run.length - last);
      end();
      i += q;
      continue;
    }
    if (c === '|') return undefined;
    if (c === '(' || c === '[') {
      // Flags set here change how the rest of the pattern reads.
      INLINE_FLAGS.lastIndex = i;
      if (c === '(' && INLINE_FLAGS.test(pattern)) return undefined;
      // A group's own alternatives and flags stay inside it, a class is one character: either ends the run.
      const close = c === '(' ? groupEnd(pattern, i) : classEnd(pattern, i);
      if (close < 0) return undefined;
      whole = false;
      end();
      i = close;
      continue;
    }
    if (c === '\\') {
      const d = pattern[i + 1];
      if (d === undefined) return undefined;
      if (IDENTITY_ESCAPES.has(d)) {
        i += 2;
        if (!put(d)) end();
        continue;
      }
      // `\x41`, `\u{…}`, `\p{…}`, a back-reference: their length or meaning is not read here.
      if (!CLASS_ESCAPES.has(d)) return undefined;
      if (d !== 'b' && d !== 'B') whole = false;
      end();
      i += 2;
      continue;
    }
    if (SPECIAL.has(c)) {
      // `^`, `$`, `.`, and a stray `)`, `]` or `}`.
      if (c === ')' || c === ']' || c === '}') return undefined;
      if (c === '.') whole = false;
      end();
      i++;
      continue;
    }
    const cp = pattern.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    i += ch.length;
    // A control character or half a surrogate pair is left to RE2 to read.
    if (cp < 0x20 || (cp >= 0xd800 && cp <= 0xdfff)) whole = false;
    if (!put(ch)) end();
  }
  end();
  return runs.length ? { runs: trimmed(runs), foldCase, whole } : undefined;

  /** Puts a literal character on the run; false when it cannot be compared (non-ASCII under `(?i)`). */
  function put(ch: string): boolean {
    if (foldCase) {
      const code = ch.charCodeAt(0);
      if (ch.length > 1 || code > 127) return false;
      ch = foldForLiterals(ch);
    }
    run += ch;
    last = ch.length;
    return true;
  }
}
