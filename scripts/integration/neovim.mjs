// docs/editors/neovim.lua in the Neovim the machine has (Debian's is 0.7.2): headless, on a copy
// of examples/ (a suite marked by its litmus.config.json, no .git), with litmus-language-server on
// the PATH from this checkout's build. Each file gets what the CLI gives it in the folder, the
// client's root is the suite, and quick fixes come back.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLayer, editorSuite, ROOT, run } from './common.mjs';

const layer = createLayer('neovim');
layer.setup('neovim');
const { tmp, check } = layer;
if (!check('the build is there (dist/language-server.js)', existsSync(join(ROOT, 'dist/language-server.js')))) layer.finish();

const { bin, suite, findingsOf } = editorSuite(tmp);
const expected = (rel) => findingsOf(rel).map((d) => `${d.line}:${d.column} ${d.ruleId}`).sort();

const version = run('nvim', ['--version']).out.split('\n')[0];
console.log(`(${version})`);

function inNeovim(rel, action) {
  const out = join(tmp, `${rel.replace(/\W/g, '_')}.json`);
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, LITMUS_CHECK_OUT: out, LITMUS_EXPECT: String(expected(rel).length), XDG_CONFIG_HOME: join(tmp, 'xdg'), XDG_DATA_HOME: join(tmp, 'xdg-data'), XDG_STATE_HOME: join(tmp, 'xdg-state') };
  if (action) Object.assign(env, { LITMUS_ACTION_LINE: String(action.line), LITMUS_ACTION_COL: String(action.column) });
  const r = run('nvim', ['--headless', '-u', join(ROOT, 'docs/editors/neovim.lua'), '-c', `luafile ${join(ROOT, 'scripts/integration/nvim-check.lua')}`, join(suite, rel)], { cwd: tmp, env, timeout: 90_000 });
  if (!existsSync(out)) return { error: r.out };
  return JSON.parse(readFileSync(out, 'utf8'));
}

for (const rel of ['tools/mail.tools.json', 'cases/calendar.litmus.json', 'cases/mail-variants.litmus.jsonl', 'litmus.harness.json']) {
  const d = findingsOf(rel);
  const fixable = d.find((x) => x.fixes.length);
  const got = inNeovim(rel, fixable);
  if (!check(`${rel}: the server attaches`, got.attached === true, got.error ?? JSON.stringify(got))) continue;
  check(`${rel}: the client's root is the suite (its litmus.config.json), not the file's folder`, got.root === suite, `root: ${got.root}`);
  const shown = got.diagnostics.map((x) => `${x.line}:${x.column} ${x.code}`).sort();
  check(`${rel}: exactly the findings the CLI gives it in its folder (${expected(rel).length})`, JSON.stringify(shown) === JSON.stringify(expected(rel)), `neovim: ${shown.join(', ')}\ncli:    ${expected(rel).join(', ')}`);
  if (fixable) check(`${rel}: the quick fix "${fixable.fixes[0]}" is offered`, got.actions.includes(fixable.fixes[0]) && got.actions.some((t) => t.startsWith('Show documentation for')), got.actions.join(' | '));
}

layer.finish();
