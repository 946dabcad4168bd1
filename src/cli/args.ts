import { parseArgs } from 'node:util';
import { FORMAT_NAMES } from './format/index';

export interface CliOptions {
  paths: string[];
  format: string;
  output?: string;
  failSeverity: 'error' | 'warning';
  config?: string;
  quiet: boolean;
  fix: boolean;
  help: boolean;
  version: boolean;
  /** SARIF: the folder artifact URIs are relative to (%SRCROOT%); default the git root, else the working directory. */
  basePath?: string;
  /** SARIF: the run's category (`automationDetails.id`), so several runs of one repository stay apart. */
  category?: string;
}

/** A usage error: printed as one line, exit status 2. */
export class UsageError extends Error {}

/** Parses the command line strictly: an unknown option or a bad value is a usage error. */
export function parseCliArgs(argv: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        format: { type: 'string', short: 'f' },
        output: { type: 'string', short: 'o' },
        'fail-severity': { type: 'string' },
        config: { type: 'string', short: 'c' },
        quiet: { type: 'boolean', short: 'q' },
        fix: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        'base-path': { type: 'string' },
        category: { type: 'string' },
      },
    });
  } catch (e) {
    // Node's messages run over several lines and name internals; keep the first sentence.
    throw new UsageError(firstLine(e instanceof Error ? e.message : String(e)));
  }
  const v = parsed.values;
  const format = v.format ?? 'stylish';
  if (!FORMAT_NAMES.includes(format)) {
    throw new UsageError(`unknown format '${format}'; use one of ${FORMAT_NAMES.join(', ')}`);
  }
  const failSeverity = v['fail-severity'] ?? 'error';
  if (failSeverity !== 'error' && failSeverity !== 'warning') {
    throw new UsageError(`--fail-severity must be error or warning, not '${failSeverity}'`);
  }
  for (const [name, value] of [['--output', v.output], ['--config', v.config]] as const) {
    if (value === '') throw new UsageError(`${name} needs a file name`);
  }
  if (v['base-path'] === '') throw new UsageError('--base-path needs a folder');
  if (v.category !== undefined && !/^[\w.\-/]+$/.test(v.category)) {
    throw new UsageError(`--category takes letters, digits and . _ - /, not '${v.category}'`);
  }
  return {
    paths: parsed.positionals,
    format,
    output: v.output,
    failSeverity,
    config: v.config,
    quiet: v.quiet ?? false,
    fix: v.fix ?? false,
    help: v.help ?? false,
    version: v.version ?? false,
    basePath: v['base-path'],
    category: v.category,
  };
}

function firstLine(message: string): string {
  const line = message.split('\n')[0].trim();
  // "Unknown option '--x'. To specify a positional argument starting with a '-', place it at the end..."
  const sentence = /^(.*?\.)\s/.exec(line);
  const text = sentence ? sentence[1].replace(/\.$/, '') : line;
  return text.charAt(0).toLowerCase() + text.slice(1);
}
