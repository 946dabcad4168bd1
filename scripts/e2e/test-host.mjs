// Runs the extension-host mocha suite inside code-server's real Node extension host, with headless
// Debian Chromium as the window. The result comes from VS Code's `codeAutomationExit` hook: the
// extension host itself exits 0 even when tests fail.
// Usage: node test-host.mjs <baseUrl> <workspaceFolder> <extensionDevelopmentPath> <extensionTestsPath>
// (The web payload ignores extensionEnvironment: give the extension host env vars via code-server's env.)
import { chromium } from 'playwright-core';
import { format } from 'node:util';

const [base, folder, dev, tests] = process.argv.slice(2);
const TIMEOUT_MS = Number(process.env.LITMUS_E2E_TIMEOUT_MS ?? 240000);
const remote = (p) => `vscode-remote://${new URL(base).host}${p}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let code = 'timeout';
try {
  const page = await browser.newPage();
  const done = new Promise((res) => page.exposeFunction('codeAutomationExit', (c) => res(c)));
  // The extension host's console (mocha's reporter) reaches the page as console.info('%c INFO', css, fmt, ...).
  page.on('console', async (m) => {
    const a = await Promise.all(m.args().map((x) => x.jsonValue().catch(() => '?')));
    if (typeof a[0] === 'string' && a[0].startsWith('%c')) a.splice(0, 2);
    const t = format(...a);
    if (!/^(Resolv|Creating a socket|Ignoring fetching|Updating additional|\[Service Worker\]|ChatSession)/.test(t)) console.log(t);
  });
  const payload = [['extensionDevelopmentPath', remote(dev)], ['extensionTestsPath', remote(tests)]];
  await page.goto(`${base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
  code = await Promise.race([done, new Promise((r) => setTimeout(() => r('timeout'), TIMEOUT_MS))]);
} catch (e) {
  console.log(`test host error: ${e instanceof Error ? e.message : e}`);
  code = 'error';
} finally {
  await browser.close().catch(() => undefined);
}
console.log(`extension tests finished, exit code: ${code}`);
process.exit(code === 0 ? 0 : 1);
