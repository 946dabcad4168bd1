import { escapeText, type LintDiagnostic } from '../../core';
import { fitToBudget, outputBudget, rankOf, sizeNotice } from './budget';
import { relPath, type FormatContext, type Formatter } from './context';

/** Escapes the message part of a workflow command (what follows `::`). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value (`file=`, `title=`): also `:` and `,`, which delimit properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' } as const;

function line(d: LintDiagnostic, cwdUri: string): string {
  const r = d.range;
  const props = [
    // A file name is suite text like any other: ESC, BEL and bidi controls shown as \u{…}, as every format does.
    `file=${escapeProperty(escapeText(relPath(d.uri, cwdUri)))}`,
    `line=${r.start.line + 1}`,
    `col=${r.start.character + 1}`,
    `endLine=${r.end.line + 1}`,
    `endColumn=${r.end.character + 1}`,
    `title=${escapeProperty(d.code)}`,
  ];
  return `::${COMMAND[d.severity]} ${props.join(',')}::${escapeData(d.message)}`;
}

/** GitHub Actions workflow commands: each problem becomes an annotation on the pull request. */
export const github: Formatter = (diagnostics, ctx) => [...githubPieces(diagnostics, ctx)].join('');

/** The annotations one by one, to write as they come: never one string. */
export function* githubPieces(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): Generator<string> {
  const lines = diagnostics.map((d) => line(d, ctx.cwdUri) + '\n');
  const budget = outputBudget(ctx);
  const fit = budget === Infinity ? undefined : fitToBudget(lines.map((l, i) => ({ rank: rankOf(diagnostics[i]), base: l.length, related: [] })), budget - 512);
  const notice = fit && sizeNotice(fit);
  if (!fit || !notice) {
    yield* lines;
    return;
  }
  ctx.warn?.(`github: ${notice}`);
  for (let i = 0; i < lines.length; i++) if (fit.keep[i]) yield lines[i];
  // An annotation of its own, so the cut shows where the others do.
  yield `::warning title=${escapeProperty(ctx.toolName)}::${escapeData(notice)}\n`;
}
