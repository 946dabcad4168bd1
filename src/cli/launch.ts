import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { useShortRunInlining } from '../node/inlining';

/**
 * The `litmus-lint` command (dist/cli.js): runs the CLI bundle (dist/cli-main.js) with the V8 code
 * cache the build wrote beside it (dist/cli-main.cache), so a run does not parse and compile again
 * what the build's own run of the example suite compiled: ~15 ms of every start, more of a lint.
 * Node 22 does this itself (`module.enableCompileCache`); the CLI supports Node 20.
 *
 * V8 checks the cache against the source and its own version and ignores it on any mismatch (a
 * rebuilt bundle, another Node), so a stale or missing cache only costs the compile it would save.
 */
const bundle = join(__dirname, 'cli-main.js');
const cacheFile = join(__dirname, 'cli-main.cache');

let cachedData: Buffer | undefined;
try {
  cachedData = readFileSync(cacheFile);
} catch {
  // no cache: compile as usual
}
// Read as bytes, then decoded: Node 20's `readFileSync(file, 'utf8')` takes 23-36 ms over the 2 MB
// bundle where this takes 15 (the same text; Latin-1 is no faster).
const source = readFileSync(bundle).toString('utf8');
// The optimiser's budget for a run of seconds (src/node/inlining.ts). Set before the bundle is
// compiled: V8 rejects a code cache written under other flags, and the build writes it through here.
useShortRunInlining();

// The bundle is the module function already (scripts/build.mjs, MODULE_FUNCTION): its value.
const script = new Script(source, { filename: bundle, cachedData });
// The build runs the CLI once with this set, so the cache holds what a lint compiles.
if (process.env.LITMUS_WRITE_CODE_CACHE === '1') process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));

type ModuleBody = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
const cjs = { exports: {} };
(script.runInThisContext() as ModuleBody).call(cjs.exports, cjs.exports, createRequire(bundle), cjs, bundle, __dirname);
