import { isAscii } from 'node:buffer';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Script } from 'node:vm';

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
// The build writes the bundle ASCII-only (scripts/ascii-bundle.mjs): as Latin-1 it is the same text
// without a UTF-8 decode (~9 ms of every start). A bundle built with `--watch` skips that step.
const bytes = readFileSync(bundle);
const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
// The bundle is the module function already (scripts/build.mjs, MODULE_FUNCTION): its value.
const script = new Script(source, { filename: bundle, cachedData });
// The build runs the CLI once with this set, so the cache holds what a lint compiles.
if (process.env.LITMUS_WRITE_CODE_CACHE === '1') process.on('exit', () => writeFileSync(cacheFile, script.createCachedData()));

type ModuleBody = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;
const cjs = { exports: {} };
(script.runInThisContext() as ModuleBody).call(cjs.exports, cjs.exports, createRequire(bundle), cjs, bundle, __dirname);
