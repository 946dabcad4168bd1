import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { compileLinear } from '../../src/core/text/regex';
import { mayMatch, requiredText } from '../../src/core/text/required-text';

/**
 * A pattern's required text lets a test answer "no" without RE2 (text/required-text.ts). It must
 * never say "no" where RE2 says "yes": held here against RE2 itself over patterns built from the
 * pieces the reader takes apart (and some it refuses), and texts that hold the case-folding traps
 * (the Kelvin sign folds to `k`, the long s to `s`).
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
const OTHERS = ['(x)', '|', '(?:ab)', '*', '{', ']', '\\x41', '\\Q.\\E'];

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
/** A pattern and a text built to match it often (the assertions, a group or a wrong case may still keep it from matching). */
const patternAndText = fc.tuple(fc.boolean(), fc.array(piece, { maxLength: 7 }), fc.nat(), fc.constantFrom('', 'x', 'A b', '\u212a')).map(([fold, pieces, pick, around]) => ({
  pattern: (fold ? '(?i)' : '') + pieces.map((p) => p.src).join(''),
  text: around + pieces.map((p, i) => p.texts[(pick + i) % p.texts.length]).join('') + around,
}));
const CHARS = ['a', 'b', 'k', 's', 'K', 'S', 'A', 'B', '\u212a', '\u017f', 'h', 'o', 't', 'e', 'l', 'H', 'O', ' ', '-', '1', '9', '.', '$', '(', '\\', 'x', 'é', '\n'];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 24 }).map((cs) => cs.join(''));

function re2(source: string, flags: string): RE2JS | undefined {
  try {
    return RE2JS.compile(RE2JS.translateRegExp(source), flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    return undefined;
  }
}

describe('the text every match of a pattern holds (text/required-text.ts)', () => {
  it('never turns away a text RE2 matches', () => {
    let matched = 0;
    fc.assert(
      fc.property(patternAndText, fc.array(text, { maxLength: 3 }), fc.constantFrom('', 'u', 'i'), ({ pattern: p, text: built }, others, flags) => {
        const program = re2(p, flags);
        const required = requiredText(RE2JS.translateRegExp(p), flags);
        if (!program) {
          // A pattern RE2 refuses is never taken as a plain phrase.
          assert.ok(!required?.literalOnly, `${p} is no phrase`);
          return;
        }
        for (const t of [built, ...others]) {
          const expected = program.test(t);
          if (expected) matched++;
          if (required && expected) assert.ok(mayMatch(required, t), `${JSON.stringify(p)} /${flags}: ${JSON.stringify(t)} matches`);
          const compiled = compileLinear(p, flags);
          assert.ok(compiled.ok, `${p}: ${compiled.ok ? '' : compiled.reason}`);
          assert.equal(compiled.re.test(t), expected, `${JSON.stringify(p)} /${flags} on ${JSON.stringify(t)}`);
        }
      }),
      { seed: 24, numRuns: 3000 },
    );
    // The built texts are what make the property bite: most of them match.
    assert.ok(matched > 1500, `${matched} texts matched`);
  });

  it('reads a phrase and its assertions, and nothing it cannot read', () => {
    assert.deepEqual(requiredText('(?i)Riverside View hotel 12\\b', ''), { text: 'riverside view hotel 12', fold: true, literalOnly: true });
    assert.deepEqual(requiredText('^total: \\$12\\.50$', 'u'), { text: 'total: $12.50', fold: false, literalOnly: true });
    assert.deepEqual(requiredText('transfer(red)? \\d+ to', ''), undefined);
    assert.deepEqual(requiredText('transferred \\d+ EUR to account', ''), { text: ' EUR to account', fold: false, literalOnly: false });
    assert.deepEqual(requiredText('hotels?', 'i'), { text: 'hotel', fold: true, literalOnly: false });
    assert.equal(requiredText('a|b', ''), undefined);
    assert.equal(requiredText('caf\u00e9', ''), undefined);
    assert.equal(requiredText('\\x41', ''), undefined);
  });

  it('folds only ASCII text: the Kelvin sign and the long s are left to RE2', () => {
    const r = requiredText('(?i)ks', '')!;
    assert.equal(mayMatch(r, 'xKSx'), true);
    assert.equal(mayMatch(r, 'x\u212a\u017fx'), true);
    assert.equal(mayMatch(r, 'plain ascii'), false);
    const phrase = compileLinear('(?i)ks');
    assert.ok(phrase.ok && phrase.re.test('\u212a\u017f') && !phrase.re.test('kx'));
  });
});
