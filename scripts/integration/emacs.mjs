// docs/editors/emacs-eglot.el in the Emacs the machine has (Debian's is 28, with elpa-eglot): in
// batch mode, on a copy of examples/ (a suite marked by its litmus.config.json, no .git: the case
// where Emacs alone would take the file's folder for the project), with litmus-language-server on
// the PATH from this checkout's build.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLayer, editorSuite, ROOT, run } from './common.mjs';

const layer = createLayer('emacs');
layer.setup('emacs');
const { tmp, check } = layer;
if (!check('the build is there (dist/language-server.js)', existsSync(join(ROOT, 'dist/language-server.js')))) layer.finish();

const { bin, suite, findingsOf: findings } = editorSuite(tmp);
console.log(`(${run('emacs', ['--version']).out.split('\n')[0]})`);

function inEmacs(rel, action) {
  const out = join(tmp, `${rel.replace(/\W/g, '_')}.json`);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, HOME: join(tmp, 'home'), LITMUS_FILE: join(suite, rel), LITMUS_CHECK_OUT: out, LITMUS_EXPECT: String(findings(rel).length) };
  if (action) Object.assign(env, { LITMUS_ACTION_LINE: String(action.line), LITMUS_ACTION_COL: String(action.column) });
  mkdirSync(env.HOME, { recursive: true });
  const r = run('emacs', ['--batch', '-l', join(ROOT, 'docs/editors/emacs-eglot.el'), '-l', join(ROOT, 'scripts/integration/emacs-check.el')], { cwd: tmp, env, timeout: 120_000 });
  if (!existsSync(out)) return { error: r.out };
  return JSON.parse(readFileSync(out, 'utf8'));
}

for (const rel of ['cases/mail.litmus.json', 'cases/calendar.litmus.json', 'tools/mail.tools.json', 'cases/refunds.litmus.jsonl']) {
  const expected = findings(rel);
  const fixable = expected.find((d) => d.fixes.length);
  const got = inEmacs(rel, fixable);
  if (!check(`${rel}: eglot starts the server`, got.attached === true, got.error ?? JSON.stringify(got))) continue;
  check(`${rel}: the project is the suite (its litmus.config.json), not the file's folder`, got.root.replace(/\/$/, '') === suite, `root: ${got.root}`);
  const shown = got.diagnostics.map((d) => `${d.line}:${d.column}`).sort();
  const want = expected.map((d) => `${d.line}:${d.column}`).sort();
  check(`${rel}: exactly the findings the CLI gives it in its folder (${want.length}), none false`, JSON.stringify(shown) === JSON.stringify(want) && expected.every((d) => got.diagnostics.some((g) => g.text.includes(d.message))), `emacs: ${JSON.stringify(got.diagnostics)}\ncli:   ${want.join(', ')}`);
  if (fixable) check(`${rel}: the quick fix "${fixable.fixes[0]}" is offered`, got.actions.includes(fixable.fixes[0]), got.actions.join(' | '));
}

layer.finish();
