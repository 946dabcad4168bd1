import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { parse as parseYaml } from 'yaml';
import { parseCliArgs } from '../../src/cli/args';
import { splitCommand } from '../cli/scenario';
import { codeBlocks } from '../markdown';

// The README's install, CI and editor snippets: each is checked here, and the editor ones are the
// files in docs/editors/, quoted verbatim.
const ROOT = resolve(__dirname, '../../..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const action = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> };
const editor = (name: string) => readFileSync(join(ROOT, 'docs/editors', name), 'utf8');

/** A path of every LITMUS file kind (FORMAT §1), and the filetype an editor should give it. */
const KINDS: [string, 'jsonc' | 'jsonl'][] = [
  ['suite/cases/mail.litmus.json', 'jsonc'],
  ['suite/cases/mail.litmus.jsonc', 'jsonc'],
  ['suite/cases/variants.litmus.jsonl', 'jsonl'],
  ['suite/tools/mail.tools.json', 'jsonc'],
  ['suite/tools/mail.tools.jsonc', 'jsonc'],
  ['suite/envs/inbox.env.json', 'jsonc'],
  ['suite/envs/inbox.env.jsonc', 'jsonc'],
  ['suite/runs.scores.json', 'jsonc'],
  ['suite/litmus.config.json', 'jsonc'],
  ['suite/litmus.harness.json', 'jsonc'],
];
const NOT_LITMUS = ['suite/package.json', 'suite/tsconfig.json', 'suite/my-litmus.config.json', 'suite/notes.jsonl', 'suite/mail.litmus.json.bak'];

/** Brackets of every kind balance outside strings and comments (a syntax check for Lua, TOML and Lisp). */
function balanced(text: string, comment: RegExp, strings: RegExp): boolean {
  const stripped = text.replace(strings, '""').replace(comment, '');
  const stack: string[] = [];
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  for (const ch of stripped) {
    if ('([{'.includes(ch)) stack.push(ch);
    else if (ch in pairs && stack.pop() !== pairs[ch]) return false;
  }
  return stack.length === 0;
}

/** `initialize`, `shutdown` and `exit` with the language server started as `command` says. */
async function handshake(command: string[]): Promise<void> {
  assert.ok(command[0] in pkg.bin, `${command[0]} is a bin of the package`);
  const proc = spawn(process.execPath, [join(ROOT, pkg.bin[command[0]]), ...command.slice(1)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
  const conn = createMessageConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  conn.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
  conn.onNotification('window/logMessage', () => undefined);
  conn.listen();
  try {
    const init = await conn.sendRequest<{ capabilities: { textDocumentSync?: unknown } }>('initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    assert.ok(init.capabilities.textDocumentSync !== undefined);
    await conn.sendRequest('shutdown');
    await conn.sendNotification('exit');
    assert.equal(await exited, 0);
  } finally {
    conn.dispose();
    proc.kill();
  }
}

describe('README: install, CI and editors', function () {
  this.timeout(30000);

  before(() => assert.ok(existsSync(join(ROOT, 'dist/language-server.js')), 'the build ran'));

  it('says plainly that nothing is released, installs from a checkout, names both commands, and its commands parse', () => {
    const section = readme.slice(readme.indexOf('## Install'), readme.indexOf('## The file format'));
    assert.match(section, /Nothing is released yet/);
    const [install] = codeBlocks(readme, '## Install', 'sh');
    assert.match(install, /^git clone /m);
    assert.match(install, /^npm ci && npm run build/m);
    assert.match(install, /^npm install -g "\$\(npm pack\)"/m);
    // A package that is not published is never what a command fetches.
    assert.doesNotMatch(install, /npm install (--save-dev )?litmus-lint|npx/);
    for (const line of install.split('\n').filter((l) => /^(litmus-lint|node dist\/cli\.js) /.test(l))) {
      const args = splitCommand(line.replace(/#.*$/, '')).slice(line.startsWith('node') ? 2 : 1);
      assert.ok(parseCliArgs(args).paths.length > 0, line);
    }
    for (const bin of Object.keys(pkg.bin)) assert.ok(readme.includes(`\`${bin}\``), `README names ${bin}`);
    assert.match(readme, /code --install-extension litmus-lint\.vsix/);
    // No command or config in the README sends a reader to a release that does not exist.
    const blocks = [...readme.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
    assert.doesNotMatch(blocks, /npx (--yes )?litmus-lint|npm install (-g |--save-dev )?litmus-lint|litmus-lint@v\d|rev: v\d/);
  });

  it('shows a workflow that uses this action with its own inputs, a SARIF command that parses, and the pre-commit hook', () => {
    const [workflow] = codeBlocks(readme, '### GitHub Action', 'yaml');
    const wf = parseYaml(workflow) as { jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }> };
    const use = Object.values(wf.jobs)[0].steps.find((s) => s.uses?.startsWith('litmus-lint/litmus-lint@'));
    assert.ok(use);
    for (const name of Object.keys(use.with ?? {})) assert.ok(name in action.inputs, name);
    const [sarif] = codeBlocks(readme, '### SARIF and code scanning', 'sh');
    const opts = parseCliArgs(splitCommand(sarif.trim()).slice(1));
    assert.deepEqual(opts.formats.map((t) => t.format), ['sarif']);
    assert.ok(opts.category && opts.formats[0].output);
    const [config] = codeBlocks(readme, '### pre-commit', 'yaml');
    const hooks = parseYaml(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as { id: string }[];
    const c = parseYaml(config) as { repos: { hooks: { id: string }[] }[] };
    for (const h of c.repos[0].hooks) assert.ok(hooks.some((x) => x.id === h.id), h.id);
  });

  for (const [file, lang] of [['neovim.lua', 'lua'], ['helix-languages.toml', 'toml'], ['emacs-eglot.el', 'elisp']]) {
    it(`quotes docs/editors/${file} verbatim`, () => {
      assert.ok(codeBlocks(readme, '## In VS Code and other editors', lang).includes(editor(file)), `README has docs/editors/${file} as a ${lang} block`);
    });
  }

  it('Neovim: the server on stdio for every LITMUS file, given its filetype, rooted at its suite', () => {
    const lua = editor('neovim.lua');
    assert.ok(balanced(lua, /--[^\n]*/g, /'(?:[^'\\\n]|\\.)*'/g));
    assert.match(lua, /cmd = \{ 'litmus-language-server', '--stdio' \}/);
    // The suite root, as the CLI finds it: the outermost config, up to the repository root.
    assert.match(lua, /fs_stat\(dir \.\. '\/litmus\.config\.json'\) then root = dir end/, 'the outermost config');
    assert.match(lua, /fs_stat\(dir \.\. '\/\.git'\) then return root or dir end/, 'up to the repository root');
    assert.match(lua, /didChangeWatchedFiles = \{ dynamicRegistration = true \}/);
    // Autocmd patterns without a slash match the file's name (Vim's glob: * is any run of characters).
    const table = (name: string) => [...(new RegExp(`${name} = \\{([^}]*)\\}`).exec(lua)?.[1] ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const patterns = [...table('jsonc').map((g) => ({ g, filetype: 'jsonc' })), ...table('jsonl').map((g) => ({ g, filetype: 'jsonl' }))].map(({ g, filetype }) => ({
      re: new RegExp(`^${g.replace(/\./g, '\\.').replace(/\*/g, '.*')}$`),
      filetype,
    }));
    const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
    for (const [path, filetype] of KINDS) {
      const hit = patterns.find((p) => p.re.test(name(path)));
      assert.equal(hit?.filetype, filetype, path);
    }
    for (const path of NOT_LITMUS) assert.ok(!patterns.some((p) => p.re.test(name(path))), path);
  });

  it('Helix: valid TOML; the server on stdio for a jsonc language that takes every LITMUS file', () => {
    const toml = parseToml(editor('helix-languages.toml')) as {
      'language-server': Record<string, { command: string; args: string[] }>;
      language: { name: string; 'file-types': (string | { glob: string })[]; 'language-servers': string[] }[];
    };
    const server = toml['language-server']['litmus-lint'];
    assert.deepEqual([server.command, ...server.args], ['litmus-language-server', '--stdio']);
    const jsonc = toml.language.find((l) => l.name === 'jsonc')!;
    assert.ok(jsonc['language-servers'].includes('litmus-lint'));
    const globs = jsonc['file-types'].flatMap((f) => (typeof f === 'string' ? [] : [new RegExp(`(^|/)${f.glob.replace(/\./g, '\\.').replace(/\*/g, '[^/]*')}$`)]));
    for (const [path] of KINDS) assert.ok(globs.some((g) => g.test(path)), path);
    for (const path of NOT_LITMUS) assert.ok(!globs.some((g) => g.test(path)), path);
  });

  it('Emacs: balanced forms; an eglot program on stdio for a mode that auto-mode-alist gives every LITMUS file', () => {
    const el = editor('emacs-eglot.el');
    assert.ok(balanced(el, /;[^\n]*/g, /"(?:[^"\\]|\\.)*"/g));
    assert.match(el, /'\(litmus-json-mode \. \("litmus-language-server" "--stdio"\)\)/);
    assert.match(el, /\(add-hook 'litmus-json-mode-hook #'eglot-ensure\)/);
    // The project is the suite: without .git, Emacs alone would take the file's folder.
    assert.match(el, /\(add-hook 'project-find-functions #'litmus-project-find\)/);
    assert.match(el, /"litmus\.config\.json"/);
    // The auto-mode-alist regexp, from its Lisp string to JavaScript.
    const source = /'\("((?:[^"\\]|\\.)*)"\s*\.\s*litmus-json-mode\)/.exec(el)?.[1];
    assert.ok(source, 'an auto-mode-alist entry for litmus-json-mode');
    const elisp = source.replace(/\\\\/g, '\\');
    const js = elisp.replace(/\\\(\?:/g, '(?:').replace(/\\\|/g, '|').replace(/\\\)/g, ')').replace(/\\'/g, '$');
    const re = new RegExp(js);
    for (const [path] of KINDS) assert.ok(re.test(`/home/me/${path}`), path);
    for (const path of NOT_LITMUS) assert.ok(!re.test(`/home/me/${path}`), path);
  });

  it('starts the server as the three configurations do, and it answers initialize and shutdown', async () => {
    const commands = [
      /cmd = \{ '([^']+)', '([^']+)' \}/.exec(editor('neovim.lua'))!.slice(1),
      (() => {
        const s = (parseToml(editor('helix-languages.toml')) as { 'language-server': Record<string, { command: string; args: string[] }> })['language-server']['litmus-lint'];
        return [s.command, ...s.args];
      })(),
      /\(litmus-json-mode \. \("([^"]+)" "([^"]+)"\)\)/.exec(editor('emacs-eglot.el'))!.slice(1),
    ];
    assert.deepEqual(new Set(commands.map((c) => c.join(' '))), new Set(['litmus-language-server --stdio']));
    await handshake(commands[0]);
  });
});
