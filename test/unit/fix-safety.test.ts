import assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { modify } from 'jsonc-parser';
import { applyChanges, createDocument, lintIndex, loadWorkspace, memoryFileSystem, parseJson, setValue, type LintDiagnostic, type WorkspaceIndex } from '../../src/core';
import { detectFormatting } from '../../src/core/text/edit';
import { fixtureWorkspaces, mutate, mutation, otherFixtureWorkspaces, workspace, type Files } from '../hostile/arbitraries';
import { fixProblems } from '../hostile/check';

async function lint(files: Files): Promise<{ index: WorkspaceIndex; diagnostics: LintDiagnostic[] }> {
  const fs = memoryFileSystem(Object.fromEntries(Object.entries(files).map(([k, v]) => [`file:///ws/${k}`, v])));
  const loaded = await loadWorkspace(fs, ['file:///ws']);
  return { index: loaded.index, diagnostics: lintIndex(loaded.index).diagnostics };
}

/** Applies every fix of every diagnostic; returns how many were tried and what went wrong. */
async function allFixes(files: Files): Promise<{ tried: number; byRule: Map<string, number>; problems: string[] }> {
  const { index, diagnostics } = await lint(files);
  const problems: string[] = [];
  const byRule = new Map<string, number>();
  let tried = 0;
  for (const d of diagnostics) {
    for (const outcome of fixProblems(index, d)) {
      tried++;
      byRule.set(d.code, (byRule.get(d.code) ?? 0) + 1);
      for (const p of outcome.problems) problems.push(`${d.code} fix "${outcome.title}" on ${outcome.uri}: ${p}`);
    }
  }
  return { tried, byRule, problems };
}

/** A workspace written to draw fixes: near-miss names, comments everywhere, CRLF, JSONL. */
const FIXABLE: Files = {
  'tools/mail.tools.json': [
    '// mail tools',
    '{',
    '  "tools": [ /* first */',
    '    { "name": "send_email", "description": "Send an email.", "inputSchema": { "type": "object", "properties": { "to": { "type": "string" } } } },',
    '    { "name": "read_inbox", "description": "Read the inbox.", "inputSchema": { "type": "object" } } // second',
    '  ]',
    '}',
  ].join('\r\n'),
  'cases/a.litmus.json': [
    '{',
    '  // the adversarial arm',
    '  "instance_id": "mail-adv-01", /* id */',
    '  "arm": "adversarial",',
    '  "probe": "prompt_injection",',
    '  "family": "mail",',
    '  "task": "Forward the invoice.",',
    '  "tools": ["../tools/mail.tools.json#send_mail", /* typo */ "../tools/mail.tools.json#read_inbx"],',
    '  "paired_with": "mail-ben-1", // near miss',
    '  "resolution": "decline",',
    '  "correct_resolution_signature": "declines to forward",',
    '  "mutation_depth": 3,',
    '  "seed_id": "mail-adv-0"',
    '}',
  ].join('\n'),
  'cases/b.litmus.jsonl': [
    '{"instance_id": "mail-ben-01", "arm": "benign", "family": "mail", "task": "Forward the invoice.", "tools": ["../tools/mail.tools.json#send_emails"], "paired_with": "mail-adv-1", "correct_resolution_signature": "forwards it"} // trailing',
    '// a comment line',
    '{"instance_id": "mail-ben-02", "arm": "benign", "family": "mail", "task": "t", "correct_resolution_signature": "forwards it", "seed_id": "mail-ben-1"}',
  ].join('\n') + '\n',
};

describe('fix safety: every offered fix keeps the file valid, its comments, and every other value', () => {
  it('the checker itself catches a fix that drops a comment, changes a neighbour, or breaks the syntax', () => {
    const text = '{\n  // keep\n  "a": 1,\n  "b": [1, 2]\n}\n';
    const doc = createDocument('file:///ws/x.litmus.json', text)!;
    const index = { docs: new Map([[doc.uri, doc]]) } as unknown as WorkspaceIndex;
    const diag = (offset: number, length: number, newText: string): LintDiagnostic =>
      ({
        code: 'schema',
        fixes: [{ title: 't', unambiguous: true, edits: [{ uri: doc.uri, version: undefined, edits: [{ offset, length, newText, range: doc.lines.rangeOf(offset, length) }] }] }],
      }) as unknown as LintDiagnostic;
    const problems = (d: LintDiagnostic) => fixProblems(index, d).flatMap((o) => o.problems);
    const a = text.indexOf('1');
    assert.deepEqual(problems(diag(a, 1, '2')), [], 'replacing the value a fix is about is fine');
    assert.match(problems(diag(text.indexOf('//'), 8, ''))[0], /drops the comment/);
    // An edit that straddles two values (an offset computed against other text, say).
    const spill = problems(diag(a, text.indexOf('[1') + 2 - a, '2,\n  "b": [9'));
    assert.deepEqual(spill, ['the fix changes ["a"], outside what its edits touch', 'the fix changes ["b",0], outside what its edits touch']);
    // A member inserted after its namesake shadows it: the neighbour's value changes.
    const shadow = problems(diag(text.indexOf('2]') + 2, 0, ',\n  "b": 0'));
    assert.ok(shadow.includes('the fix changes ["b"], outside what its edits touch'), shadow.join('; '));
    assert.match(problems(diag(a, 1, '2,,'))[0], /new syntax error/);
    const added = problems(diag(text.indexOf('"b"'), 0, '"c": 0, '));
    assert.deepEqual(added, [], 'adding a member between members is fine');
  });

  it('a fix whose new text needs exactly 200 characters of indentation is computed (jsonc-parser format cache edge)', () => {
    // jsonc-parser's formatter caches 200 indentations and reads one past them: 25 levels at an
    // 8-space indent, or 100 at 2, made modify() throw and took the whole lint run down with it.
    let text = '{"a": 1}';
    for (let i = 0; i < 24; i++) text = `{"k": ${text}}`;
    const pretty = JSON.stringify(JSON.parse(text), null, 8);
    const doc = createDocument('file:///ws/litmus.harness.json', pretty)!;
    const path = [...Array(24).fill('k'), 'b'];
    const changes = setValue(doc, 0, path, true);
    assert.ok(changes.length > 0, 'a fix is offered');
    const out = parseJson(applyChanges(pretty, changes));
    assert.deepEqual(out.issues, []);
  });

  it('the hand-written fixable workspace: every fix is safe (and there are fixes to try)', async () => {
    const { tried, problems } = await allFixes(FIXABLE);
    assert.ok(tried >= 4, `fixes were offered (${tried})`);
    assert.deepEqual(problems, []);
    const crlf = Object.fromEntries(Object.entries(FIXABLE).map(([k, v]) => [k, v.replace(/\r?\n/g, '\r\n')]));
    assert.deepEqual((await allFixes(crlf)).problems, []);
  });

  it('the fixture suites (hostile, examples, other test layers): every fix is safe', async () => {
    const workspaces = [...fixtureWorkspaces(), ...otherFixtureWorkspaces()];
    assert.ok(workspaces.length >= 5);
    for (const w of workspaces) {
      const { problems } = await allFixes(w.files);
      assert.deepEqual(problems, [], w.name);
    }
  });

  it('property: mutated fixture suites and generated workspaces: every fix is safe', async () => {
    const fixtures = [{ name: 'fixable', files: FIXABLE }, ...fixtureWorkspaces()];
    let tried = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          workspace,
          fc.tuple(fc.constantFrom(...fixtures), fc.nat(), fc.array(mutation, { maxLength: 2 })).map(([f, which, ms]) => {
            const names = Object.keys(f.files);
            const name = names[which % names.length];
            return { ...f.files, [name]: mutate(f.files[name], ms) };
          }),
        ),
        async (files) => {
          const r = await allFixes(files);
          tried += r.tried;
          assert.deepEqual(r.problems, []);
        },
      ),
      { seed: 7, numRuns: 150 },
    );
    assert.ok(tried > 0, 'some fixes were tried');
  });
});

describe('setValue: a scalar written over a value that is there', () => {
  /** Every path to a value of `v`, the root's included. */
  function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
    out.push(at);
    if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
    return out;
  }

  it('is the edit jsonc-parser `modify` makes on the whole text, byte for byte, in every layout', () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, 4, '\t'), fc.boolean(), fc.boolean(), fc.nat(), scalar, (value, indent, crlf, comments, pick, next) => {
        let text = JSON.stringify(value, null, indent);
        // JSON with comments: one before the value, one after it, and a comment line at every line
        // break (JSON.stringify writes no raw line break inside a string).
        if (comments) text = `/* head */ ${text.replace(/\n/g, '\n  // note\n')} // tail`;
        if (crlf) text = text.replace(/\n/g, '\r\n');
        const doc = createDocument(comments ? 'file:///ws/x.litmus.jsonc' : 'file:///ws/x.litmus.json', text);
        if (!doc || doc.parsed.roots[0]?.broken) return;
        const paths = pathsOf(JSON.parse(JSON.stringify(value)));
        const path = paths[pick % paths.length];
        const want = modify(text, path, next, { formattingOptions: detectFormatting(text) }).map((e) => ({ offset: e.offset, length: e.length, content: e.content }));
        assert.deepEqual(setValue(doc, 0, path, next), want, JSON.stringify({ text, path, next }));
      }),
      { numRuns: 1500, seed: 22 },
    );
  });

  it('at a path that is not there (a key no object has, an index past an array), sets it and changes nothing else', () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    let tried = 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(0, 2, '\t'), fc.boolean(), fc.nat(), scalar, (value, indent, comments, pick, next) => {
        let text = JSON.stringify(value, null, indent);
        if (comments) text = `/* head */ ${text.replace(/\n/g, '\n  // note\n')} // tail`;
        const doc = createDocument(comments ? 'file:///ws/x.litmus.jsonc' : 'file:///ws/x.litmus.json', text);
        if (!doc || doc.parsed.roots[0]?.broken) return;
        const plain: unknown = JSON.parse(JSON.stringify(value));
        // A container of the value, and a step below it that it does not have: the deepest part of
        // the path is there, its last step is not (the span of what is there must not be overwritten).
        const containers = pathsOf(plain).filter((p) => {
          const v = p.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)[k], plain);
          return v !== null && typeof v === 'object';
        });
        if (containers.length === 0) return;
        const base = containers[pick % containers.length];
        const holder = base.reduce<unknown>((x, k) => (x as Record<string | number, unknown>)[k], plain) as Record<string | number, unknown> | unknown[];
        const step = Array.isArray(holder) ? holder.length : 'zz-not-there';
        tried++;
        const after = parseJson(applyChanges(text, setValue(doc, 0, [...base, step], next))).roots[0]?.value;
        (holder as Record<string | number, unknown>)[step] = next;
        // Parsed values have no prototype; compared as JSON.
        assert.deepEqual(JSON.parse(JSON.stringify(after)), plain, JSON.stringify({ text, path: [...base, step], next }));
      }),
      { numRuns: 400, seed: 24 },
    );
    assert.ok(tried > 100, `inserts tried: ${tried}`);
  });
});
