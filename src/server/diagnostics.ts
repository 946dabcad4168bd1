import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import type { LintDiagnostic, Severity } from '../core';

export const SOURCE = 'litmus';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** 32-bit FNV-1a, enough to tell two messages at one place apart in a key. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/**
 * Identifies a diagnostic across re-lints that give the same result, so a code-action request that
 * carries an older copy still finds its current twin. Never derived from the message alone.
 */
export function diagnosticKey(d: LintDiagnostic): string {
  return `${d.code}@${d.offset}+${d.length}#${hash(d.message)}`;
}

/** What rides in `Diagnostic.data`: the finding's own data, plus the fixes by id and title. */
export interface DiagnosticData extends Record<string, unknown> {
  key: string;
  fixes: { id: string; title: string; unambiguous: boolean }[];
}

export function toLspDiagnostic(d: LintDiagnostic): Diagnostic {
  const key = diagnosticKey(d);
  const data: DiagnosticData = {
    ...(d.data ?? {}),
    key,
    fixes: d.fixes.map((f, i) => ({ id: `${key}/${i}`, title: f.title, unambiguous: f.unambiguous })),
  };
  const out: Diagnostic = {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    // A plugin's rule may come without a page.
    ...(d.docsUrl ? { codeDescription: { href: d.docsUrl } } : {}),
    source: SOURCE,
    message: d.message,
    data,
  };
  if (d.related.length) {
    out.relatedInformation = d.related.map((r) => ({ location: { uri: r.uri, range: r.range }, message: r.message }));
  }
  return out;
}

/** The key a client's copy of one of our diagnostics carries, if it is ours. */
export function keyOf(d: Diagnostic): string | undefined {
  if (d.source !== SOURCE) return undefined;
  const data = d.data as { key?: unknown } | undefined;
  return typeof data?.key === 'string' ? data.key : undefined;
}
