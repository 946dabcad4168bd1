import { type LintDiagnostic } from '../../core';
import { fitToBudget, outputBudget, piecesWithinBudget, rankOf, sizeNotice } from './budget';
import { relPath, type FormatContext, type Formatter } from './context';
import { cdata, escapeXml } from './xml';

/** The file's path without its extension, as ESLint's junit formatter names a test class. */
function className(path: string): string {
  const slash = path.lastIndexOf('/');
  const dot = path.lastIndexOf('.');
  return dot > slash + 1 ? path.slice(0, dot) : path;
}

/** The one rule that means the file could not be linted. */
const isFatal = (d: LintDiagnostic) => d.code === 'parse-error';

const TITLE = { error: 'Error', warning: 'Warning', info: 'Info', hint: 'Hint' } as const;

/**
 * JUnit XML, the shape ESLint's `junit` formatter writes: one `<testsuite>` per file linted, one
 * `<testcase>` per problem, and one passing `<testcase>` for a clean file, so CI test views count
 * it. As in ESLint (and JUnit: an error is a test that could not run), a problem is a `<failure>`,
 * and only a file that could not be read or parsed (`parse-error`, ESLint's fatal message) is an `<error>`.
 */
export const junit: Formatter = (diagnostics, ctx) => [...junitPieces(diagnostics, ctx)].join('');

/** The report in pieces (a file's suite, a finding), to write as they come: never one string. */
export function junitPieces(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): Iterable<string> {
  return piecesWithinBudget(ctx, (c) => fittedJunit(diagnostics, c));
}

/** The report, its findings fitted to the context's output budget when it has one. */
function* fittedJunit(diagnostics: readonly LintDiagnostic[], ctx: FormatContext): Generator<string> {
  const testcase = (d: LintDiagnostic, cls: string) => {
    const element = isFatal(d) ? 'error' : 'failure';
    const where = `line ${d.range.start.line + 1}, col ${d.range.start.character + 1}, ${TITLE[d.severity]} - ${d.message} (${d.code})`;
    return (
      `<testcase time="0" name="${escapeXml(`${ctx.toolName}.${d.code}`)}" classname="${cls}">` +
      `<${element} message="${escapeXml(d.message)}" type="${escapeXml(d.code)}">${cdata(where)}</${element}></testcase>\n`
    );
  };
  const classOf = (uri: string) => escapeXml(className(relPath(uri, ctx.cwdUri)));
  let shown = diagnostics;
  let notice: string | undefined;
  const budget = outputBudget(ctx);
  if (budget !== Infinity) {
    // Each file's <testsuite> lines (about 200 characters) do not grow with the findings.
    const fit = fitToBudget(diagnostics.map((d) => ({ rank: rankOf(d), base: testcase(d, classOf(d.uri)).length, related: [] })), budget - ctx.files.length * 400 - 512);
    notice = sizeNotice(fit);
    if (notice) {
      ctx.warn?.(`junit: ${notice}`);
      shown = diagnostics.filter((_, i) => fit.keep[i]);
    }
  }
  const byFile = new Map<string, LintDiagnostic[]>();
  for (const f of ctx.files) byFile.set(f, []);
  for (const d of shown) {
    const list = byFile.get(d.uri);
    if (list) list.push(d);
    else byFile.set(d.uri, [d]);
  }
  const files = [...byFile.entries()].map(([uri, list]) => ({ path: relPath(uri, ctx.cwdUri), list })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  yield '<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n';
  for (const { path, list } of files) {
    const p = escapeXml(path);
    const cls = escapeXml(className(path));
    const errors = list.filter(isFatal).length;
    yield `<testsuite package="${escapeXml(ctx.toolName)}" time="0" tests="${Math.max(list.length, 1)}" errors="${errors}" failures="${list.length - errors}" name="${p}">\n`;
    if (list.length === 0) yield `<testcase time="0" name="${p}" classname="${cls}" />\n`;
    for (const d of list) yield testcase(d, cls);
    yield '</testsuite>\n';
  }
  // JUnit has no place for a note about the report itself: a comment, which readers skip.
  if (notice) yield `<!-- ${escapeXml(notice)} -->\n`;
  yield '</testsuites>\n';
}
