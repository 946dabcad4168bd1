import { MarkupKind, type Hover, type Position } from 'vscode-languageserver';
import { escapeText, type LintDiagnostic, quote } from '../core';

/** Rules whose diagnostics carry the payload detector's data. */
export const PAYLOAD_RULES = new Set(['injection-payload', 'benign-contamination']);

const MAX_ITEMS = 12;

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

function contains(d: LintDiagnostic, p: Position): boolean {
  return before(d.range.start, p) && before(p, d.range.end);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** Lines about one flagged payload, built only from plain strings that are escaped on the way in. */
function describe(d: LintDiagnostic): string[] {
  const data = d.data ?? {};
  // The message itself is already in the editor's diagnostic hover: add what it does not say.
  const lines = [`LITMUS ${d.code}`];
  const pointer = str(data.pointer);
  if (pointer !== undefined) lines.push(`Location: ${quote(pointer, 200)}`);
  if (typeof data.score === 'number' && Number.isFinite(data.score)) lines.push(`Score: ${Math.round(data.score * 100) / 100}`);
  const signals = list(data.signals).filter((s): s is Record<string, unknown> => typeof s === 'object' && s !== null);
  if (signals.length) {
    lines.push('Signals that fired:');
    for (const s of signals.slice(0, MAX_ITEMS)) {
      const id = str(s.id) ?? 'signal';
      const why = str(s.explanation);
      lines.push(`  - ${escapeText(id, 60)}${why ? `: ${escapeText(why, 200)}` : ''}`);
    }
    if (signals.length > MAX_ITEMS) lines.push(`  … and ${signals.length - MAX_ITEMS} more`);
  }
  const decoded = str(data.decoded);
  if (decoded !== undefined) lines.push(`Decoded text: ${quote(decoded, 400)}`);
  // Core lists at most 20 cases and gives the count of all of them beside the list.
  const total = (key: string, listed: number) => (typeof data[key] === 'number' && Number.isFinite(data[key]) ? Math.max(listed, data[key] as number) : listed);
  const labelledBy = list(data.labelledBy).map(str).filter((s): s is string => s !== undefined);
  if (labelledBy.length) {
    const more = total('labelledByCount', labelledBy.length) - Math.min(labelledBy.length, MAX_ITEMS);
    lines.push(`Labelled by the injection_field of: ${labelledBy.slice(0, MAX_ITEMS).map((s) => quote(s, 60)).join(', ')}${more > 0 ? `, … and ${more} more` : ''}`);
  }
  const usedBy = list(data.usedBy).filter((u): u is Record<string, unknown> => typeof u === 'object' && u !== null);
  if (usedBy.length) {
    const shown = usedBy.slice(0, MAX_ITEMS).map((u) => `${quote(str(u.id) ?? '?', 60)} (${escapeText(str(u.arm) ?? 'no arm', 20)} arm)`);
    const more = total('usedByCount', usedBy.length) - shown.length;
    lines.push(`Used by: ${shown.join(', ')}${more > 0 ? `, … and ${more} more` : ''}`);
  } else if ('usedBy' in data) {
    lines.push('Used by: no case');
  }
  return lines;
}

/**
 * The hover over a flagged payload. Plain text only: the payload is hostile, so nothing of it is
 * ever rendered as Markdown, and no command link can ride along.
 */
export function payloadHover(diagnostics: readonly LintDiagnostic[], position: Position): Hover | undefined {
  const hits = diagnostics.filter((d) => PAYLOAD_RULES.has(d.code) && contains(d, position));
  if (!hits.length) return undefined;
  const value = hits.map((d) => describe(d).join('\n')).join('\n\n');
  return { contents: { kind: MarkupKind.PlainText, value }, range: hits[0].range };
}
