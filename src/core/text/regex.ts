import { RE2JS } from 're2js';

/**
 * Regular expressions written in suite files (schema `pattern` and `patternProperties`, the config's
 * `injection.allow`) run on RE2, whose matching time is linear in the input whatever the pattern:
 * a backtracking engine can be made to run for minutes by a 20-byte pattern. RE2 cannot run
 * back-references and look-arounds; such a pattern is "not checked" rather than run on V8.
 */
export interface LinearRegExp {
  test(text: string): boolean;
}

export type CompiledPattern = { ok: true; re: LinearRegExp } | { ok: false; reason: string };

/** Longer patterns are not compiled: RE2's program grows with the pattern. */
export const MAX_PATTERN_LENGTH = 4096;
const MAX_CACHED = 512;
const cache = new Map<string, CompiledPattern>();

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

function compileUncached(pattern: string, flags: string): CompiledPattern {
  if (pattern.length > MAX_PATTERN_LENGTH) return { ok: false, reason: `longer than ${MAX_PATTERN_LENGTH} characters` };
  const bits = flagBits(flags);
  if (bits === undefined) return { ok: false, reason: `unknown flags ${JSON.stringify(flags)}` };
  try {
    // JavaScript syntax (`\u00e9`, `[^]`, named groups) in RE2's spelling.
    const re = RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
    return { ok: true, re: { test: (text: string) => re.test(text) } };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { ok: false, reason: message.replace(/^error parsing regexp: /, '') };
  }
}

/** A pattern compiled for RE2, or why it cannot be (a back-reference, a look-around, too long). */
export function compileLinear(pattern: string, flags = ''): CompiledPattern {
  const key = `${flags}/${pattern}`;
  let hit = cache.get(key);
  if (!hit) {
    hit = compileUncached(pattern, flags);
    if (pattern.length <= MAX_PATTERN_LENGTH) {
      if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
      cache.set(key, hit);
    }
  }
  return hit;
}
