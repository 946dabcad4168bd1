import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver';
import { sameOrderedJson, type LintDiagnostic, type Severity } from '../core';

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

function sameRange(a: LintDiagnostic['range'], b: LintDiagnostic['range']): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/**
 * Whether two lists convert to the same LSP diagnostics: every field `toLspDiagnostic` reads. A
 * file re-judged because a change elsewhere reached it mostly gets its list back unchanged, and
 * converting and serialising its hundreds of diagnostics only to find that out was a tenth of an
 * edit in a large imported suite.
 */
export function sameDiagnostics(a: readonly LintDiagnostic[], b: readonly LintDiagnostic[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (x.code !== y.code || x.offset !== y.offset || x.length !== y.length || x.severity !== y.severity || x.message !== y.message || x.docsUrl !== y.docsUrl) return false;
    if (!sameRange(x.range, y.range) || !sameOrderedJson(x.data, y.data)) return false;
    if (x.fixes.length !== y.fixes.length || x.fixes.some((f, j) => f.title !== y.fixes[j].title || f.unambiguous !== y.fixes[j].unambiguous)) return false;
    if (x.related.length !== y.related.length) return false;
    for (let j = 0; j < x.related.length; j++) {
      const r = x.related[j];
      const s = y.related[j];
      if (r.uri !== s.uri || r.message !== s.message || !sameRange(r.range, s.range)) return false;
    }
  }
  return true;
}
