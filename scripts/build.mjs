// Bundles the CLI, the language server and the extension client into dist/ with esbuild.
// Everything but `vscode` is bundled, so the .vsix and the npm package need no node_modules.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { writeRuleDocs } from './gen-rule-docs.mjs';
import { writeRuleSettings } from './gen-rule-settings.mjs';
import { writeValidators } from './gen-validators.mjs';
import { asciiBundle } from './ascii-bundle.mjs';

const watch = process.argv.includes('--watch');

/**
 * The CLI bundle as the body of the function Node wraps a CommonJS module in, ready made: the
 * launcher (src/cli/launch.ts) compiles the file as it is, and the script's value is that function.
 * Wrapping it at run time (`Module.wrap`) made a 2 MB string of two pieces that V8 copied into one
 * before it compiled (~9 ms of every start). Node loading the file itself (`node dist/cli-main.js`,
 * as a profile does) wraps it once more and `require.main` is its module, so it runs as before.
 */
const MODULE_FUNCTION = {
  banner: '(function (body) { if (typeof module === "object" && typeof require === "function" && require.main === module) body(exports, require, module, __filename, __dirname); return body; })(function (exports, require, module, __filename, __dirname) {',
  footer: '});',
};
const entries = [
  // The command is a small launcher that runs the CLI bundle with its code cache (src/cli/launch.ts).
  { in: 'src/cli/launch.ts', out: 'cli', banner: '#!/usr/bin/env node' },
  // Wrapped as a module function that also runs when Node loads the file itself (see MODULE_FUNCTION).
  { in: 'src/cli/main.ts', out: 'cli-main', banner: MODULE_FUNCTION.banner, footer: MODULE_FUNCTION.footer },
  // `import mcp`'s client and the MCP SDK, loaded by the CLI only for that command (src/cli/import-mcp.ts).
  { in: 'src/cli/mcp-client.ts', out: 'mcp-client' },
  { in: 'src/server/node.ts', out: 'server' },
  // The `litmus-language-server` command: flags, then the server bundle above (src/server/bin.ts).
  { in: 'src/server/bin.ts', out: 'language-server', banner: '#!/usr/bin/env node' },
  { in: 'src/client/extension.ts', out: 'extension' },
  { in: 'src/eval/main.ts', out: 'eval' },
].filter((e) => existsSync(e.in));

// The schema validators are generated source that the bundles (and tsc) compile.
writeValidators();
// Rule ids for settings.json and litmus.config.json completion come from the rule metadata; the
// config schema they land in is compiled into the validators, so a change there compiles again.
if ((await writeRuleSettings()).some((p) => p.endsWith('config.schema.json'))) writeValidators();
// The rule pages' leads and examples that the SARIF rule entries carry are generated source too.
writeRuleDocs();

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  external: ['vscode'],
  logLevel: 'warning',
  // jsonc-parser's package.json points at a UMD build that esbuild cannot follow; use its ESM build.
  mainFields: ['module', 'main'],
};

await Promise.all(
  entries.map((e) =>
    build({
      ...common,
      entryPoints: [e.in],
      outfile: `dist/${e.out}.js`,
      banner: e.banner ? { js: e.banner } : undefined,
      footer: e.footer ? { js: e.footer } : undefined,
    }),
  ),
);
if (!watch) {
  // ASCII-only bundles load as one-byte strings (scripts/ascii-bundle.mjs); before the code cache,
  // which V8 checks against the source it was made from.
  for (const e of entries) asciiBundle(`dist/${e.out}.js`);
  // One lint of the example suite compiles what a lint needs; the launcher writes V8's code cache
  // of it, which every later run starts from. A failed run leaves no cache, which costs only speed.
  rmSync('dist/cli-main.cache', { force: true });
  spawnSync(process.execPath, ['dist/cli.js', '--format', 'json', 'examples'], { env: { ...process.env, LITMUS_WRITE_CODE_CACHE: '1' }, stdio: 'ignore' });
  console.log(`built ${entries.map((e) => `dist/${e.out}.js`).join(', ')}${existsSync('dist/cli-main.cache') ? ', dist/cli-main.cache' : ''}`);
}
