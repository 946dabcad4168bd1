import * as path from 'node:path';
import { buildSuiteReport, escapeText, fileUri, lintIndex, loadWorkspace, quote, renderSuiteReport, type ReportFormat } from '../core';
import type { CliIo } from './io';

export const REPORT_USAGE = `Usage: litmus-lint report [options] <files or folders...>

Summarises a LITMUS suite: cases per arm, probe and family; families missing an arm; twin pairs;
which instances each rule would quarantine; and whether the suite's aggregate can be trusted.

Options:
  -f, --format text|json|markdown  output format (default: text; markdown suits CI job summaries)
  -c, --config FILE                use this litmus.config.json instead of the nearest one
  -o, --output FILE                write the report to FILE instead of stdout
      --no-inline-config           apply no in-source suppressions (litmus-disable comments, x-litmus-disable)
  -h, --help                       show this help

Hints (a labelled payload the detector confirms) are counted in the last line, not as problems;
findings accepted by in-source suppressions are counted beside the diagnostics.

Exit status: 0 when the aggregate can be trusted, 1 when it cannot, 2 for a usage error.
`;

const FORMATS: readonly ReportFormat[] = ['text', 'json', 'markdown'];

interface ReportOptions {
  format: ReportFormat;
  config?: string;
  output?: string;
  paths: string[];
  help: boolean;
  /** False with `--no-inline-config`. */
  inlineConfig: boolean;
}

/**
 * Command-line text for the terminal: control, bidi and other hidden characters escaped, so a
 * folder name cannot set the terminal title, clear the screen or reorder the line.
 */
function shown(text: string): string {
  return quote(text, 400);
}

/** A path as given, escaped the same way but unquoted (as the linter's own usage errors show paths). */
function shownPath(text: string): string {
  return escapeText(text, 400);
}

/** Parses the report's own options; a string is a one-line usage error. */
export function parseReportArgs(args: string[]): ReportOptions | string {
  const opts: ReportOptions = { format: 'text', paths: [], help: false, inlineConfig: true };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      opts.paths.push(...args.slice(i + 1));
      break;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const takeValue = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : args[++i]);
    switch (name) {
      case '-h':
      case '--help':
        opts.help = true;
        break;
      case '--no-inline-config':
        opts.inlineConfig = false;
        break;
      case '-f':
      case '--format': {
        const v = takeValue();
        if (v === undefined) return '--format needs a value: text, json or markdown';
        if (!FORMATS.includes(v as ReportFormat)) return `unknown report format ${shown(v)}; use text, json or markdown`;
        opts.format = v as ReportFormat;
        break;
      }
      case '-c':
      case '--config': {
        const v = takeValue();
        if (!v) return '--config needs a file';
        opts.config = v;
        break;
      }
      case '-o':
      case '--output': {
        const v = takeValue();
        if (!v) return `${name} needs a file`;
        opts.output = v;
        break;
      }
      default:
        if (arg.startsWith('-') && arg !== '-') return `unknown option ${shown(arg)} (see litmus-lint report --help)`;
        opts.paths.push(arg);
    }
  }
  return opts;
}

/** `litmus-lint report <paths>`: the suite health summary. */
export async function runReport(args: string[], io: CliIo): Promise<number> {
  const opts = parseReportArgs(args);
  if (typeof opts === 'string') {
    io.stderr(`litmus-lint report: ${opts}\n`);
    return 2;
  }
  if (opts.help) {
    io.stdout(REPORT_USAGE);
    return 0;
  }
  if (opts.paths.length === 0) {
    io.stderr('litmus-lint report: no files or folders given (see litmus-lint report --help)\n');
    return 2;
  }
  const roots = opts.paths.map((p) => fileUri(path.resolve(io.cwd, p)));
  for (let i = 0; i < roots.length; i++) {
    if (!(await io.fs.stat(roots[i]).catch(() => undefined))) {
      io.stderr(`litmus-lint report: ${shownPath(opts.paths[i])}: no such file or folder\n`);
      return 2;
    }
  }
  let configUri: string | undefined;
  if (opts.config !== undefined) {
    configUri = fileUri(path.resolve(io.cwd, opts.config));
    if ((await io.fs.stat(configUri).catch(() => undefined))?.type !== 'file') {
      io.stderr(`litmus-lint report: --config ${shownPath(opts.config)}: no such file\n`);
      return 2;
    }
  }
  try {
    const { index } = await loadWorkspace(io.fs, roots, { configUri });
    // Suppressed findings are kept, marked, to be counted; they quarantine nothing.
    const { diagnostics } = lintIndex(index, { keepSuppressed: true, inlineConfig: opts.inlineConfig });
    const report = buildSuiteReport(index, diagnostics);
    const text = renderSuiteReport(report, opts.format);
    if (opts.output !== undefined) await io.writeFile(path.resolve(io.cwd, opts.output), text);
    else io.stdout(text);
    return report.verdict.trusted ? 0 : 1;
  } catch (e) {
    io.stderr(`litmus-lint report: internal error: ${quote(String((e as Error)?.message ?? e), 400).slice(1, -1)}\n`);
    return 2;
  }
}
