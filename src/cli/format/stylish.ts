import { countHints, escapeText, formatCount, hintSummaryLine, isOutOfScope, neutraliseWorkflowCommands, type LintDiagnostic, type Severity } from '../../core';
import { DEFAULT_WIDTH, displayWidth, wrap } from '../terminal';
import { autoFixable, countSeverities, plural, relPath, type FormatContext, type Formatter } from './context';
import { inChunks } from './stream';

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

/**
 * The report is handed on in pieces of about this many characters: a million findings never make
 * one string. Below V8's large-object size (128 KB; the marks make a piece two bytes a character),
 * so a piece written and dropped dies young, as the JSON report's do.
 */
const CHUNK = 1 << 15;
/** A message column narrower than this would hold a word or two per line: such rows run past the width instead. */
const MIN_MESSAGE = 24;

/** Pads on the right to a display width (the text has no escapes yet when it is measured). */
function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

const locOf = (d: LintDiagnostic) => `${d.range.start.line + 1}:${d.range.start.character + 1}`;
/** A message as shown: suite text in it must not read as a workflow command (wrapped lines are checked again). */
/** A finding's message; one that stands for a fact other rules state too names them (docs/format.md, "One fact, one finding"). */
const shownMessage = (d: LintDiagnostic) => neutraliseWorkflowCommands(d.fact && d.fact.rules.length > 1 ? `${d.message} (also ${d.fact.rules.slice(1).join(', ')})` : d.message);

/**
 * Where each message that wrapped was last shown in full, by rule and text, for the rows that repeat
 * it. A suite that makes one mistake in many cases (an import whose every case lacks what its
 * scorer checks) gets the same explanation on each of them: at eight wrapped lines apiece, 2,000
 * findings were 16,000 lines of one paragraph. What is left out is the text itself, so the text is
 * the key. At most MAX_SHOWN texts are kept, so a report of a million distinct messages still
 * streams in bounded memory; past that many, new messages are shown in full every time.
 */
type ShownAt = { size: number; byRule: Map<string, Map<string, { uri: string; loc: string }>> };

const MAX_SHOWN = 10_000;

function remember(shownAt: ShownAt, d: LintDiagnostic, message: string): void {
  let byText = shownAt.byRule.get(d.code);
  if (!byText) shownAt.byRule.set(d.code, (byText = new Map()));
  if (!byText.has(message)) {
    if (shownAt.size >= MAX_SHOWN) return;
    shownAt.size++;
  }
  byText.set(message, { uri: d.uri, loc: locOf(d) });
}

/**
 * A repeated message's row: where the same words stand in full, as `path:line:col` (a link in
 * terminals) when in another file. Undefined when that place is wider than the column: a path cut
 * in two is neither a link nor shorter to read, so the message is shown again instead.
 */
function sameAs(shown: { uri: string; loc: string }, d: LintDiagnostic, ctx: FormatContext, column: number): string | undefined {
  // Two findings at one place: "same message as" itself would read as a mistake.
  if (shown.uri === d.uri) return shown.loc === locOf(d) ? undefined : `same message as ${shown.loc}`;
  const place = `${escapeText(relPath(shown.uri, ctx.cwdUri))}:${shown.loc}`;
  return displayWidth(place) <= column ? `same message as ${place}` : undefined;
}

/**
 * One file's lines. When every row fits the width, rule ids stand in one column, as in ESLint;
 * otherwise each message wraps in its own column and its rule id follows its last line, so no line
 * is padded past the width to line up with the longest message; a message that wraps and was shown
 * in full earlier in the report takes one row that says where. Two passes over the rows.
 */
function* fileLines(list: readonly LintDiagnostic[], ctx: FormatContext, width: number, shownAt: ShownAt): Generator<string> {
  let locW = 0;
  let sevW = 0;
  let msgW = 0;
  let ruleW = 0;
  for (const d of list) {
    locW = Math.max(locW, locOf(d).length);
    sevW = Math.max(sevW, d.severity.length);
    msgW = Math.max(msgW, displayWidth(shownMessage(d)));
    ruleW = Math.max(ruleW, d.code.length);
  }
  const indent = 2 + locW + 2 + sevW + 2;
  const head = (d: LintDiagnostic) => `  ${paint(ctx, pad(locOf(d), locW), 'dim')}  ${paint(ctx, pad(d.severity, sevW), SEVERITY_STYLE[d.severity])}  `;
  if (indent + msgW + 2 + ruleW <= width) {
    for (const d of list) yield `${head(d)}${pad(shownMessage(d), msgW)}  ${paint(ctx, d.code, 'dim')}`;
    return;
  }
  const column = Math.max(MIN_MESSAGE, width - indent);
  const blank = ' '.repeat(indent);
  for (const d of list) {
    const message = shownMessage(d);
    let lines = wrap(message, column);
    if (lines.length > 1) {
      const shown = shownAt.byRule.get(d.code)?.get(message);
      const reference = shown ? sameAs(shown, d, ctx, column) : undefined;
      if (reference) lines = wrap(reference, column);
      else remember(shownAt, d, message);
    }
    const last = lines.length - 1;
    for (let i = 0; i <= last; i++) {
      // A wrapped line starts after white space: suite text there must not read as a workflow command.
      const text = neutraliseWorkflowCommands(lines[i]);
      const start = i === 0 ? head(d) : blank;
      if (i < last) yield start + text;
      else if (displayWidth(lines[i]) + 2 + d.code.length <= column) yield `${start}${text}  ${paint(ctx, d.code, 'dim')}`;
      else {
        yield start + text;
        yield blank + paint(ctx, d.code, 'dim');
      }
    }
  }
}

/** Our own summary text, wrapped to the width (it never holds suite text); later lines are indented by two more. */
function summaryLines(text: string, width: number, indent = ''): string[] {
  const first = wrap(text, Math.max(MIN_MESSAGE, width - indent.length));
  if (first.length === 1) return [indent + text];
  const [head] = first;
  const rest = wrap(text.slice(head.length + (text[head.length] === ' ' ? 1 : 0)), Math.max(MIN_MESSAGE, width - indent.length - 2));
  return [indent + head, ...rest.map((l) => `${indent}  ${l}`)];
}

/**
 * The human format, after ESLint's: one block per file (path relative to the working directory),
 * one row per problem, then a summary. Hints are counted in the summary's last line unless
 * `showHints` (`--hints`) lists them; the text comes in pieces (see CHUNK).
 */
export function stylishChunks(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): Iterable<string> {
  return inChunks(stylishPieces(diagnostics, ctx), CHUNK);
}

/** The report a file header, a row or the summary at a time. */
function* stylishPieces(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): Generator<string> {
  const width = ctx.width ?? DEFAULT_WIDTH;
  // One fact, one finding: the group's primary stands for the others (machine formats keep them all).
  // Hints, and the notices a declared `"scoring": "disjoint"` leaves (the same words on every pair), are counted, not listed.
  const listed = diagnostics.filter((d) => (ctx.showHints || (d.severity !== 'hint' && !isOutOfScope(d))) && (!d.fact || d.fact.primary));
  const hints = ctx.showHints ? [] : countHints(diagnostics, true);
  const byFile = new Map<string, LintDiagnostic[]>();
  for (const d of listed) {
    const list = byFile.get(d.uri);
    if (list) list.push(d);
    else byFile.set(d.uri, [d]);
  }
  const shownAt: ShownAt = { size: 0, byRule: new Map() };
  for (const [uri, list] of byFile) {
    // File names come from the suite author's disk: escape them like any other untrusted text.
    yield `\n${paint(ctx, neutraliseWorkflowCommands(escapeText(relPath(uri, ctx.cwdUri))), 'underline')}\n`;
    for (const line of fileLines(list, ctx, width, shownAt)) yield line + '\n';
  }
  let out = '';
  const c = countSeverities(listed);
  const total = listed.length;
  const hidden = ctx.hidden > 0 ? ` (${formatCount(ctx.hidden)} below error severity hidden by --quiet)` : '';
  if (total === 0) {
    out += paint(ctx, summaryLines(`✔ no problems in ${plural(ctx.files.length, 'file')}${hidden}`, width).join('\n'), 'green') + '\n';
  } else {
    const parts = [plural(c.error, 'error'), plural(c.warning, 'warning')];
    if (c.info) parts.push(`${formatCount(c.info)} info`);
    if (c.hint) parts.push(plural(c.hint, 'hint'));
    const style: Style = c.error ? 'red' : c.warning ? 'yellow' : 'blue';
    const lines = summaryLines(`✖ ${plural(total, 'problem')} (${parts.join(', ')}) in ${plural(ctx.files.length, 'file')}${hidden}`, width);
    out += `\n${lines.map((l) => paint(ctx, l, style, 'bold')).join('\n')}\n`;
  }
  const fixable = listed.filter(autoFixable).length;
  if (fixable) out += summaryLines(`${plural(fixable, 'problem')} can be fixed with the \`--fix\` option.`, width, '  ').join('\n') + '\n';
  const suppressed = ctx.suppressed?.length ?? 0;
  if (suppressed) {
    const them = suppressed === 1 ? 'it' : 'them';
    out += summaryLines(`${plural(suppressed, 'finding')} suppressed in source (\`--no-inline-config\` shows ${them})`, width, '  ').join('\n') + '\n';
  }
  const hintLine = hintSummaryLine(hints, '`--hints`');
  if (hintLine) out += summaryLines(hintLine, width).join('\n') + '\n';
  yield out;
}

export const stylish: Formatter = (diagnostics, ctx) => [...stylishChunks(diagnostics, ctx)].join('');
