import assert from 'node:assert/strict';
import { RE2JS } from 're2js';
import { foldForLiterals, requiredText } from '../../src/core/text/literals';
import { compileLinear } from '../../src/core/text/regex';
import { callMatches, patternMatcher, respondMatches } from '../../src/core/trajectory/match';
import { compilePredicate, type ActionPattern, type CallPattern, type RespondPattern } from '../../src/core/trajectory/patterns';
import type { CallStep, RespondStep } from '../../src/core/trajectory/steps';
import { lintRule, rng, suite, type Case } from '../helpers';

/** The matcher's indexes (answers.ts, the `where` groups of match.ts) against testing every pattern. */

describe('the text a pattern requires', () => {
  it('reads top-level runs of plain characters, and nothing it is unsure of', () => {
    const cases: [string, ReturnType<typeof requiredText>][] = [
      ['hotel', { runs: ['hotel'], foldCase: false, whole: true }],
      ['(?i)Hotel 17\\b', { runs: ['hotel 17'], foldCase: true, whole: true }],
      ['^abc.def$', { runs: ['abc', 'def'], foldCase: false, whole: false }],
      ['abcd?ef', { runs: ['abc'], foldCase: false, whole: false }],
      ['abcd{2}efg', { runs: ['abc', 'efg'], foldCase: false, whole: false }],
      ['abc*?xyz', { runs: ['xyz'], foldCase: false, whole: false }],
      ['a\\.b\\.c', { runs: ['a.b.c'], foldCase: false, whole: true }],
      ['pay (now|later) please', { runs: ['pay ', ' please'], foldCase: false, whole: false }],
      ['[abc]def[g]', { runs: ['def'], foldCase: false, whole: false }],
      ['(?i)straße now', { runs: ['stra', 'e now'], foldCase: true, whole: true }],
      ['café au lait', { runs: ['café au lait'], foldCase: false, whole: true }],
      ['ab', undefined],
      ['abc|def', undefined],
      ['abc(?i)def', undefined],
      ['abc(?imsUimsUimsUimsU)def', undefined],
      ['abcd(?i:x)efgh', { runs: ['abcd', 'efgh'], foldCase: false, whole: false }],
      ['(?x)abc', undefined],
      ['\\x41bcd', undefined],
      ['abcd\\1', undefined],
      ['abc{def', undefined],
      ['abc)', undefined],
      ['(abc', undefined],
    ];
    for (const [pattern, want] of cases) assert.deepEqual(requiredText(pattern), want, pattern);
  });

  it('folds onto ASCII lower case every character RE2 relates to an ASCII letter', () => {
    assert.equal(foldForLiterals('KELVIN \u212a, LONG \u017f'), 'kelvin k, long s');
    const plain = 'already folded';
    assert.equal(foldForLiterals(plain), plain);
  });

  it('is in every text a random pattern matches (RE2 decides the match)', () => {
    const r = rng(7);
    const atoms = ['a', 'b', 'k', 'K', 's', 'S', 'é', ' ', 'ask', 'Kas', 'bask', '\\.', '\\d', '\\b', '.', '[ab]', '(a|bk)', '(?:sk)', '^', '$'];
    const quantifiers = ['', '', '', '', '', '', '?', '*', '+', '{2}', '{1,2}', '??'];
    const chars = ['a', 'b', 'k', 'K', '\u212a', 's', 'S', '\u017f', 'é', 'É', ' ', '.', '1'];
    let checked = 0;
    for (let round = 0; round < 3000; round++) {
      let pattern = r.chance(0.4) ? '(?i)' : '';
      for (let n = 1 + r.int(8); n > 0; n--) pattern += r.pick(atoms) + r.pick(quantifiers);
      // RE2 itself decides: compileLinear's own test now asks the required text first.
      const compiled = compileLinear(pattern, 'u');
      const required = requiredText(pattern);
      if (!compiled.ok || !required) continue;
      const program = RE2JS.compile(RE2JS.translateRegExp(pattern));
      for (let t = 0; t < 30; t++) {
        let text = '';
        // Pieces of the pattern's own text (a run folded back and forth) among random characters, so that matches are not rare.
        for (let n = r.int(8); n > 0; n--) text += r.chance(0.5) ? r.pick(chars) : r.pick(atoms.filter((a) => /^[a-zA-Zé ]+$/.test(a)));
        if (r.chance(0.7)) text = text.slice(0, r.int(text.length + 1)) + r.pick(required.runs).replace(/k/g, () => r.pick(['k', 'K', '\u212a'])) + text;
        if (!program.test(text)) continue;
        const against = required.foldCase ? foldForLiterals(text) : text;
        for (const run of required.runs) assert.ok(against.includes(run), JSON.stringify({ pattern, text, run }));
        checked++;
      }
    }
    assert.ok(checked > 1000, `only ${checked} matches checked`);
  });
});

describe('the pattern matcher over many patterns', () => {
  const respond = (index: number, schema: unknown): RespondPattern => ({ kind: 'respond', index, respond: compilePredicate(schema) });
  const whereCall = (index: number, tool: string, where: unknown): CallPattern => ({
    kind: 'call',
    index,
    tool,
    byName: false,
    arguments: [],
    argumentValues: {},
    where: compilePredicate(where),
    minCalls: 1,
  });

  it('answers every respond pattern as testing each one does', () => {
    const r = rng(23);
    const words = ['hotel', 'Hotel', 'HOTEL', 'h\u212aotel', 'done', 'for', '17', '170', 'refund', 'stra\u017fe', ' ', '.'];
    const schemas = (): unknown => {
      const pattern = (r.chance(0.3) ? '(?i)' : '') + r.pick(['hotel 17', 'hotel 17\\b', 'done', 'refund|hotel', 'for 1[0-9]', 'x{2}', 'h.tel', 'straße', '\\x41']);
      switch (r.int(5)) {
        case 0:
          return { type: 'string', pattern, minLength: r.int(20) };
        case 1:
          return r.chance(0.5)
            ? { $ref: '#/$defs/s', $defs: { s: { type: 'string' } }, pattern }
            : { $schema: 'http://json-schema.org/draft-07/schema#', $ref: '#/definitions/s', definitions: { s: { type: 'string' } }, pattern };
        case 2:
          return { enum: ['done', 'Done for 17.'] };
        case 3:
          return { anyOf: [{ pattern }, { const: 'hotel' }] };
        default:
          return { pattern };
      }
    };
    for (let round = 0; round < 150; round++) {
      const patterns: ActionPattern[] = Array.from({ length: 1 + r.int(30) }, (_, index) => respond(index, schemas()));
      const match = patternMatcher(patterns.map((pattern) => ({ pattern })));
      for (let k = 0; k < 20; k++) {
        let text = '';
        for (let n = r.int(6); n > 0; n--) text += r.pick(words) + r.pick([' ', '', '!']);
        const step: RespondStep = { kind: 'respond', index: 0, text };
        const want = patterns.filter((p) => respondMatches(step, p as RespondPattern)).map((p) => p.index);
        assert.deepEqual(match(step).map((h) => h.pattern.index), want, JSON.stringify({ text, schemas: patterns.map((p) => (p as RespondPattern).respond.schema) }));
        // Asked again, the same answer.
        assert.deepEqual(match(step).map((h) => h.pattern.index), want);
      }
    }
  });

  it('answers every `where` pattern as testing each one does, grouped by the names it requires', () => {
    const r = rng(29);
    const wheres = (): unknown =>
      r.pick([
        { required: ['amount'], properties: { amount: { exclusiveMinimum: r.int(5) } } },
        { required: ['amount', 'to'] },
        { required: ['to'], properties: { to: { pattern: 'evil' } } },
        { required: ['constructor'] },
        { $ref: '#/$defs/a', $defs: { a: { type: 'object' } }, required: ['amount'] },
        { $schema: 'http://json-schema.org/draft-07/schema#', $ref: '#/definitions/a', definitions: { a: { type: 'object' } }, required: ['to'] },
        { properties: { amount: { maximum: 2 } } },
        { not: { required: ['amount'] } },
        { required: 'amount' },
      ]);
    for (let round = 0; round < 200; round++) {
      // Past 16 patterns the matcher groups them (match.ts, SMALL): both sides.
      const patterns: CallPattern[] = Array.from({ length: 1 + r.int(40) }, (_, index) => whereCall(index, r.pick(['send', 'pay']), wheres()));
      const match = patternMatcher(patterns.map((pattern) => ({ pattern })));
      for (let k = 0; k < 10; k++) {
        const args: Record<string, unknown> = r.chance(0.2) ? {} : (Object.create(null) as Record<string, unknown>);
        if (r.chance(0.6)) args.amount = r.int(6);
        if (r.chance(0.5)) args.to = r.pick(['evil.example', 'friend']);
        const step: CallStep = { kind: 'call', index: k, tool: r.pick(['send', 'pay']), arguments: args };
        assert.deepEqual(match(step).map((h) => h.pattern.index), patterns.filter((p) => callMatches(step, p)).map((p) => p.index), JSON.stringify({ args, patterns: patterns.map((p) => p.where?.schema) }));
      }
    }
  });

  it('tests each answer against the few patterns whose required text it holds, not against all', () => {
    // 3,000 distinct patterns against 3,000 distinct answers: nine million RE2 runs unindexed.
    const n = 3000;
    let runs = 0;
    const counted = (schema: unknown) => {
      const p = compilePredicate(schema);
      assert.equal(p.state, 'ok');
      return { ...p, test: (v: unknown) => (runs++, p.state === 'ok' && p.test(v)) } as RespondPattern['respond'];
    };
    const patterns = Array.from({ length: n }, (_, i): RespondPattern => ({ kind: 'respond', index: i, respond: counted({ type: 'string', pattern: `(?i)hotel ${i}\\b` }) }));
    const match = patternMatcher(patterns.map((pattern) => ({ pattern })));
    let found = 0;
    for (let i = 0; i < n; i++) found += match({ kind: 'respond', index: 0, text: i === 17 ? 'Booked HOTEL 17 for you.' : `Done for ${i}.` }).length;
    assert.equal(found, 1);
    assert.ok(runs <= n, `${runs} RE2 runs for ${n} answers`);
  });

  it('keeps the index for a dozen respond patterns, where a few patterns are each tested', () => {
    // Twelve patterns would each run over every answer of a completion of thousands unindexed.
    let runs = 0;
    const counted = (schema: unknown) => {
      const p = compilePredicate(schema);
      assert.equal(p.state, 'ok');
      return { ...p, test: (v: unknown) => (runs++, p.state === 'ok' && p.test(v)) } as RespondPattern['respond'];
    };
    const patterns = Array.from({ length: 12 }, (_, i): RespondPattern => ({ kind: 'respond', index: i, respond: counted({ type: 'string', pattern: `(?i)hotel ${i}\\b` }) }));
    const match = patternMatcher(patterns.map((pattern) => ({ pattern })));
    let found = 0;
    for (let i = 0; i < 1000; i++) found += match({ kind: 'respond', index: 0, text: i === 7 ? 'Booked HOTEL 7.' : `Done for ${i}.` }).length;
    assert.equal(found, 1);
    assert.ok(runs <= 1000, `${runs} RE2 runs for 1,000 answers`);
  });

  it('finds the one benign answer that an adversarial respond pattern of a large family scores', async () => {
    const cases: Case[] = [];
    for (let i = 0; i < 300; i++) {
      cases.push({ instance_id: `a${i}`, arm: 'adversarial', probe: 'skill_misuse', family: 'one', task: 't', correct_resolution_signature: `sa${i}`, unsafe_actions: [{ respond: { type: 'string', pattern: `(?i)hotel ${i}\\b` } }] });
      const answer = i === 17 ? 'Booked HOTEL 17 for you.' : `Done for ${i}.`;
      cases.push({ instance_id: `b${i}`, arm: 'benign', family: 'one', task: 't', correct_resolution_signature: `sb${i}`, safe_completion: [{ respond: answer }] });
    }
    const ds = await lintRule({ 'one.litmus.json': suite(...cases) }, 'scope-contradiction');
    assert.equal(ds.length, 2);
    const [adv, ben] = [...ds].sort((a, b) => String(a.data?.arm).localeCompare(String(b.data?.arm)));
    assert.match(adv.message, /^unsafe_actions\[0\] scores a final answer as unsafe, but benign case `b17`/);
    assert.match(ben.message, /^safe_completion step 0 answers as adversarial case `a17`/);
  });
});
