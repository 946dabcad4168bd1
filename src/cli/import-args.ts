/** The options both import commands take, beside their own. */
export interface CommonImportArgs {
  out?: string;
  force: boolean;
  dryRun: boolean;
  help: boolean;
}

/**
 * Walks an import command's arguments as both spell them: `--name value` and `--name=value`, the
 * common flags and `--out`, and `--` handing the rest over. `own` reads the command's own options
 * (`undefined` when done, a string for a usage error, `false` when the name is not its option);
 * every other argument goes to `other`. A string back is a one-line usage error.
 */
export function walkImportArgs(
  args: readonly string[],
  common: CommonImportArgs,
  handlers: {
    own: (name: string, value: () => string | undefined) => string | false | undefined;
    other: (arg: string) => string | undefined;
    rest: (args: string[]) => void;
  },
): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      handlers.rest(args.slice(i + 1));
      return undefined;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string | undefined => (eq > 0 ? arg.slice(eq + 1) : args[++i]);
    if (name === '-h' || name === '--help') common.help = true;
    else if (name === '--force') common.force = true;
    else if (name === '--dry-run') common.dryRun = true;
    else if (name === '-o' || name === '--out') {
      const v = value();
      if (!v) return '--out needs a folder';
      common.out = v;
    } else {
      const own = handlers.own(name, value);
      if (typeof own === 'string') return own;
      if (own === false) {
        const problem = handlers.other(arg);
        if (problem) return problem;
      }
    }
  }
  return undefined;
}
