import assert from 'node:assert/strict';
import { renderReportHtml } from '../../src/client/report-html';
import type { SuiteReportData } from '../../src/server/protocol';
import { LspClient, uriOf, workspace } from './lsp-client';

const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
const kase = (id: string, arm: string, family: string, extra: Record<string, unknown> = {}) =>
  json({ instance_id: id, arm, family, task: 't', correct_resolution_signature: `sig-${family}-${id}`, ...(arm === 'adversarial' ? { probe: 'goal_drift', drift_terminal_state: `d-${id}` } : {}), ...extra });

describe('the suite report as a rendered view', function () {
  this.timeout(30000);
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function reportOf(files: Record<string, string>): Promise<SuiteReportData> {
    const ws = workspace(files);
    const client = new LspClient({ folders: [uriOf(ws.dir)] });
    cleanups.push(ws.cleanup, () => client.stop());
    await client.start();
    return client.request<SuiteReportData>('litmus/suiteReportData', {});
  }

  it('litmus/suiteReportData: core report data plus per-family arms, findings and quarantine', async () => {
    const data = await reportOf({
      'mail/a.litmus.json': kase('m-adv', 'adversarial', 'mail', { paired_with: 'm-ben' }),
      'mail/b.litmus.json': kase('m-ben', 'benign', 'mail'),
      // Two errors in one case of `cal`: an unresolved reference and a shared id with `web`.
      'cal/a.litmus.json': kase('dup', 'adversarial', 'cal', { paired_with: 'nobody' }),
      'web/a.litmus.json': kase('dup', 'benign', 'web'),
    });
    assert.equal(data.folders.length, 1);
    const [v] = data.folders;
    assert.equal(v.report.cases, 4);
    assert.deepEqual(v.families.map((f) => f.family), ['cal', 'mail', 'web']);
    const by = Object.fromEntries(v.families.map((f) => [f.family, f]));
    assert.deepEqual([by.mail.adversarial, by.mail.benign, by.mail.quarantined, by.mail.findings.error], [1, 1, 0, 0]);
    assert.deepEqual(by.cal.missing, ['benign']);
    assert.equal(by.cal.findings.error, 2, JSON.stringify(by.cal.findings));
    assert.equal(by.cal.quarantined, 1);
    assert.equal(by.web.findings.error, 1);
    assert.equal(by.web.quarantined, 1);
    assert.equal(v.report.quarantined, 2);
    assert.equal(v.report.verdict.trusted, false);
  });

  it('renders bars per family, escapes every name, allows no script and loads nothing', async () => {
    const hostile = '<img src=x onerror=alert(1)>"\u202Efam';
    const data = await reportOf({
      'a.litmus.json': kase('a1', 'adversarial', hostile),
      'b.litmus.json': kase('b1', 'benign', hostile),
      'c.litmus.json': kase('c1', 'benign', 'solo', { paired_with: '</td><script>x()</script>' }),
    });
    const page = renderReportHtml(data, 'abc123+/=');
    assert.match(page, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-abc123\+\/='; img-src data:; base-uri 'none'; form-action 'none'">/);
    assert.equal((page.match(/<style nonce="abc123\+\/=">/g) ?? []).length, 1);
    assert.ok(!/<script/i.test(page), 'no script element, even from a hostile value');
    assert.ok(!/<img/i.test(page), 'the hostile markup is text');
    assert.ok(!/<[^>]*\son[a-z]+=/i.test(page), 'no event handler attribute in any tag');
    assert.ok(!page.includes('\u202E'), 'bidi override shown as an escape');
    assert.ok(page.includes('&#60;img src=x onerror=alert(1)&#62;&#34;\\u{202E}fam'));
    assert.ok(!/\b(src|href)=["']?(https?:)?\/\//i.test(page), 'no remote resource');
    assert.ok(!/style="/.test(page), 'no inline style attribute (the CSP would block it)');
    // One row per family, three bars each (arms, findings, quarantine).
    const rows = page.match(/<tr>\n<th scope="row">/g) ?? [];
    assert.equal(rows.length, 2);
    assert.equal((page.match(/<svg class="bar"/g) ?? []).length, 6);
    assert.match(page, /<rect class="adv" x="0" y="0" width="\d+" height="14"><title>1 adversarial<\/title>/);
    assert.match(page, /no adversarial/, 'the family without an adversarial arm is marked');
    assert.match(page, /VERDICT: the aggregate cannot be trusted/);
    // A nonce can never close its attribute.
    assert.match(renderReportHtml(data, '"><script>'), /nonce-script'/);
  });

  it('says what to open when there is no folder', () => {
    assert.match(renderReportHtml({ folders: [] }, 'n'), /No workspace folder is open/);
  });
});
