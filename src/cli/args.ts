import { parseArgs } from 'node:util';
import { FORMAT_NAMES } from './format/index';

/** One requested report: a format and where it goes (undefined: standard output). */
export interface FormatTarget {
  format: string;
  output?: string;
}

export interface CliOptions {
  /** Files, folders and glob patterns. */
  paths: string[];
  /** Every requested report, in command-line order (at least one). */
  formats: FormatTarget[];
  failSeverity: 'error' | 'warning';
  config?: string;
  quiet: boolean;
  /** `--hints`: stylish lists `hint` findings and out-of-scope notices instead of counting them in one line. */
  hints: boolean;
  /** False with `--no-inline-config`: in-source suppressions (FORMAT §11) are not applied. */
  inlineConfig: boolean;
  fix: boolean;
  fixDryRun: boolean;
  stdin: boolean;
  stdinFilename?: string;
  ignorePatterns: string[];
  /** False with `--no-ignore`: neither `.litmusignore` nor `--ignore-pattern` applies. */
  ignore: boolean;
  /** False with `--no-plugins`: the `plugins` of litmus.config.json files are not loaded. */
  plugins: boolean;
  maxWarnings?: number;
  printConfig?: string;
  /** `--rule id:severity`, as written; checked against the registry when the run starts. */
  rules: string[];
  /** `--color` / `--no-color`; undefined: decide from the terminal and the environment. */
  color?: boolean;
  cache: boolean;
  cacheLocation?: string;
  baseline?: string;
  writeBaseline?: string;
  help: boolean;
  version: boolean;
  /** SARIF: the folder artifact URIs are relative to (%SRCROOT%); default the git root, else the working directory. */
  basePath?: string;
  /** SARIF: the run's category (`automationDetails.id`), so several runs of one repository stay apart. */
  category?: string;
}

/** A usage error: printed as one line, exit status 2. */
export class UsageError extends Error {}

export const OPTIONS = {
  format: { type: 'string', short: 'f', multiple: true },
  output: { type: 'string', short: 'o' },
  'output-file': { type: 'string' },
  'fail-severity': { type: 'string' },
  config: { type: 'string', short: 'c' },
  quiet: { type: 'boolean', short: 'q' },
  hints: { type: 'boolean' },
  'no-inline-config': { type: 'boolean' },
  fix: { type: 'boolean' },
  'fix-dry-run': { type: 'boolean' },
  stdin: { type: 'boolean' },
  'stdin-filename': { type: 'string' },
  'ignore-pattern': { type: 'string', multiple: true },
  'no-ignore': { type: 'boolean' },
  'no-plugins': { type: 'boolean' },
  'max-warnings': { type: 'string' },
  'print-config': { type: 'string' },
  rule: { type: 'string', multiple: true },
  color: { type: 'boolean' },
  'no-color': { type: 'boolean' },
  cache: { type: 'boolean' },
  'cache-location': { type: 'string' },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  'base-path': { type: 'string' },
  category: { type: 'string' },
} as const;

/** Parses the command line strictly: an unknown option or a bad value is a usage error. */
export function parseCliArgs(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (e) {
    // Node's messages run over several lines and name internals; keep the first sentence. A
    // value that starts with '-' (`-o -x.json`, `--max-warnings -1`) reads as an option: the
    // first sentence only says "ambiguous", so name the way to give it.
    const ambiguous = /^Option '(-[^' ]+)' argument is ambiguous/i.exec(e instanceof Error ? e.message : '');
    if (ambiguous) throw new UsageError(`${ambiguous[1]} needs a value; to give one that starts with '-', write ${ambiguous[1].startsWith('--') ? `${ambiguous[1]}=` : ambiguous[1]}<value>`);
    throw new UsageError(firstLine(e instanceof Error ? e.message : String(e)));
  }
  const v = parsed.values;
  const failSeverity = v['fail-severity'] ?? 'error';
  if (failSeverity !== 'error' && failSeverity !== 'warning') {
    throw new UsageError(`--fail-severity must be error or warning, not '${failSeverity}'`);
  }
  if (v.output !== undefined && v['output-file'] !== undefined) throw new UsageError('give -o or --output-file, not both');
  const output = v.output ?? v['output-file'];
  const named: [string, string | undefined][] = [
    ['--output', output],
    ['--config', v.config],
    ['--stdin-filename', v['stdin-filename']],
    ['--print-config', v['print-config']],
    ['--cache-location', v['cache-location']],
    ['--baseline', v.baseline],
    ['--write-baseline', v['write-baseline']],
  ];
  for (const [name, value] of named) {
    if (value === '') throw new UsageError(`${name} needs a file name`);
  }
  if (v.color && v['no-color']) throw new UsageError('give --color or --no-color, not both');
  if (v.fix && v['fix-dry-run']) throw new UsageError('give --fix or --fix-dry-run, not both');
  if (v.quiet && v.hints) throw new UsageError('give --quiet (errors only) or --hints (everything, hints too), not both');
  if (v['stdin-filename'] !== undefined && !v.stdin) throw new UsageError('--stdin-filename needs --stdin');
  if (v.stdin && parsed.positionals.length > 0) throw new UsageError('--stdin lints standard input: give no files or folders with it');
  // Paths beside it would be read as asking for a lint that never happens.
  if (v['print-config'] !== undefined && parsed.positionals.length > 0) throw new UsageError('--print-config lints nothing: give it the one file, and no other paths');
  let maxWarnings: number | undefined;
  if (v['max-warnings'] !== undefined) {
    const text = v['max-warnings'];
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--max-warnings needs a whole number of 0 or more, not '${text}'`);
    maxWarnings = Number(text);
  }
  for (const p of v['ignore-pattern'] ?? []) {
    if (p.trim() === '') throw new UsageError('--ignore-pattern needs a pattern');
  }
  if (v['base-path'] === '') throw new UsageError('--base-path needs a folder');
  if (v.category !== undefined && !/^[\w.\-/]+$/.test(v.category)) {
    throw new UsageError(`--category takes letters, digits and . _ - /, not '${v.category}'`);
  }
  return {
    paths: parsed.positionals,
    formats: formatTargets(v.format ?? [], output),
    failSeverity,
    config: v.config,
    quiet: v.quiet ?? false,
    hints: v.hints ?? false,
    inlineConfig: !v['no-inline-config'],
    fix: v.fix ?? false,
    fixDryRun: v['fix-dry-run'] ?? false,
    stdin: v.stdin ?? false,
    stdinFilename: v['stdin-filename'],
    ignorePatterns: v['ignore-pattern'] ?? [],
    ignore: !v['no-ignore'],
    plugins: !v['no-plugins'],
    maxWarnings,
    printConfig: v['print-config'],
    rules: v.rule ?? [],
    color: v.color ? true : v['no-color'] ? false : undefined,
    cache: v.cache ?? false,
    cacheLocation: v['cache-location'],
    baseline: v.baseline,
    writeBaseline: v['write-baseline'],
    help: v.help ?? false,
    version: v.version ?? false,
    basePath: v['base-path'],
    category: v.category,
  };
}

/**
 * `--format NAME[:FILE]`, once or more. `-o FILE` goes with the one format that names no file of
 * its own; at most one report may go to standard output, since two would interleave there.
 */
function formatTargets(specs: string[], output: string | undefined): FormatTarget[] {
  const targets: FormatTarget[] = (specs.length ? specs : ['stylish']).map((spec) => {
    const colon = spec.indexOf(':');
    const format = colon < 0 ? spec : spec.slice(0, colon);
    const file = colon < 0 ? undefined : spec.slice(colon + 1);
    if (!FORMAT_NAMES.includes(format)) throw new UsageError(`unknown format '${format}'; use one of ${FORMAT_NAMES.join(', ')}`);
    if (file === '') throw new UsageError(`--format ${format}: needs a file name after ':'`);
    return { format, output: file };
  });
  const unnamed = targets.filter((t) => t.output === undefined);
  if (output !== undefined) {
    if (unnamed.length !== 1) {
      throw new UsageError(unnamed.length ? '-o names the file of one format: give the others their own (--format NAME:FILE)' : '-o has no format to take: every --format names its own file');
    }
    unnamed[0].output = output;
  } else if (unnamed.length > 1) {
    throw new UsageError('only one format can go to standard output: give the others a file (--format NAME:FILE)');
  }
  const files = targets.flatMap((t) => (t.output === undefined ? [] : [t.output]));
  const twice = files.find((f, i) => files.indexOf(f) !== i);
  if (twice !== undefined) throw new UsageError(`two formats write to ${twice}`);
  return targets;
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].trim();
  // "Unknown option '--x'. To specify a positional argument starting with a '-', place it at the end..."
  const sentence = /^(.*?\.)\s/.exec(line);
  const text = sentence ? sentence[1].replace(/\.$/, '') : line;
  return text.charAt(0).toLowerCase() + text.slice(1);
}
