import { lstatSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { escapeText } from '../core';
import { MCP_DEFAULT_MAX_TOOLS, MCP_MAX_PAGES, MCP_MAX_TOOLS_LIMIT, mcpToolsFile, mcpToolsFileName, repeatedToolNames } from '../importers/mcp';
import { walkImportArgs, type CommonImportArgs } from './import-args';
import type { CliIo } from './io';
import { writeFileAtomic } from './write';

type McpClient = typeof import('./mcp-client');

/**
 * The MCP client, with the SDK: a module of its own beside this one (dist/mcp-client.js in the
 * bundle, out/src/cli/mcp-client.js from source), required only when `import mcp` runs.
 */
function mcpClient(): McpClient {
  // A computed path, so that the bundler leaves the SDK out of the CLI's own bundle.
  const path = join(__dirname, 'mcp-client.js');
  return require(path) as McpClient;
}

/** A failure of ours (the one line to print), whichever bundle threw it. */
class Failure extends Error {
  override readonly name = 'McpListFailure';
}
const isFailure = (e: unknown): e is Error => e instanceof Error && e.name === 'McpListFailure';

export const IMPORT_MCP_USAGE_LINE = 'litmus-lint import mcp [--out <dir>] [options] -- <command> [args...]';

/** Seconds the whole exchange may take by default: start, initialize, every tools/list page. */
export const MCP_DEFAULT_TIMEOUT_S = 30;

export const IMPORT_MCP_USAGE = `Usage: ${IMPORT_MCP_USAGE_LINE}

Starts a stdio MCP server, lists its tools (every tools/list page) with the official MCP SDK as the
client, stops it, and writes <name>.tools.json: the tools/list result, which is a LITMUS tools file,
with a comment saying where it came from (docs/import.md).

  -- <command> [args]   the server to start, as you would start it for any MCP client
  -o, --out <dir>       the folder to write in (default: the current folder)
      --name <name>     the file's name, <name>.tools.json (default: the name the server gives itself)
      --timeout <s>     seconds for the whole exchange (default ${MCP_DEFAULT_TIMEOUT_S}); the server is then stopped
      --max-tools <n>   refuse a server that lists more tools (default ${MCP_DEFAULT_MAX_TOOLS}, at most ${MCP_MAX_TOOLS_LIMIT})
      --force           overwrite the file if it exists
      --dry-run         list the tools and say what would be written; write nothing
  -h, --help            show this help

The server gets the environment every MCP SDK client gives it (HOME, PATH, SHELL, TERM, USER,
LOGNAME; their Windows equivalents), not all of yours.

Exit status: 0 listed, 2 usage error, or a server that cannot be started, does not answer in time,
answers something that is not MCP, or lists too many tools (one line on standard error, nothing written).
`;

interface McpArgs extends CommonImportArgs {
  command: string[];
  name?: string;
  timeoutS: number;
  maxTools: number;
}

export function parseImportMcpArgs(args: readonly string[]): McpArgs | string {
  const opts: McpArgs = { command: [], timeoutS: MCP_DEFAULT_TIMEOUT_S, maxTools: MCP_DEFAULT_MAX_TOOLS, force: false, dryRun: false, help: false };
  const problem = walkImportArgs(args, opts, {
    own(name, value) {
      if (name === '--name') {
        const v = value();
        if (!v) return '--name needs a name';
        opts.name = v;
      } else if (name === '--timeout') {
        const v = Number(value());
        if (!Number.isFinite(v) || v <= 0 || v > 3600) return '--timeout needs a number of seconds above 0, at most 3600';
        opts.timeoutS = v;
      } else if (name === '--max-tools') {
        const v = Number(value());
        if (!Number.isInteger(v) || v < 1 || v > MCP_MAX_TOOLS_LIMIT) return `--max-tools needs a whole number from 1 to ${MCP_MAX_TOOLS_LIMIT}`;
        opts.maxTools = v;
      } else {
        return false;
      }
      return undefined;
    },
    other: (arg) => (arg.startsWith('-') ? `unknown option ${JSON.stringify(arg)}` : `unexpected argument ${JSON.stringify(arg)}: put the server's command after --`),
    rest: (command) => void (opts.command = command),
  });
  if (problem) return problem;
  if (!opts.help && opts.command.length === 0) return 'name the server to start after --, e.g. litmus-lint import mcp -- node server.js';
  return opts;
}

/** `litmus-lint import mcp -- <command> [args]`. */
export async function runImportMcp(args: readonly string[], io: CliIo): Promise<number> {
  const say = (line: string) => io.stderr(`litmus-lint import mcp: ${escapeText(line)}\n`);
  const opts = parseImportMcpArgs(args);
  if (typeof opts === 'string') {
    say(`${opts} (see litmus-lint import mcp --help)`);
    return 2;
  }
  if (opts.help) {
    io.stdout(IMPORT_MCP_USAGE);
    return 0;
  }
  try {
    const outDir = resolve(io.cwd, opts.out ?? '.');
    const dir = statSync(outDir, { throwIfNoEntry: false });
    if (dir && !dir.isDirectory()) throw new Failure(`--out ${outDir} exists and is not a folder`);
    // Everything is listed before anything is written: a failure leaves no file behind.
    const listed = await mcpClient().listMcpTools({ command: opts.command, cwd: io.cwd, timeoutMs: opts.timeoutS * 1000, maxTools: opts.maxTools, maxPages: MCP_MAX_PAGES });
    const file = mcpToolsFileName(opts.name, listed.serverName, opts.command);
    const target = join(outDir, file);
    const text = mcpToolsFile(listed.tools, { command: opts.command, serverName: listed.serverName, serverVersion: listed.serverVersion, pages: listed.pages });
    for (const n of repeatedToolNames(listed.tools)) say(`warning: the server lists the tool ${JSON.stringify(n)} more than once; the tools file will fail the schema rule there`);
    const summary = `${listed.tools.length} tool${listed.tools.length === 1 ? '' : 's'} of ${listed.serverName ?? 'the server'} (${listed.pages} page${listed.pages === 1 ? '' : 's'})`;
    const shown = join(opts.out ?? '.', file);
    // Checked before a dry run returns too, so its exit status says whether the write would go through.
    const existing = lstatSync(target, { throwIfNoEntry: false });
    if (existing?.isSymbolicLink()) throw new Failure(`refusing to write ${shown}: it is a symbolic link`);
    if (existing && !existing.isFile()) throw new Failure(`cannot write ${shown}: something that is not a file is there`);
    if (existing && !opts.force) throw new Failure(`${shown} already exists; pass --force to overwrite it`);
    if (opts.dryRun) {
      io.stdout(`${escapeText(shown)}  ${Buffer.byteLength(text)} bytes\n`);
      say(`dry run: would write ${summary} to ${shown}`);
      return 0;
    }
    await writeFileAtomic(target, text);
    say(`wrote ${summary} to ${shown}`);
    return 0;
  } catch (e) {
    if (isFailure(e)) {
      say(e.message);
      return 2;
    }
    const err = e as NodeJS.ErrnoException;
    say(`${err.code ? `${err.code}: ` : 'internal error: '}${(err.message ?? String(e)).split('\n')[0]}`);
    return 2;
  }
}
