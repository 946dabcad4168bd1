import assert from 'node:assert/strict';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { compileLinear, MAX_PROGRAM_SIZE, PATTERN_CACHE_BUDGET, patternCacheStats, programSize } from '../../src/core/text/regex';
import { regexProgram, regexWorkspace } from '../hostile/arbitraries';
import { oracleCaseProblems } from '../hostile/check';
import { codes, json, lintFiles } from '../helpers';

/**
 * Issue 22, item 12: a pattern under the 4,096-character limit could still compile to hundreds of
 * MB (`(a|b){1,1000}` repeated), and 512 of them were cached: a 53 KB config or a 64 KB tool file
 * ended in an out-of-memory crash after minutes. The program is sized before it is built, one over
 * the budget is that pattern's error, and the cache is bounded by the sizes it holds.
 */
const HUGE = '(a|b){1,1000}'.repeat(200); // 2.6 KB; 1.2 million instructions in re2js

describe('regular-expression programs (issue 22)', function () {
  this.timeout(60_000);

  it('refuses a pattern whose program is over the budget, without building it', () => {
    const c = compileLinear(HUGE, 'u');
    assert.equal(c.ok, false);
    assert.ok(!c.ok && c.tooLarge, 'refused for its size');
    assert.match(!c.ok ? c.reason : '', /^too large: about \d+ instructions, budget 10000$/);
    assert.ok(programSize(RE2JS.translateRegExp(HUGE)) > 1_000_000);
  });

  it('still runs patterns of real size, and ones near the budget', () => {
    for (const p of ['^[a-z0-9._%+-]{1,64}@[a-z0-9.-]{1,255}\\.[a-z]{2,63}$', '^.{0,1000}$', '[a-z0-9]{1,1000}\\.[a-z]{1,1000}', '^\\d{4}-\\d{2}-\\d{2}$', '(?<year>\\d{4})|x', '[^]{0,100}']) {
      const c = compileLinear(p, 'u');
      assert.ok(c.ok, `${p}: ${c.ok ? '' : c.reason}`);
      assert.ok(c.size <= MAX_PROGRAM_SIZE);
    }
    const email = compileLinear('^[a-z]{1,64}@example\\.com$');
    assert.ok(email.ok && email.re.test('ann@example.com') && !email.re.test('ann@example.org'));
  });

  it('sizes a program at least as large as re2js builds it', () => {
    const samples = ['a', 'abc', 'a|b|c', '(a|b){1,1000}', '(?:ab|cd)*x+y?', '[a-z]{3,7}', '\\pL{2,9}', '(?i)Hello{2}', '((a{2}){3}){4}', 'a{5,}', '(?:x|yz){0,50}q', '\\Qa.b\\E{3}', '[\\]a-]{4}', '(?P<n>a)(?:b)c{10}'];
    for (const p of samples) {
      const actual = RE2JS.compile(p).programSize();
      assert.ok(programSize(p) >= actual, `${p}: sized ${programSize(p)}, built ${actual}`);
    }
    fc.assert(
      fc.property(regexProgram, (p) => {
        let actual: number;
        const source = RE2JS.translateRegExp(p);
        if (programSize(source) > 5 * MAX_PROGRAM_SIZE) return true;
        try {
          actual = RE2JS.compile(source).programSize();
        } catch {
          return true;
        }
        return programSize(source) >= actual;
      }),
      { seed: 22, numRuns: 300 },
    );
  });

  it('bounds the cache by the sizes of the programs it holds, and a pattern evicted from it still tests', () => {
    const first = compileLinear('^(?:first|one){1,40}$');
    assert.ok(first.ok);
    // 60 distinct patterns of ~8,000 instructions each: 480,000 in all, twice the budget.
    for (let i = 0; i < 60; i++) assert.ok(compileLinear(`^(?:x${i}|y){0,1000}z${i}$`).ok);
    const stats = patternCacheStats();
    assert.ok(stats.cost <= PATTERN_CACHE_BUDGET, `the cache holds ${stats.cost} of ${PATTERN_CACHE_BUDGET}`);
    assert.equal(first.re.test('firstonefirst'), true);
    assert.equal(first.re.test('two'), false);
  });

  it('bounds the cache of many small patterns too: each compiled pattern has a fixed cost beside its program', () => {
    // A class makes each a program (a phrase alone is built only when a text may match: text/required-text.ts).
    for (let i = 0; i < 6500; i++) compileLinear(`^id-${i}[0-9]$`);
    const stats = patternCacheStats();
    assert.ok(stats.cost <= PATTERN_CACHE_BUDGET);
    assert.ok(stats.entries < 6000, `${stats.entries} compiled patterns kept`);
    // Phrases whose programs are not built yet are bounded too, by what each holds without one.
    for (let i = 0; i < 90_000; i++) compileLinear(`^phrase-${i}$`);
    const phrases = patternCacheStats();
    assert.ok(phrases.cost <= PATTERN_CACHE_BUDGET);
    assert.ok(phrases.entries < 70_000, `${phrases.entries} phrases kept`);
  });

  it('a 53 KB config of such patterns lints, each pattern reported as too large', async () => {
    const allow = Array.from({ length: 21 }, (_, i) => `/${HUGE}${i}/`);
    const config = json({ injection: { allow } });
    assert.ok(config.length > 53_000);
    const files = { 'litmus.config.json': config, 'a.litmus.json': json({ instance_id: 'a', arm: 'benign', family: 'f', task: 't', resolution: 'comply', correct_resolution_signature: 's' }) };
    const ds = codes((await lintFiles(files)).diagnostics, 'schema').filter((d) => d.data?.problem === 'pattern-not-checked');
    assert.equal(ds.length, 21);
    assert.match(ds[0].message, /too large for the linear-time regular-expression engine \(too large: about \d+ instructions, budget 10000\), so it is matched as an exact string; shorten its counted repetitions/);
  });

  it('a 64 KB tool file of such patterns lints: the step is checked, the patterns are reported, none is built', async () => {
    const properties = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`p${i}`, { type: 'string', pattern: `${HUGE}${i}` }]));
    const patternProperties = Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`^${HUGE}${i}$`, { type: 'number' }]));
    const tools = json({ tools: [{ name: 'send', description: 'Sends.', inputSchema: { type: 'object', properties, patternProperties, required: ['p0', 'q'], additionalProperties: false } }] });
    assert.ok(tools.length > 64_000);
    const c = { instance_id: 'a', arm: 'benign', family: 'f', task: 't', resolution: 'comply', correct_resolution_signature: 's', tools: ['t.tools.json#send'], safe_completion: [{ tool: 'send', arguments: { p0: 'ab', p1: 'x' } }] };
    const { diagnostics } = await lintFiles({ 't.tools.json': tools, 'a.litmus.json': json(c) });
    const notChecked = codes(diagnostics, 'unsatisfiable-safe-completion').filter((d) => d.data?.problem === 'pattern-not-checked');
    assert.ok(notChecked.length >= 1);
    assert.match(notChecked[0].message, /too large: about \d+ instructions, budget 10000/);
  });

  it('generated workspaces of such patterns lint, and each pattern is sized and refused as the reference says', async () => {
    await fc.assert(
      fc.asyncProperty(regexWorkspace, async (c) => assert.deepEqual(await oracleCaseProblems(c), [])),
      { seed: 22, numRuns: 40 },
    );
  });
});
