/**
 * The suite report as a self-contained HTML page for a webview: per-family bars for arms, findings
 * and quarantine, drawn as inline SVG. No script, no remote resource, one stylesheet allowed by
 * nonce: the page works offline, and names from suite files (hostile by design) are text only.
 * Pure (no `vscode` import, no core), so tests render it directly and the extension stays small.
 */
import type { FamilyView, SeverityCounts, SuiteReportData, SuiteReportView } from '../server/protocol';

/** Families drawn; a suite with more lists the rest by count (the JSON report has them all). */
export const MAX_FAMILIES = 500;
/** Instances listed per quarantine rule. */
export const MAX_INSTANCES = 30;
const BAR_WIDTH = 220;

/**
 * HTML-escapes text, cut to `max` characters. The server has already passed every string of the
 * data through core's `escapeText` (hidden and control characters shown as escapes); this keeps the
 * markup from reading any of it as markup.
 */
export function html(text: string, max = 200): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const sum = (c: SeverityCounts) => c.error + c.warning + c.info + c.hint;

/** A horizontal stacked bar: each part's width is its share of `scale`. */
function bar(parts: { value: number; cls: string; label: string }[], scale: number, label: string): string {
  let x = 0;
  const rects = parts
    .filter((p) => p.value > 0)
    .map((p) => {
      const w = scale > 0 ? Math.max(1, Math.round((p.value / scale) * BAR_WIDTH)) : 0;
      const r = `<rect class="${p.cls}" x="${x}" y="0" width="${w}" height="14"><title>${html(p.label)}</title></rect>`;
      x += w;
      return r;
    })
    .join('');
  return `<svg class="bar" role="img" aria-label="${html(label)}" width="${BAR_WIDTH}" height="14" viewBox="0 0 ${BAR_WIDTH} 14"><rect class="track" x="0" y="0" width="${BAR_WIDTH}" height="14"></rect>${rects}</svg>`;
}

function familyRow(f: FamilyView, scale: { cases: number; findings: number }): string {
  const cases = f.adversarial + f.benign;
  const findings = sum(f.findings);
  const missing = f.missing.length ? ` <span class="badge bad">no ${f.missing.map((m) => html(m)).join(', no ')}</span>` : '';
  const armsLabel = `${f.adversarial} adversarial, ${f.benign} benign`;
  const findingsLabel = `${f.findings.error} errors, ${f.findings.warning} warnings, ${f.findings.info + f.findings.hint} other`;
  const quarantineLabel = `${f.quarantined} of ${cases} quarantined`;
  return `<tr>
<th scope="row">${html(f.family, 120)}${missing}</th>
<td>${bar([{ value: f.adversarial, cls: 'adv', label: `${f.adversarial} adversarial` }, { value: f.benign, cls: 'ben', label: `${f.benign} benign` }], scale.cases, armsLabel)}<span class="num">${f.adversarial} / ${f.benign}</span></td>
<td>${bar([{ value: f.findings.error, cls: 'err', label: `${f.findings.error} errors` }, { value: f.findings.warning, cls: 'warn', label: `${f.findings.warning} warnings` }, { value: f.findings.info + f.findings.hint, cls: 'info', label: `${f.findings.info + f.findings.hint} info and hints` }], scale.findings, findingsLabel)}<span class="num">${findings}</span></td>
<td>${bar([{ value: f.quarantined, cls: 'quar', label: `${f.quarantined} quarantined` }, { value: cases - f.quarantined, cls: 'clean', label: `${cases - f.quarantined} not quarantined` }], cases, quarantineLabel)}<span class="num">${f.quarantined} / ${cases}</span></td>
</tr>`;
}

function folderSection(v: SuiteReportView, many: boolean): string {
  const r = v.report;
  const out: string[] = [];
  if (many) out.push(`<h2>${html(v.folder)}</h2>`);
  out.push(`<p class="verdict ${r.verdict.trusted ? 'good' : 'bad'}">${html(r.verdict.line, 2000)}</p>`);
  const tiles: [string, string][] = [
    [String(r.cases), 'cases'],
    [`${r.arms.adversarial} / ${r.arms.benign}`, 'adversarial / benign'],
    [String(r.families.length), 'families'],
    [String(r.quarantined), 'quarantined'],
    [String(r.diagnostics.error), 'errors'],
    [String(r.diagnostics.warning), 'warnings'],
    [String(r.files), 'files'],
  ];
  out.push(`<div class="tiles">${tiles.map(([n, l]) => `<div class="tile"><div class="n">${html(n)}</div><div class="l">${html(l)}</div></div>`).join('')}</div>`);

  out.push('<h3>Families</h3>');
  if (!v.families.length) out.push('<p class="muted">No case names a family.</p>');
  else {
    const shown = v.families.slice(0, MAX_FAMILIES);
    const scale = {
      cases: Math.max(1, ...shown.map((f) => f.adversarial + f.benign)),
      findings: Math.max(1, ...shown.map((f) => sum(f.findings))),
    };
    out.push('<p class="legend"><span class="key adv"></span>adversarial <span class="key ben"></span>benign · <span class="key err"></span>errors <span class="key warn"></span>warnings <span class="key info"></span>info · <span class="key quar"></span>quarantined</p>');
    out.push('<table class="families"><thead><tr><th scope="col">family</th><th scope="col">arms</th><th scope="col">findings</th><th scope="col">quarantine</th></tr></thead><tbody>');
    for (const f of shown) out.push(familyRow(f, scale));
    out.push('</tbody></table>');
    if (v.families.length > shown.length) out.push(`<p class="muted">… and ${v.families.length - shown.length} more families (run <code>litmus-lint report --format json</code> for all).</p>`);
  }
  const outside = sum(v.outsideCases);
  if (outside) out.push(`<p class="muted">${plural(outside, 'finding')} outside the cases (tool files, harness, score reports, config): ${v.outsideCases.error} errors, ${v.outsideCases.warning} warnings.</p>`);

  out.push('<h3>Twins</h3>');
  out.push(`<p>${plural(v.pairs, 'pair')} · ${r.twins.unpairedAdversarial} adversarial without a benign twin · ${r.twins.unpairedBenign} benign without an adversarial twin</p>`);

  out.push(`<h3>Quarantine (${plural(r.quarantined, 'instance')})</h3>`);
  if (!r.quarantine.length) out.push('<p class="muted">None.</p>');
  else {
    out.push('<table class="list"><thead><tr><th scope="col">rule</th><th scope="col">instances</th></tr></thead><tbody>');
    for (const q of r.quarantine) {
      const names = q.instances.slice(0, MAX_INSTANCES).map((n) => `<code>${html(n, 120)}</code>`).join(', ');
      const more = q.instances.length > MAX_INSTANCES ? `, … and ${q.instances.length - MAX_INSTANCES} more` : '';
      out.push(`<tr><td><code>${html(q.rule)}</code></td><td>${q.instances.length}: ${names}${more}</td></tr>`);
    }
    out.push('</tbody></table>');
  }
  if (r.suiteErrors.length) {
    out.push(`<h3>Errors outside the cases (${r.suiteErrors.length})</h3><table class="list"><tbody>`);
    for (const e of r.suiteErrors.slice(0, 100)) out.push(`<tr><td><code>${html(e.rule)}</code></td><td>${html(e.file)}:${e.line}</td><td>${html(e.message, 400)}</td></tr>`);
    out.push('</tbody></table>');
    if (r.suiteErrors.length > 100) out.push(`<p class="muted">… and ${r.suiteErrors.length - 100} more.</p>`);
  }
  return `<section>${out.join('\n')}</section>`;
}

const STYLE = `
body { font-family: var(--vscode-font-family, sans-serif); font-size: var(--vscode-font-size, 13px); color: var(--vscode-foreground, #333); background: var(--vscode-editor-background, #fff); padding: 0 20px 20px; }
h1 { font-size: 1.5em; margin: 16px 0 8px; } h2 { font-size: 1.25em; border-top: 1px solid var(--vscode-panel-border, #ccc); padding-top: 12px; } h3 { font-size: 1.05em; margin: 18px 0 6px; }
.verdict { padding: 8px 12px; border-left: 4px solid; border-radius: 2px; }
.verdict.good { border-color: var(--vscode-testing-iconPassed, #388a34); background: var(--vscode-inputValidation-infoBackground, #e8f4e8); }
.verdict.bad { border-color: var(--vscode-errorForeground, #c72e0f); background: var(--vscode-inputValidation-errorBackground, #fbeaea); }
.tiles { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; }
.tile { border: 1px solid var(--vscode-panel-border, #ccc); border-radius: 4px; padding: 6px 12px; min-width: 84px; }
.tile .n { font-size: 1.4em; font-weight: 600; } .tile .l { opacity: 0.8; }
table { border-collapse: collapse; } th, td { text-align: left; padding: 3px 10px 3px 0; vertical-align: middle; }
table.families th[scope=row] { font-weight: normal; max-width: 280px; overflow-wrap: anywhere; }
thead th { opacity: 0.8; font-weight: 600; border-bottom: 1px solid var(--vscode-panel-border, #ccc); }
.bar { vertical-align: middle; } .num { margin-left: 6px; font-variant-numeric: tabular-nums; opacity: 0.85; }
.track { fill: var(--vscode-editorWidget-background, #eee); }
.adv { fill: var(--vscode-charts-red, #e51400); background: var(--vscode-charts-red, #e51400); }
.ben { fill: var(--vscode-charts-blue, #1a85ff); background: var(--vscode-charts-blue, #1a85ff); }
.err { fill: var(--vscode-errorForeground, #c72e0f); background: var(--vscode-errorForeground, #c72e0f); }
.warn { fill: var(--vscode-charts-yellow, #bf8803); background: var(--vscode-charts-yellow, #bf8803); }
.info { fill: var(--vscode-charts-blue, #1a85ff); background: var(--vscode-charts-blue, #1a85ff); opacity: 0.6; }
.quar { fill: var(--vscode-charts-orange, #d18616); background: var(--vscode-charts-orange, #d18616); }
.clean { fill: var(--vscode-charts-green, #388a34); background: var(--vscode-charts-green, #388a34); opacity: 0.5; }
.key { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 10px; border-radius: 2px; }
.badge { font-size: 0.85em; padding: 0 6px; border-radius: 8px; margin-left: 6px; } .badge.bad { color: var(--vscode-errorForeground, #c72e0f); border: 1px solid currentColor; }
.muted, .legend { opacity: 0.8; } code { font-family: var(--vscode-editor-font-family, monospace); }
`;

/**
 * The whole page. `nonce` admits the one stylesheet; nothing else may load or run (the CSP allows
 * no script, no frame, no remote image, font or connection).
 */
export function renderReportHtml(data: SuiteReportData, nonce: string): string {
  const safeNonce = nonce.replace(/[^A-Za-z0-9+/=]/g, '');
  const csp = `default-src 'none'; style-src 'nonce-${safeNonce}'; img-src data:; base-uri 'none'; form-action 'none'`;
  const body = data.folders.length
    ? data.folders.map((f) => folderSection(f, data.folders.length > 1)).join('\n')
    : '<p>No workspace folder is open: open a folder that holds LITMUS suite files.</p>';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>LITMUS Suite Report</title>
<style nonce="${safeNonce}">${STYLE}</style>
</head>
<body>
<h1>LITMUS Suite Report</h1>
${body}
</body>
</html>
`;
}
