// Opens a poisoned tool file in the real workbench (the extension installed from the .vsix), then
// the Problems panel, then the suite report's webview, and saves PNGs for people to look at. Exits
// non-zero unless the Problems panel lists a LITMUS diagnostic and the report draws its bars.
// Usage: node screenshots.mjs <baseUrl> <workspaceFolder> <file to open> <outDir> [<line>:<column> of the payload]
import { chromium } from 'playwright-core';

const [base, folder, file, out, at] = process.argv.slice(2);
const t0 = Date.now();
const ms = () => `${Date.now() - t0} ms`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let ok = false;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const payload = encodeURIComponent(JSON.stringify([['openFile', `vscode-remote://${new URL(base).host}${file}`]]));
  await page.goto(`${base}/?folder=${encodeURIComponent(folder)}&payload=${payload}`);
  await page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60000 });
  await page.waitForSelector('.monaco-workbench .explorer-folders-view .monaco-list-row', { timeout: 60000 });
  if (at) {
    // Go to the payload, so its squiggle is in view and the hover can be shown at the cursor.
    await page.locator('.monaco-editor textarea').first().focus();
    await page.keyboard.press('Control+g');
    await page.keyboard.type(at);
    await page.keyboard.press('Enter');
  }
  // Squiggles are drawn once the server has published: wait for one in the editor.
  await page.waitForSelector('.monaco-editor .squiggly-warning, .monaco-editor .squiggly-error, .monaco-editor .squiggly-hint', { timeout: 60000 });
  console.log('editor shows LITMUS squiggles', ms());
  await page.screenshot({ path: `${out}/poisoned-tool.png` });
  // The injection grammar: a payload-bearing key is coloured unlike an ordinary key.
  const colours = await page.evaluate(() => {
    const spans = [...document.querySelectorAll('.monaco-editor .view-line span span')];
    const colour = (re) => {
      const s = spans.find((x) => re.test(x.textContent ?? ''));
      return s ? getComputedStyle(s).color : undefined;
    };
    return { payloadKey: colour(/^"?default"?$/), plainKey: colour(/^"type"$/) };
  });
  console.log('key colours', JSON.stringify(colours));
  if (!colours.payloadKey || !colours.plainKey || colours.payloadKey === colours.plainKey) throw new Error('the payload-bearing key `default` is not highlighted');
  if (at) {
    await page.keyboard.press('Control+k');
    await page.keyboard.press('Control+i');
    await page.locator('.monaco-hover', { hasText: 'Signals' }).first().waitFor({ timeout: 30000 });
    console.log('hover shows the signals', ms());
    await page.screenshot({ path: `${out}/payload-hover.png` });
    await page.keyboard.press('Escape');
  }
  await page.keyboard.press('Control+Shift+M');
  await page.locator('.markers-panel').first().waitFor({ timeout: 30000 });
  // Narrow the panel to the payload rows so they are in the picture.
  const filter = page.locator('.markers-panel-action-filter input, .viewpane-filter input').first();
  if (await filter.count()) {
    // fill() sets the value and fires the input event itself: keystrokes typed while focus was still
    // moving to the box were sometimes lost, leaving the payload rows scrolled out of the list.
    await filter.fill('injection');
  }
  const row = page.locator('.markers-panel .monaco-list-row', { hasText: 'injection' });
  await row.first().waitFor({ timeout: 60000 });
  console.log('Problems panel lists the payload', ms());
  console.log('PROBLEMS:', (await page.locator('.markers-panel').innerText()).replace(/\s+/g, ' ').slice(0, 400));
  await page.screenshot({ path: `${out}/problems-panel.png` });
  // The suite report, rendered in its webview (two nested frames), with the panel out of the way.
  await page.keyboard.press('Control+j');
  await page.keyboard.press('F1');
  await page.keyboard.type('LITMUS: Show Suite Report');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Show Suite Report' }).first().waitFor({ timeout: 30000 });
  await page.keyboard.press('Enter');
  const report = page.frameLocator('iframe.webview').frameLocator('iframe#active-frame');
  await report.locator('table.families svg.bar').first().waitFor({ timeout: 60000 });
  console.log('suite report rendered', ms(), `${await report.locator('table.families tbody tr').count()} family rows`);
  await page.screenshot({ path: `${out}/suite-report.png` });
  ok = true;
} catch (e) {
  console.log(`screenshot run failed: ${e instanceof Error ? e.message : e}`);
  const pages = browser.contexts().flatMap((c) => c.pages());
  if (pages[0]) await pages[0].screenshot({ path: `${out}/failure.png` }).catch(() => undefined);
} finally {
  await browser.close().catch(() => undefined);
}
process.exit(ok ? 0 : 1);
