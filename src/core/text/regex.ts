import { RE2JS } from 're2js';
import { holdsRuns, requiredText } from './literals';

/**
 * Regular expressions written in suite files (schema `pattern` and `patternProperties`, the config's
 * `injection.allow`) run on RE2, whose matching time is linear in the input whatever the pattern:
 * a backtracking engine can be made to run for minutes by a 20-byte pattern. RE2 cannot run
 * back-references and look-arounds; such a pattern is "not checked" rather than run on V8.
 *
 * Linear time is not small memory: RE2 compiles a pattern to a program of instructions, and counted
 * repetitions copy what they repeat, so `(a|b){1,1000}` is 6,000 instructions from 13 characters,
 * and 200 of them in one 2.8 KB pattern made a program of 1.2 million (250 MB and seconds to build
 * in re2js). So a pattern's program is sized from its text before it is compiled, and one over
 * MAX_PROGRAM_SIZE is refused with that reason; compiled programs are kept only in one cache
 * bounded by the sum of their sizes (PATTERN_CACHE_BUDGET), and a compiled pattern holds no program
 * of its own: after an eviction its next test compiles it again.
 */
export interface LinearRegExp {
  test(text: string): boolean;
}

export type CompiledPattern =
  | { ok: true; re: LinearRegExp; /** Instructions of its program (of a phrase not built yet, the bound read from its text). */ size: number }
  | {
      ok: false;
      reason: string;
      /** Refused for its size (not its syntax): shorten its counted repetitions. */
      tooLarge?: boolean;
      /** What to do about it, said in a message after the reason: each cause has its own. */
      fix: string;
    };

/** Longer patterns are not looked at: their text alone is kept in caches and keys. */
export const MAX_PATTERN_LENGTH = 4096;
/**
 * Instructions one pattern's program may have (about 2 MB and 60 ms to build in re2js). Real
 * schema patterns have tens to a few hundred; `^.{0,1000}$` has 2,004, and RE2 allows no count
 * above 1,000.
 */
export const MAX_PROGRAM_SIZE = 10_000;
/** What the cache of compiled programs may hold in all, in instructions (about 50 MB). */
export const PATTERN_CACHE_BUDGET = 250_000;

interface Entry {
  verdict: CompiledPattern;
  /** The program, while the cache holds it. */
  re?: RE2JS;
  /** What the entry counts against the budget: its program, plus its key's text. */
  cost: number;
}

const cache = new Map<string, Entry>();
let cost = 0;

/** How full the cache is: entries and their cost (instructions; see keyCost). */
export function patternCacheStats(): { entries: number; cost: number; budget: number } {
  return { entries: cache.size, cost, budget: PATTERN_CACHE_BUDGET };
}

function flagBits(flags: string): number | undefined {
  let bits = 0;
  for (const f of flags) {
    if (f === 'i') bits |= RE2JS.CASE_INSENSITIVE;
    else if (f === 'm') bits |= RE2JS.MULTILINE;
    else if (f === 's') bits |= RE2JS.DOTALL;
    // RE2 always reads Unicode; global and sticky do not change what `test` answers.
    else if (f !== 'u' && f !== 'v' && f !== 'g' && f !== 'y' && f !== 'd') return undefined;
  }
  return bits;
}

/** Keeps `entry` as the most recently used, and drops the least recently used past the budget. */
function admit(key: string, entry: Entry): void {
  const old = cache.get(key);
  if (old) {
    cache.delete(key);
    cost -= old.cost;
  }
  cache.set(key, entry);
  cost += entry.cost;
  for (const [k, e] of cache) {
    if (cost <= PATTERN_CACHE_BUDGET || e === entry) break;
    cache.delete(k);
    cost -= e.cost;
    // A compiled pattern of a holder (a validator, a config) compiles it again when it next tests.
    e.re = undefined;
  }
}

/** What a pattern whose program is not built yet holds beside its key (its verdict, its test and its required text), in instructions. */
const UNBUILT_COST = 2;

/**
 * What an entry counts against the budget, in instructions (about 200 bytes each in re2js): its
 * program, a compiled pattern's fixed part (its matcher, prefix and one-pass tables: about 7 KB
 * even for `a`, so a cache of small patterns is bounded too), and its key's text.
 */
function keyCost(key: string, size: number | undefined): number {
  return (size === undefined ? 1 : size + 40) + Math.ceil(key.length / 16);
}

/** The program of a pattern known to compile: the cache's, or compiled again after an eviction. */
function programOf(key: string, source: string, bits: number, verdict: CompiledPattern): RE2JS {
  const hit = cache.get(key);
  if (hit?.re) return hit.re;
  const re = RE2JS.compile(source, bits);
  admit(key, { verdict: hit?.verdict ?? verdict, re, cost: keyCost(key, re.programSize()) });
  return re;
}

const SHORTEN = 'shorten its counted repetitions such as {1,1000}';

function tooLarge(size: number): CompiledPattern {
  return { ok: false, tooLarge: true, reason: `too large: about ${Math.round(size)} instructions, budget ${MAX_PROGRAM_SIZE}`, fix: SHORTEN };
}

/** An unescaped look-around in a pattern's text, and what it is called. */
function lookAround(pattern: string): string | undefined {
  const m = /(?:^|[^\\])(?:\\\\)*\(\?(<=|<!|=|!)/.exec(pattern);
  if (!m) return undefined;
  return m[1].startsWith('<') ? `a look-behind \`(?${m[1]}\`` : `a look-ahead \`(?${m[1]}\``;
}

/**
 * Why RE2 refuses a pattern, and the fix for that cause: a look-around or a back-reference (which
 * RE2 never runs: rewrite without it), or a syntax error (which no engine runs: fix the syntax).
 * RE2 reads `(?<=` as a named group it cannot parse, so look-arounds are found in the text itself.
 */
function refusal(pattern: string, e: unknown): CompiledPattern {
  const around = lookAround(pattern);
  if (around) return { ok: false, reason: `${around}, which RE2 does not support`, fix: 'rewrite it without look-arounds' };
  const error = (e as { error?: unknown; input?: unknown } | null) ?? {};
  const input = typeof error.input === 'string' ? error.input : '';
  if (error.error === 'invalid escape sequence' && /^\\[1-9]/.test(input)) {
    return { ok: false, reason: `a back-reference \`${input}\`, which RE2 does not support`, fix: 'rewrite it without back-references' };
  }
  const fix =
    error.error === 'missing closing )' ? 'close the group with `)`, or write a literal `(` as `\\(`'
    : error.error === 'missing closing ]' ? 'close the character class with `]`, or write a literal `[` as `\\[`'
    : error.error === 'unexpected )' ? 'remove the stray `)`, or write a literal `)` as `\\)`'
    : 'fix its syntax';
  return { ok: false, reason: errorText(e), fix };
}

function compileUncached(key: string, pattern: string, flags: string): Entry {
  const fail = (verdict: CompiledPattern): Entry => ({ verdict, cost: keyCost(key, undefined) });
  if (pattern.length > MAX_PATTERN_LENGTH) return fail({ ok: false, tooLarge: true, reason: `longer than ${MAX_PATTERN_LENGTH} characters`, fix: `shorten it to ${MAX_PATTERN_LENGTH} characters or fewer` });
  const bits = flagBits(flags);
  if (bits === undefined) return fail({ ok: false, reason: `unknown flags ${JSON.stringify(flags)}`, fix: 'use only the flags i, m and s after the closing /' });
  let source: string;
  try {
    // JavaScript syntax (`\u00e9`, `[^]`, named groups) in RE2's spelling.
    source = RE2JS.translateRegExp(pattern);
  } catch (e) {
    return fail(refusal(pattern, e));
  }
  // Sized before it is built: building the program is what costs the memory.
  const estimate = programSize(source);
  if (estimate > MAX_PROGRAM_SIZE) return fail(tooLarge(estimate));
  // A text without the runs every match contains is no match: RE2 is not asked (re2js has no
  // prefilter for case-folded text). Read from the pattern as written; the `i` flag is not modelled.
  const required = flags.includes('i') ? undefined : requiredText(pattern);
  if (required?.whole) {
    // A phrase RE2 surely compiles: its program is built when a text that holds the phrase is first
    // tested (a case's own `respond` phrase is mostly tested against answers without it).
    const handle: LinearRegExp = { test: (text: string) => holdsRuns(required, text) && programOf(key, source, bits, verdict).test(text) };
    const verdict: CompiledPattern = { ok: true, re: handle, size: estimate };
    return { verdict, cost: keyCost(key, undefined) + UNBUILT_COST };
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, bits);
  } catch (e) {
    return fail(refusal(pattern, e));
  }
  const size = re.programSize();
  if (size > MAX_PROGRAM_SIZE) return fail(tooLarge(size));
  const handle: LinearRegExp = required
    ? { test: (text: string) => holdsRuns(required, text) && programOf(key, source, bits, verdict).test(text) }
    : { test: (text: string) => programOf(key, source, bits, verdict).test(text) };
  const verdict: CompiledPattern = { ok: true, re: handle, size };
  return { verdict, re, cost: keyCost(key, size) };
}

function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return message.replace(/^error parsing regexp: /, '');
}

/**
 * A pattern compiled for RE2, or why it cannot be (a back-reference, a look-around, a program over
 * MAX_PROGRAM_SIZE, a text over MAX_PATTERN_LENGTH). The same pattern and flags give the same
 * answer, and the same `re`, while the cache holds it.
 */
export function compileLinear(pattern: string, flags = ''): CompiledPattern {
  const key = `${flags}/${pattern}`;
  const hit = cache.get(key);
  if (hit) {
    // Recently asked for: kept longest.
    cache.delete(key);
    cache.set(key, hit);
    return hit.verdict;
  }
  const entry = compileUncached(key, pattern, flags);
  admit(key, entry);
  return entry.verdict;
}

/**
 * How many instructions RE2 compiles a pattern (in RE2's syntax) to, at most, read from its text in
 * one pass: a literal character, a class or an escape is one; a group adds 2 (capturing) or 6 (a
 * look-behind); `|` adds one; `*` adds 2, `+` and `?` one; `{n,m}` is m copies of what it repeats
 * plus m − n (RE2's own count, Go's regexp/syntax calcSize). Repetition multiplies through nesting,
 * which is how a short pattern gets a large program. An upper bound: RE2 merges alternatives of
 * single characters into one class, and literal prefixes of alternatives, where this does not.
 */
export function programSize(source: string): number {
  interface Frame {
    /** Alternatives before the current one. */
    done: number;
    bars: number;
    /** The current alternative so far. */
    cur: number;
    /** The last thing a quantifier would apply to. */
    last: number;
    overhead: number;
  }
  const n = source.length;
  const stack: Frame[] = [];
  let f: Frame = { done: 0, bars: 0, cur: 0, last: 0, overhead: 0 };
  const atom = (size: number) => {
    f.cur += size;
    f.last = size;
  };
  const repeat = (min: number, max: number) => {
    const s = f.last;
    const size = max < 0 ? (min === 0 ? 2 + s : 1 + min * s) : max * s + (max - min);
    f.cur += size - s;
    f.last = size;
  };
  const close = (): number => Math.max(1, f.done + f.cur + f.bars) + f.overhead;
  let i = 0;
  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 92 /* \ */) {
      const d = source[i + 1];
      if (d === 'Q') {
        const end = source.indexOf('\\E', i + 2);
        const literal = end < 0 ? n - i - 2 : end - i - 2;
        f.cur += literal;
        f.last = literal > 0 ? 1 : f.last;
        i = end < 0 ? n : end + 2;
        continue;
      }
      if ((d === 'p' || d === 'P' || d === 'x') && source[i + 2] === '{') {
        const end = source.indexOf('}', i + 3);
        i = end < 0 ? n : end + 1;
      } else if (d === 'p' || d === 'P') i += 3;
      else if (d === 'x') i += 4;
      else i += 2;
      atom(1);
      continue;
    }
    if (c === 91 /* [ */) {
      i = classEnd(source, i);
      atom(1);
      continue;
    }
    if (c === 40 /* ( */) {
      let overhead = 2;
      let j = i + 1;
      if (source[j] === '?') {
        const d = source[j + 1];
        const e = source[j + 2];
        if ((d === 'P' && e === '<') || (d === '<' && e !== '=' && e !== '!')) {
          const end = source.indexOf('>', j);
          j = end < 0 ? n : end + 1;
        } else if (d === '<' || d === '=' || d === '!') {
          overhead = 6;
          j += d === '<' ? 3 : 2;
        } else {
          let k = j + 1;
          while (k < n && /[a-zA-Z-]/.test(source[k])) k++;
          if (source[k] === ')') {
            // (?i): flags only, nothing to repeat.
            i = k + 1;
            f.last = 0;
            continue;
          }
          overhead = 0;
          j = k + 1;
        }
      }
      stack.push(f);
      f = { done: 0, bars: 0, cur: 0, last: 0, overhead };
      i = j;
      continue;
    }
    if (c === 41 /* ) */ && stack.length) {
      const size = close();
      f = stack.pop()!;
      atom(size);
      i++;
      continue;
    }
    if (c === 124 /* | */) {
      f.done += f.cur;
      f.bars++;
      f.cur = 0;
      f.last = 0;
      i++;
      continue;
    }
    if (c === 42 /* * */ || c === 43 /* + */ || c === 63 /* ? */) {
      repeat(c === 43 ? 1 : 0, c === 63 ? 1 : -1);
      i += source[i + 1] === '?' ? 2 : 1;
      continue;
    }
    if (c === 123 /* { */) {
      const m = /^\{(\d{1,7})(,(\d{0,7}))?\}/.exec(source.slice(i, i + 20));
      if (m) {
        const min = Number(m[1]);
        const max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
        repeat(min, max);
        i += m[0].length;
        if (source[i] === '?') i++;
        continue;
      }
    }
    // A character (a surrogate pair is one), `.`, `^`, `$`, or a `{` that repeats nothing.
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
    atom(1);
  }
  while (stack.length) {
    const size = close();
    f = stack.pop()!;
    atom(size);
  }
  // RE2's program starts with a failure instruction and ends with a match.
  return Math.max(1, f.done + f.cur + f.bars) + 2;
}

/** Index just past the character class that opens at `i`. */
function classEnd(source: string, i: number): number {
  const n = source.length;
  let j = i + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  while (j < n) {
    const ch = source[j];
    if (ch === '\\') {
      const d = source[j + 1];
      if ((d === 'p' || d === 'P' || d === 'x') && source[j + 2] === '{') {
        const end = source.indexOf('}', j + 3);
        j = end < 0 ? n : end + 1;
      } else j += 2;
      continue;
    }
    if (ch === '[' && source[j + 1] === ':') {
      const end = source.indexOf(':]', j + 2);
      if (end >= 0) {
        j = end + 2;
        continue;
      }
    }
    if (ch === ']') return j + 1;
    j++;
  }
  return n;
}

/**
 * What to do about a schema `pattern` RE2 refuses (schemas compile theirs with the `u` flag): the
 * fix its refusal names, read from the cache. A pattern that runs needs none.
 */
export function unrunnableFix(pattern: string, flags = 'u'): string {
  const compiled = compileLinear(pattern, flags);
  return compiled.ok ? 'rewrite the pattern' : compiled.fix;
}
