// Runs the same extension-host suite in desktop VS Code through @vscode/test-electron, where VS Code
// can be downloaded (a developer machine, CI with internet). Needs a display: on Linux CI wrap it in
// `xvfb-run -a`. Build first: `node scripts/build.mjs && npx tsc -p .`.
// Usage: node scripts/e2e/electron.mjs [VS Code version, default 1.100.3]
import { runTests, TestRunFailedError } from '@vscode/test-electron';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const version = process.argv[2] ?? '1.100.3';
// The suite edits its workspace (fixes, saves): run it on a copy.
const state = mkdtempSync(join(tmpdir(), 'litmus-electron-'));
const workspace = join(state, 'ws-suite');
cpSync(join(root, 'test/e2e/fixtures/suite'), workspace, { recursive: true });
let code = 1;
try {
  code = await runTests({
    version,
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, 'out/test/e2e/suite/index.js'),
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    extensionTestsEnv: { LITMUS_E2E_FORCE_FAIL: join(state, 'force-fail') },
  });
} catch (e) {
  // test-electron rejects with TestRunFailedError when the tests fail; anything else is the setup.
  const failed = e instanceof TestRunFailedError;
  console.error(failed ? `extension tests failed: ${e.message}` : `VS Code ${version} could not be downloaded or run: ${e instanceof Error ? e.message : e}`);
  code = failed ? 1 : 2;
} finally {
  rmSync(state, { recursive: true, force: true });
}
process.exit(code);
