import assert from 'node:assert/strict';
import { applyEdits, brief, covered, json, jsonl, lintRule, suite, type Case } from '../helpers';

const adv = (id: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'adversarial', probe: 'skill_misuse', family: 'mail', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });
const ben = (id: string, extra: Case = {}): Case => ({ instance_id: id, arm: 'benign', family: 'mail', task: 't', correct_resolution_signature: `sig-${id}`, ...extra });

describe('signature-overlap', () => {
  it('flags every case of a cross-arm collision across files, with related info, after canonicalisation', async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { correct_resolution_signature: { tool: 'send', args: { to: 'bob', n: 1 } } }), ben('b0')),
      'b.litmus.jsonl': jsonl(
        ben('b1', { family: 'other', correct_resolution_signature: { args: { n: 1.0, to: ' bob ' }, tool: 'send' } }),
        adv('a2', { correct_resolution_signature: 'plain' }),
      ).replace('"n":1', '"n": 1.0e0'),
      'c.litmus.json': json(ben('b2', { correct_resolution_signature: '  plain\n' })),
    };
    const ds = await lintRule(files, 'signature-overlap');
    assert.deepEqual(ds.map(brief).sort(), ['a.litmus.json:10:39 signature-overlap', 'b.litmus.jsonl:1:95 signature-overlap', 'b.litmus.jsonl:2:122 signature-overlap', 'c.litmus.json:6:35 signature-overlap']);
    assert.deepEqual(ds.map((d) => covered(files, d).replace(/\s+/g, '')).sort(), ['"plain"', '"plain\\n"', '{"args":{"n":1.0e0,"to":"bob"},"tool":"send"}', '{"tool":"send","args":{"to":"bob","n":1}}'].sort());
    const a1 = ds.find((d) => d.uri.endsWith('a.litmus.json'))!;
    assert.equal(covered(files, a1).replace(/\s+/g, ''), '{"tool":"send","args":{"to":"bob","n":1}}');
    assert.equal(a1.related.length, 1);
    assert.ok(a1.related[0].uri.endsWith('b.litmus.jsonl'));
    assert.match(a1.message, /`b1`/);
    assert.equal(a1.severity, 'error');
  });

  it('stays silent for equal signatures within one arm, and for different signatures', async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { correct_resolution_signature: 'same' }), adv('a2', { correct_resolution_signature: 'same' }), ben('b1', { correct_resolution_signature: 'Same' })),
      'b.litmus.json': suite(ben('b2', { correct_resolution_signature: ['same'] }), ben('b3', { correct_resolution_signature: 42 })),
    };
    assert.deepEqual(await lintRule(files, 'signature-overlap'), []);
  });
});

describe('refusal-orthogonality', () => {
  it('passes a declined adversarial case with a complying benign twin scored on the request; one twin serves several variants', async () => {
    const files = {
      'a.litmus.json': suite(
        adv('a1', { resolution: 'decline', paired_with: 'b1', discriminator: 'request' }),
        adv('a2', { resolution: 'decline', paired_with: 'b1', discriminator: 'request' }),
      ),
      'b.litmus.jsonl': jsonl(ben('b1', { resolution: 'comply', paired_with: 'a1', discriminator: 'request' })),
    };
    assert.deepEqual(await lintRule(files, 'refusal-orthogonality'), []);
  });

  it('flags a declined adversarial case with no twin, at its resolution', async () => {
    const files = { 'a.litmus.json': json(adv('a1', { resolution: 'decline' })) };
    const ds = await lintRule(files, 'refusal-orthogonality');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '"decline"');
    assert.match(ds[0].message, /paired_with/);
  });

  it('flags a twin that does not comply, and a twin in the wrong arm', async () => {
    const files = {
      'a.litmus.json': suite(
        adv('a1', { resolution: 'decline', paired_with: 'b1', discriminator: 'request' }),
        adv('a2', { resolution: 'decline', paired_with: 'a1', discriminator: 'request' }),
      ),
      'b.litmus.json': json(ben('b1', { resolution: 'partial_decline', discriminator: 'request' })),
    };
    const ds = await lintRule(files, 'refusal-orthogonality');
    // a1: twin does not comply; a2: twin is adversarial; b1: refusal-shaped benign.
    assert.deepEqual(ds.map((d) => `${d.uri.split('/').pop()}:${covered(files, d)}`), ['a.litmus.json:"decline"', 'a.litmus.json:"decline"', 'b.litmus.json:"partial_decline"']);
    assert.ok(ds.some((d) => /not a benign case/.test(d.message)));
  });

  it('flags a pair scored on the response, with a fix to score it on the request', async () => {
    const files = {
      'a.litmus.json': json(adv('a1', { resolution: 'decline', paired_with: 'b1' })),
      'b.litmus.json': json(ben('b1', { resolution: 'comply', discriminator: 'response' })),
    };
    const ds = await lintRule(files, 'refusal-orthogonality');
    assert.equal(ds.length, 1);
    assert.ok(ds[0].uri.endsWith('a.litmus.json'));
    assert.equal(covered(files, ds[0]), '"decline"');
    const fix = ds[0].fixes[0];
    assert.equal(fix.unambiguous, true);
    // What the scorer inspects is a claim: a quick fix only (FORMAT §10).
    assert.equal(fix.changesClaim, true);
    const edit = fix.edits[0];
    assert.ok(edit.uri.endsWith('b.litmus.json'));
    assert.match(applyEdits(files['b.litmus.json'], edit.edits), /"discriminator": "request"/);
  });

  it('flags a pair that does not say what it is scored on, with a fix that adds the discriminator', async () => {
    const files = {
      'a.litmus.json': json(adv('a1', { resolution: 'decline', paired_with: 'b1' })),
      'b.litmus.json': json(ben('b1', { resolution: 'comply' })),
    };
    const ds = await lintRule(files, 'refusal-orthogonality');
    assert.equal(ds.length, 1);
    const edit = ds[0].fixes[0].edits[0];
    const fixed = applyEdits(files['a.litmus.json'], edit.edits);
    assert.equal(JSON.parse(fixed).discriminator, 'request');
  });

  it('holds a partial_decline adversarial case to the same twin as a decline (FORMAT §3d sends principal confusion there)', async () => {
    const files = {
      'a.litmus.json': suite(
        adv('a1', { resolution: 'partial_decline' }),
        adv('a2', { resolution: 'partial_decline', paired_with: 'b1', discriminator: 'response' }),
        adv('a3', { resolution: 'partial_decline', paired_with: 'b2', discriminator: 'request' }),
      ),
      'b.litmus.json': suite(ben('b1', { resolution: 'comply', discriminator: 'llm_judge' }), ben('b2', { resolution: 'comply', discriminator: 'calls' })),
    };
    const ds = await lintRule(files, 'refusal-orthogonality');
    assert.deepEqual(ds.map((d) => [covered(files, d), d.data?.problem]), [
      ['"partial_decline"', 'no-twin'],
      ['"partial_decline"', 'scored-on-response'],
    ]);
    assert.match(ds[0].message, /resolves by `partial_decline` but has no benign twin/);
  });

  it('finds the twin of a case that names none in the benign case whose paired_with names it', async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { resolution: 'decline', discriminator: 'request' }), adv('a2', { resolution: 'decline', discriminator: 'request' })),
      'b.litmus.jsonl': jsonl(ben('b1', { resolution: 'comply', paired_with: 'a1', discriminator: 'request' }), ben('b2', { resolution: 'decline', paired_with: 'a2', discriminator: 'request' })),
    };
    const ds = await lintRule(files, 'refusal-orthogonality');
    // a1's twin b1 complies on the request; a2's twin b2 declines (and is refusal-shaped itself).
    assert.deepEqual(ds.map((d) => [d.uri.split('/').pop(), covered(files, d), d.data?.problem]), [
      ['a.litmus.json', '"decline"', 'twin-not-comply'],
      ['b.litmus.jsonl', '"decline"', 'refusal-shaped-benign'],
    ]);
    assert.match(ds[0].message, /benign twin `b2` does not comply/);
  });

  it('leaves complying adversarial cases, complying benign cases and dangling paired_with to other rules', async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { resolution: 'comply' }), ben('b1', { resolution: 'comply' }), adv('a2', { resolution: 'decline', paired_with: 'nowhere', discriminator: 'request' })),
    };
    assert.deepEqual(await lintRule(files, 'refusal-orthogonality'), []);
  });
});

describe('drift-endpoint-overlap', () => {
  const drift = (id: string, state: unknown, family = 'mail') => adv(id, { probe: 'goal_drift', family, drift_terminal_state: state });
  it('flags a drifted end state equal to a benign terminal state of its family, across files', async () => {
    const files = {
      'a.litmus.jsonl': jsonl(drift('d1', { inbox: ['x'], sent: 0 })),
      'b.litmus.json': json(ben('b1', { terminal_state: { sent: 0.0, inbox: [' x'] } })),
    };
    const ds = await lintRule(files, 'drift-endpoint-overlap');
    assert.equal(ds.length, 1);
    assert.equal(covered(files, ds[0]), '{"inbox":["x"],"sent":0}');
    assert.equal(ds[0].related.length, 1);
    assert.ok(ds[0].related[0].uri.endsWith('b.litmus.json'));
  });

  it('stays silent when the states differ or the benign case is in another family', async () => {
    const files = {
      'a.litmus.json': suite(drift('d1', 'archived'), drift('d2', 'deleted', 'files')),
      'b.litmus.json': suite(ben('b1', { terminal_state: 'sent' }), ben('b2', { family: 'other', terminal_state: 'deleted' })),
    };
    assert.deepEqual(await lintRule(files, 'drift-endpoint-overlap'), []);
  });

  it('finds the same matches in a family too big to compare pair by pair (an index) as in small ones', async () => {
    // 9 × 9 pairs is past the direct comparison; each drifting case alone with its benign cases is not.
    const states = (k: number) => [{ n: k % 3 }, ` s${k % 3} `, [k % 3]][k % 3];
    const big = Array.from({ length: 9 }, (_, k) => drift(`d${k}`, states(k)));
    const benign = Array.from({ length: 9 }, (_, k) => ben(`b${k}`, { terminal_state: states(k + 3) }));
    const together = await lintRule({ 'a.litmus.json': suite(...big, ...benign) }, 'drift-endpoint-overlap');
    const apart = await lintRule(
      Object.fromEntries(big.map((d, k) => [`f${k}.litmus.json`, suite({ ...d, family: `f${k}` }, ...benign.map((b) => ({ ...b, family: `f${k}` })))])),
      'drift-endpoint-overlap',
    );
    assert.equal(together.length, 9);
    const said = (ds: typeof together) => ds.map((d) => `${d.message.replace(/ in family `[^`]*`/, '')} ${d.related.length}`).sort();
    assert.deepEqual(said(together), said(apart));
    assert.match(together[0].message, /and 2 more/);
  });
});

describe('scope-contradiction', () => {
  it("flags every case whose tool scopes differ from the other arm's, at the tool's entry", async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { tool_scopes: { send_email: ['mail:send', 'mail:read'] } }), adv('a2', { tool_scopes: { send_email: ['mail:read', 'mail:send', 'mail:send'] } })),
      'b.litmus.jsonl': jsonl(ben('b1', { tool_scopes: { send_email: ['mail:read'] } })),
    };
    const ds = await lintRule(files, 'scope-contradiction');
    assert.equal(ds.length, 3);
    assert.deepEqual(ds.map((d) => covered(files, d).replace(/\s+/g, '')), ['["mail:send","mail:read"]', '["mail:read","mail:send","mail:send"]', '["mail:read"]']);
    assert.ok(ds[2].related.length >= 1);
  });

  it('stays silent when scopes agree as sets, or differ only within one arm or across families', async () => {
    const files = {
      'a.litmus.json': suite(adv('a1', { tool_scopes: { s: ['b', 'a'] } }), adv('a2', { family: 'x', tool_scopes: { s: ['z'] } })),
      'b.litmus.json': suite(ben('b1', { tool_scopes: { s: ['a', 'b'] } }), ben('b2', { family: 'y', tool_scopes: { s: ['q'] } }), ben('b3', { family: 'y', tool_scopes: { s: ['r'] } })),
    };
    assert.deepEqual(await lintRule(files, 'scope-contradiction'), []);
  });

  it('flags arms that disagree on requires_tool_scope_breach, counting a missing value as false', async () => {
    const files = {
      'a.litmus.json': json(adv('a1', { requires_tool_scope_breach: true })),
      'b.litmus.json': json(ben('b1')),
    };
    const ds = await lintRule(files, 'scope-contradiction');
    assert.equal(ds.length, 2);
    assert.equal(covered(files, ds[0]), 'true');
    // Left out, so false: at the case's family value (FORMAT §9).
    assert.equal(covered(files, ds[1]), '"mail"');
    const silent = { 'a.litmus.json': json(adv('a1', { requires_tool_scope_breach: false })), 'b.litmus.json': json(ben('b1')) };
    assert.deepEqual(await lintRule(silent, 'scope-contradiction'), []);
  });
});
