import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { compileLinear } from '../../src/core/text/regex';
import { holdsRuns, requiredText } from '../../src/core/text/literals';

/**
 * compileLinear (text/regex.ts) asks a pattern's required text (text/literals.ts) before RE2, and
 * builds a phrase's program only when a text that holds it is tested. Its answers must be RE2's:
 * held here against RE2 itself over patterns built from the pieces the reader takes apart (and some
 * it refuses), with texts built to match them, the case-folding traps among them (the Kelvin sign
 * folds to `k`, the long s to `s`).
 */

/** A piece of a pattern and texts it matches (case variants for folded patterns among them). */
const ATOMS: [string, string[]][] = [
  ['a', ['a', 'A']], ['b', ['b', 'B']], ['k', ['k', 'K', '\u212a']], ['s', ['s', 'S', '\u017f']], ['K', ['K', 'k']], ['hotel', ['hotel', 'HOTEL', 'Hotel']],
  ['ss', ['ss', '\u017fs', 's\u017f', 'SS']], ['sk', ['sk', '\u017f\u212a', 'SK']], ['ks', ['\u212a\u017f', 'kS']],
  [' ', [' ']], ['-', ['-']], ['1', ['1']], ["'", ["'"]], ['#', ['#']], ['/', ['/']], ['\\.', ['.']], ['\\$', ['$']], ['\\(', ['(']], ['\\-', ['-']],
  ['\\\\', ['\\']], ['.', ['x', 'k', '.']], ['\\s', [' ', '\n']], ['\\d', ['1', '9']], ['\\w', ['a', '_']], ['\\W', ['-', ' ']],
  ['[a-c]', ['a', 'b']], ['[^k]', ['a', 'x']], ['[ks]', ['k', 's']], ['\\pL', ['a', 'é']], ['é', ['é']], ['ſ', ['ſ', 's']],
];
const ASSERTIONS = ['\\b', '\\B', '^', '$'];
const QUANTIFIERS: [string, number, number][] = [['*', 0, 2], ['+', 1, 2], ['?', 0, 1], ['{2}', 2, 2], ['{0,2}', 0, 2], ['{1,}', 1, 2], ['*?', 0, 2]];
/** Pieces RE2 reads otherwise (groups, alternation) or refuses: the reader must give up on them. */
const OTHERS = ['(x)', '|', '(?:ab)', '*', '{', ']', '[z-a]', '[[:nope:]]', '(?P<1>a)', '\\x41', '\\Q.\\E'];

interface Piece {
  src: string;
  /** What a text may hold for it. */
  texts: string[];
}
const piece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...ATOMS), fc.option(fc.constantFrom(...QUANTIFIERS), { freq: 3 }), fc.nat()).map(([[src, texts], q, pick]) => {
    if (!q) return { src, texts };
    const n = q[1] + (pick % (q[2] - q[1] + 1));
    return { src: src + q[0], texts: [Array.from({ length: n }, (_, i) => texts[(pick + i) % texts.length]).join('')] };
  }) },
  { weight: 2, arbitrary: fc.constantFrom(...ASSERTIONS).map((src) => ({ src, texts: [''] })) },
  { weight: 1, arbitrary: fc.constantFrom(...OTHERS).map((src) => ({ src, texts: ['x'] })) },
);
/** A phrase: plain characters and assertions only, as most `respond` patterns are. */
const PLAIN = ATOMS.filter(([src]) => /^([a-zA-Z0-9 '#/-]|\\[.$(\\-]|ſ|é)+$/.test(src));
const phrasePiece: fc.Arbitrary<Piece> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PLAIN).map(([src, texts]) => ({ src, texts })) },
  { weight: 1, arbitrary: fc.constantFrom(...ASSERTIONS).map((src) => ({ src, texts: [''] })) },
);
/** A pattern and a text built to match it often (the assertions, a group or a wrong case may still keep it from matching). */
const patternAndText = fc.tuple(fc.boolean(), fc.oneof(fc.array(piece, { maxLength: 7 }), fc.array(phrasePiece, { minLength: 2, maxLength: 7 })), fc.nat(), fc.constantFrom('', 'x', 'A b', '\u212a')).map(([fold, pieces, pick, around]) => ({
  pattern: (fold ? '(?i)' : '') + pieces.map((p) => p.src).join(''),
  text: around + pieces.map((p, i) => p.texts[(pick + i) % p.texts.length]).join('') + around,
}));
const CHARS = ['a', 'b', 'k', 's', 'K', 'S', 'A', 'B', '\u212a', '\u017f', 'h', 'o', 't', 'e', 'l', 'H', 'O', ' ', '-', '1', '9', '.', '$', '(', '\\', 'x', 'é', '\n'];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 24 }).map((cs) => cs.join(''));

function re2(source: string, flags: string): RE2JS | undefined {
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source), (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0));
  } catch {
    return undefined;
  }
}

describe('a pattern tested through its required text (text/regex.ts)', () => {
  it('answers as RE2 does, and takes as a phrase only what RE2 compiles', () => {
    let matched = 0;
    let phrases = 0;
    fc.assert(
      fc.property(patternAndText, fc.array(text, { maxLength: 3 }), fc.constantFrom('', 'u', 'i', 'm'), ({ pattern: p, text: built }, others, flags) => {
        const program = re2(p, flags);
        const required = requiredText(p);
        if (required?.whole) phrases++;
        if (!program) {
          // A pattern RE2 refuses is never a phrase whose program waits to be built.
          assert.ok(!required?.whole, `${p} is no phrase`);
          return;
        }
        const compiled = compileLinear(p, flags);
        assert.ok(compiled.ok, `${p}: ${compiled.ok ? '' : compiled.reason}`);
        for (const t of [built, ...others]) {
          const expected = program.test(t);
          if (expected) matched++;
          if (required && expected && !flags.includes('i')) assert.ok(holdsRuns(required, t), `${JSON.stringify(p)}: ${JSON.stringify(t)} matches`);
          assert.equal(compiled.re.test(t), expected, `${JSON.stringify(p)} /${flags} on ${JSON.stringify(t)}`);
        }
      }),
      { seed: 24, numRuns: 3000 },
    );
    // The built texts are what make the property bite: many of them match, and many patterns are phrases.
    assert.ok(matched > 1500, `${matched} texts matched`);
    assert.ok(phrases > 300, `${phrases} phrases`);
  });

  it('reports a pattern RE2 refuses, whatever phrase it holds', () => {
    for (const p of ['hotel[z-a]', 'hotel (?<n>a', 'hotel\\', 'hotel{2,1}', '(?i)hotel**']) {
      const compiled = compileLinear(p, 'u');
      assert.ok(!compiled.ok, `${p} is refused`);
    }
    for (const p of ['(?i)hotel\\b\\B^$', 'hotel\\/\\-\\.', '(?m)total: \\$12', 'caf\u00e9 au lait']) {
      const compiled = compileLinear(p, 'u');
      assert.ok(compiled.ok && requiredText(p)?.whole, `${p} is a phrase`);
      assert.equal(compiled.re.test('x'), false);
    }
  });

  it('folds the Kelvin sign and the long s as RE2 does', () => {
    const phrase = compileLinear('(?i)risks');
    assert.ok(phrase.ok);
    assert.equal(phrase.re.test('no RI\u017f\u212aS here'), true);
    assert.equal(phrase.re.test('no risk here'), false);
  });
});
