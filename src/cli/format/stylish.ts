import { escapeText, type LintDiagnostic, type Severity } from '../../core';
import { autoFixable, countSeverities, plural, relPath, type FormatContext, type Formatter } from './context';

const ANSI = {
  reset: '\u001b[0m',
  bold: '\u001b[1m',
  dim: '\u001b[2m',
  underline: '\u001b[4m',
  red: '\u001b[31m',
  yellow: '\u001b[33m',
  blue: '\u001b[34m',
  green: '\u001b[32m',
};

type Style = keyof typeof ANSI;

function paint(ctx: FormatContext, text: string, ...styles: Style[]): string {
  if (!ctx.color || styles.length === 0) return text;
  return styles.map((s) => ANSI[s]).join('') + text + ANSI.reset;
}

const SEVERITY_STYLE: Record<Severity, Style> = { error: 'red', warning: 'yellow', info: 'blue', hint: 'dim' };

/** Pads on the right by visible length (the text has no escapes yet when it is measured). */
function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - text.length));
}

/**
 * The human format, after ESLint's: one block per file (path relative to the working directory),
 * one aligned row per problem, then a summary line.
 */
export const stylish: Formatter = (diagnostics, ctx) => {
  const byFile = new Map<string, LintDiagnostic[]>();
  for (const d of diagnostics) {
    const list = byFile.get(d.uri);
    if (list) list.push(d);
    else byFile.set(d.uri, [d]);
  }
  let out = '';
  for (const [uri, list] of byFile) {
    // File names come from the suite author's disk: escape them like any other untrusted text.
    out += `\n${paint(ctx, escapeText(relPath(uri, ctx.cwdUri)), 'underline')}\n`;
    const rows = list.map((d) => ({
      loc: `${d.range.start.line + 1}:${d.range.start.character + 1}`,
      sev: d.severity,
      msg: d.message,
      rule: d.code,
    }));
    const locW = Math.max(...rows.map((r) => r.loc.length));
    const sevW = Math.max(...rows.map((r) => r.sev.length));
    const msgW = Math.max(...rows.map((r) => r.msg.length));
    for (const r of rows) {
      const loc = paint(ctx, pad(r.loc, locW), 'dim');
      const sev = paint(ctx, pad(r.sev, sevW), SEVERITY_STYLE[r.sev]);
      out += `  ${loc}  ${sev}  ${pad(r.msg, msgW)}  ${paint(ctx, r.rule, 'dim')}\n`;
    }
  }
  const c = countSeverities(diagnostics);
  const total = diagnostics.length;
  const hidden = ctx.hidden > 0 ? ` (${ctx.hidden} below error severity hidden by --quiet)` : '';
  if (total === 0) {
    out += paint(ctx, `✔ no problems in ${plural(ctx.files.length, 'file')}`, 'green') + `${hidden}\n`;
    return out;
  }
  const parts = [plural(c.error, 'error'), plural(c.warning, 'warning')];
  if (c.info) parts.push(`${c.info} info`);
  if (c.hint) parts.push(plural(c.hint, 'hint'));
  const style: Style = c.error ? 'red' : c.warning ? 'yellow' : 'blue';
  out += `\n${paint(ctx, `✖ ${plural(total, 'problem')} (${parts.join(', ')}) in ${plural(ctx.files.length, 'file')}`, style, 'bold')}${hidden}\n`;
  const fixable = diagnostics.filter(autoFixable).length;
  if (fixable) out += `  ${plural(fixable, 'problem')} can be fixed with the \`--fix\` option.\n`;
  return out;
};
