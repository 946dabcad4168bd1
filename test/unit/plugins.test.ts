import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { JsonReport } from '../../src/cli/format/json';
import { runCli } from '../../src/cli/run';
import { nodeFileSystem } from '../../src/node/fs';
import { captureIo } from '../cli/capture';

// Issue 23: custom rules. A `plugins` entry of litmus.config.json loads a module of rules in the
// linter's own shape; they run over the same model and are reported like built-in rules.
const ROOT = resolve(__dirname, '../../..');
const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';

const PLUGIN_CJS = `
const rules = [
  {
    meta: { id: 'acme/no-todo', defaultSeverity: 'warning', description: 'A task that still says TODO.', docsUrl: 'https://example.com/acme/no-todo' },
    check(ctx) {
      for (const c of ctx.index.cases) {
        if (typeof c.value.task === 'string' && c.value.task.includes('TODO')) {
          ctx.report({ at: { uri: c.doc.uri, root: c.root, path: ctx.index.casePath(c, 'task') }, message: 'task of ' + c.id + ' says TODO' });
        }
      }
    },
  },
];
module.exports = { rules };
`;

describe('plugins: custom rules from litmus.config.json', function () {
  this.timeout(60000);
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'litmus-plugins-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(tmp, rel)), { recursive: true });
    writeFileSync(join(tmp, rel), text);
  };
  const pair = (dir: string, task: string) => {
    write(`${dir}/a.litmus.json`, json({ suite: dir, cases: [
      { instance_id: `${dir}-a`, arm: 'adversarial', probe: 'skill_misuse', family: dir, task, resolution: 'decline', discriminator: 'request', correct_resolution_signature: `no-${dir}`, paired_with: `${dir}-b` },
      { instance_id: `${dir}-b`, arm: 'benign', family: dir, task: 'Summarise the notes.', resolution: 'comply', discriminator: 'request', correct_resolution_signature: `yes-${dir}`, paired_with: `${dir}-a` },
    ] }));
  };
  const lint = async (args: string[]) => {
    const cap = captureIo(nodeFileSystem, tmp);
    const status = await runCli(['--format', 'json', ...args], cap.io);
    const out = cap.stdout();
    return { status, report: (out ? JSON.parse(out) : { files: [] }) as JsonReport, stderr: cap.stderr() };
  };
  const findings = (r: { report: JsonReport }) => r.report.files.flatMap((f) => f.diagnostics.map((d) => ({ path: f.path, ...d })));

  it('runs a CommonJS plugin\'s rule, with its severity from the config, its docs link and its place', async () => {
    write('plugins/acme.cjs', PLUGIN_CJS);
    write('litmus.config.json', json({ plugins: ['./plugins/acme.cjs'], rules: { 'acme/no-todo': 'error' } }));
    pair('s', 'TODO write the attack');
    const r = await lint(['.']);
    const d = findings(r).find((x) => x.ruleId === 'acme/no-todo');
    assert.ok(d, JSON.stringify(findings(r)));
    assert.equal(d.severity, 'error');
    assert.equal(d.docsUrl, 'https://example.com/acme/no-todo');
    assert.equal(d.message, 'task of s-a says TODO');
    assert.equal(r.status, 1);
    // The config names a rule a plugin brings: not a schema error.
    assert.ok(!findings(r).some((x) => x.ruleId === 'schema'), JSON.stringify(findings(r)));
  });

  it('takes --rule, suppression comments, and --no-plugins', async () => {
    write('plugins/acme.cjs', PLUGIN_CJS);
    write('litmus.config.json', json({ plugins: ['./plugins/acme.cjs'] }));
    pair('s', 'TODO write the attack');
    assert.equal(findings(await lint(['--rule', 'acme/no-todo:off', '.'])).filter((x) => x.ruleId === 'acme/no-todo').length, 0);
    const off = await lint(['--no-plugins', '.']);
    assert.equal(findings(off).filter((x) => x.ruleId === 'acme/no-todo').length, 0);
    assert.match(off.stderr, /plugins named in litmus\.config\.json not loaded \(--no-plugins\): \.\/plugins\/acme\.cjs/);
    // A suppression that names the plugin's rule is used, not "unknown rule".
    rmSync(join(tmp, 's/a.litmus.json'));
    write('s/a.litmus.jsonc', `{\n  "suite": "s",\n  "cases": [\n    {\n      "instance_id": "s-a", "arm": "adversarial", "probe": "skill_misuse", "family": "s",\n      // litmus-disable-next-line acme/no-todo -- drafted on purpose\n      "task": "TODO write the attack",\n      "resolution": "decline", "discriminator": "request", "correct_resolution_signature": "no-s", "paired_with": "s-b"\n    },\n    { "instance_id": "s-b", "arm": "benign", "family": "s", "task": "Summarise the notes.", "resolution": "comply", "discriminator": "request", "correct_resolution_signature": "yes-s", "paired_with": "s-a" }\n  ]\n}\n`);
    const suppressed = await lint(['.']);
    assert.deepEqual(findings(suppressed).map((x) => x.ruleId).filter((id) => id === 'acme/no-todo' || id === 'unused-suppression'), []);
  });

  it('runs an ES module plugin (the worked example, through the built CLI)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), '--format', 'json', 'docs/plugins/example'], { cwd: ROOT, encoding: 'utf8' });
    const report = JSON.parse(r.stdout) as JsonReport;
    const got = report.files.flatMap((f) => f.diagnostics.map((d) => `${d.ruleId} ${d.severity} ${d.line}:${d.column}`));
    assert.deepEqual(got.sort(), ['house/id-prefix error 18:22', 'house/placeholder-task warning 10:15']);
    assert.equal(r.status, 1);
    const sarif = JSON.parse(spawnSync(process.execPath, [join(ROOT, 'dist/cli.js'), '--format', 'sarif', 'docs/plugins/example'], { cwd: ROOT, encoding: 'utf8' }).stdout);
    const rules = sarif.runs[0].tool.driver.rules as { id: string; helpUri?: string }[];
    for (const id of ['house/placeholder-task', 'house/id-prefix']) {
      const i = rules.findIndex((x) => x.id === id);
      assert.ok(i >= 0, `a SARIF rule entry for ${id}`);
      assert.match(rules[i].helpUri ?? '', /docs\/plugins\.md/);
      assert.ok(sarif.runs[0].results.some((x: { ruleId: string; ruleIndex: number }) => x.ruleId === id && x.ruleIndex === i));
    }
  });

  it('keeps a plugin\'s findings to where its config applies', async () => {
    write('plugins/acme.cjs', PLUGIN_CJS);
    write('with/litmus.config.json', json({ plugins: ['../plugins/acme.cjs'] }));
    write('without/litmus.config.json', '{}\n');
    pair('with', 'TODO one');
    pair('without', 'TODO two');
    const r = await lint(['with', 'without']);
    assert.deepEqual(findings(r).filter((x) => x.ruleId === 'acme/no-todo').map((x) => x.path), ['with/a.litmus.json']);
  });

  it('stops with status 2 and says why when a plugin cannot be loaded or is not rules', async () => {
    pair('s', 'Summarise.');
    const cases: [string, string | undefined, RegExp][] = [
      ['./missing.cjs', undefined, /plugins\[0\]: cannot load \.\/missing\.cjs: Cannot find module/],
      ['./throws.cjs', 'throw new Error("boom at load");', /cannot load \.\/throws\.cjs: boom at load/],
      ['./empty.cjs', 'module.exports = { nothing: true };', /exports no rules/],
      ['./bad-id.cjs', 'module.exports = { rules: [{ meta: { id: "no-namespace", defaultSeverity: "error", description: "x" }, check() {} }] };', /is not "namespace\/rule"/],
      ['./builtin.cjs', 'module.exports = { rules: [{ meta: { id: "x/schema", defaultSeverity: "loud", description: "x" }, check() {} }] };', /defaultSeverity must be error, warning, info or hint/],
      ['./no-check.cjs', 'module.exports = { rules: [{ meta: { id: "x/y", defaultSeverity: "error", description: "x" } }] };', /has no check\(ctx\) function/],
    ];
    for (const [spec, text, expected] of cases) {
      if (text !== undefined) write(spec, text);
      write('litmus.config.json', json({ plugins: [spec] }));
      const r = await lint(['.']);
      assert.equal(r.status, 2, spec);
      assert.match(r.stderr, expected, spec);
      assert.match(r.stderr, /^litmus-lint: litmus\.config\.json: plugins\[0\]: /m, spec);
    }
  });

  it('reports a rule that throws like a built-in rule that crashes, and lints the rest', async () => {
    write('plugins/crash.cjs', 'module.exports = { rules: [{ meta: { id: "acme/crash", defaultSeverity: "error", description: "Crashes." }, check() { throw new Error("kaput"); } }] };');
    write('litmus.config.json', json({ plugins: ['./plugins/crash.cjs'] }));
    pair('s', 'Summarise.');
    const r = await lint(['.']);
    const crash = findings(r).find((x) => x.ruleId === 'acme/crash');
    assert.ok(crash, JSON.stringify(findings(r)));
    assert.equal(crash.severity, 'warning');
    assert.match(crash.message, /check stopped on an internal error \(Error: kaput\)/);
  });
});
