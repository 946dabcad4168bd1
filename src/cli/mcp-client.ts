import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, LATEST_PROTOCOL_VERSION, ListToolsResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Json } from '../importers/write';

/**
 * Talks to a stdio MCP server with the official TypeScript SDK as the client: start it, initialize,
 * page through tools/list, stop it. Everything that can go wrong with a server someone else wrote
 * ends in one McpListFailure whose message says what happened, within one deadline for the whole
 * exchange. The build makes this module a bundle of its own (dist/mcp-client.js, with the SDK),
 * which the CLI loads only for `import mcp`: a lint never pays for the SDK.
 */

/** A failure the user can act on: its message is the one line the CLI prints. Told apart by name, across bundles. */
export class McpListFailure extends Error {
  override readonly name = 'McpListFailure';
}

export interface McpListRequest {
  command: readonly string[];
  cwd: string;
  timeoutMs: number;
  maxTools: number;
  maxPages: number;
}

export interface McpListed {
  tools: Json[];
  pages: number;
  serverName?: string;
  serverVersion?: string;
}

/** One JSON-RPC message on the server's standard output may be at most this long. */
export const MCP_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** How much of the server's standard error is kept to explain a failure. */
const STDERR_TAIL = 2048;

/** Why the exchange stopped, when it was us who stopped it. */
class Stop extends Error {}

export async function listMcpTools(req: McpListRequest): Promise<McpListed> {
  const [command, ...args] = req.command;
  const shown = JSON.stringify(command);
  const transport = new StdioClientTransport({ command, args, cwd: req.cwd, stderr: 'pipe', maxBufferSize: MCP_MAX_MESSAGE_BYTES });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  const lastWords = () => {
    const t = stderr.trim().split(/\r?\n/).slice(-3).join(' | ');
    return t ? `; its standard error ends: ${JSON.stringify(t.length > 300 ? '...' + t.slice(-297) : t)}` : '';
  };
  const client = new Client({ name: 'litmus-lint', version: LATEST_PROTOCOL_VERSION }, { capabilities: {} });
  const deadline = new AbortController();
  let step = 'initialize';
  const timer = setTimeout(() => deadline.abort(new Stop(`no answer to ${step} within ${req.timeoutMs / 1000} s (--timeout); the server was stopped`)), req.timeoutMs);
  // A line that is not JSON-RPC, or one past the size bound: the SDK reports it here and goes on
  // reading; we stop at the first, since nothing after it can be trusted.
  client.onerror = (e: Error) => {
    if (deadline.signal.aborted) return;
    const err = e as NodeJS.ErrnoException;
    if (typeof err.syscall === 'string' && err.syscall.startsWith('spawn')) {
      deadline.abort(new Stop(`cannot start ${shown}: ${err.code === 'ENOENT' ? 'no such command (not found on PATH)' : firstLine(err)}`));
    } else if (err.code === 'EPIPE' || err.code === 'ECONNRESET') {
      // The server went away while we wrote to it: the close that follows says so.
    } else {
      deadline.abort(new Stop(`the server wrote something that is not a JSON-RPC message on its standard output during ${step} (${firstLine(e)})${lastWords()}`));
    }
  };
  const options = () => ({ signal: deadline.signal, timeout: Math.max(1, req.timeoutMs) });
  const explain = (e: unknown): McpListFailure => {
    if (deadline.signal.aborted && deadline.signal.reason instanceof Stop) return new McpListFailure(deadline.signal.reason.message);
    if (e instanceof Stop) return new McpListFailure(e.message);
    if (e instanceof McpListFailure) return e;
    const err = e as NodeJS.ErrnoException;
    if (typeof err?.syscall === 'string' && err.syscall.startsWith('spawn')) return new McpListFailure(`cannot start ${shown}: ${err.code === 'ENOENT' ? 'no such command (not found on PATH)' : firstLine(err)}`);
    if (e instanceof McpError && e.code === ErrorCode.ConnectionClosed) return new McpListFailure(`the server closed the connection during ${step} (it exited, or closed its standard output)${lastWords()}`);
    if (e instanceof McpError && e.code === ErrorCode.RequestTimeout) return new McpListFailure(`no answer to ${step} within ${req.timeoutMs / 1000} s (--timeout); the server was stopped`);
    if (e instanceof McpError) return new McpListFailure(`the server answered ${step} with an error: ${firstLine(e)}`);
    const issue = zodIssue(e);
    if (issue) return new McpListFailure(`the server's answer to ${step} is not what MCP says it holds: ${issue}; nothing written`);
    return new McpListFailure(`${step} failed: ${firstLine(e)}${lastWords()}`);
  };
  try {
    // The SDK starts the process inside connect(); a command that cannot start rejects there.
    step = 'initialize';
    await client.connect(transport, options());
    const info = client.getServerVersion();
    if (!client.getServerCapabilities()?.tools) {
      throw new McpListFailure(`${info?.name ?? 'the server'} declares no tools capability in its initialize answer: it has no tools to list`);
    }
    const tools: Json[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    let pages = 0;
    do {
      if (pages >= req.maxPages) throw new McpListFailure(`the server is still paging after ${req.maxPages} tools/list pages; nothing written`);
      step = pages === 0 ? 'tools/list' : `tools/list page ${pages + 1}`;
      const page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ListToolsResultSchema, options());
      pages++;
      for (const tool of page.tools as unknown as Json[]) tools.push(tool);
      if (tools.length > req.maxTools) throw new McpListFailure(`the server lists more than ${req.maxTools} tools (--max-tools); nothing written`);
      cursor = page.nextCursor;
      if (cursor !== undefined) {
        if (cursors.has(cursor)) throw new McpListFailure(`the server sent the tools/list cursor ${JSON.stringify(cursor.slice(0, 60))} twice: its pages go round in a loop; nothing written`);
        cursors.add(cursor);
      }
    } while (cursor !== undefined);
    return { tools, pages, serverName: info?.name, serverVersion: info?.version };
  } catch (e) {
    throw explain(e);
  } finally {
    clearTimeout(timer);
    // Stops the server: closes its standard input, then SIGTERM, then SIGKILL (the SDK's way).
    await client.close().catch(() => undefined);
  }
}

/** The first problem a schema check found in an answer (the SDK checks each answer with zod), as `path: message`. */
function zodIssue(e: unknown): string | undefined {
  const issues = (e as { issues?: unknown })?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const first = issues[0] as { path?: unknown[]; message?: unknown };
  const path = Array.isArray(first.path) ? first.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') : '';
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return `${path || 'the answer'}: ${String(first.message ?? 'invalid')}${more}`.slice(0, 300);
}

function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  const line = m.split('\n')[0];
  return line.length > 200 ? `${line.slice(0, 197)}...` : line;
}
