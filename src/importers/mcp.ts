/**
 * A live MCP server's tools as a LITMUS tools file. An MCP `tools/list` result *is* a tools file
 * (FORMAT §1); this joins its pages and writes the provenance above them. Pure: the CLI
 * (`litmus-lint import mcp`) talks to the server and writes the file.
 */
import { comments, fileName, jsonText, type Json } from './write';

/** Tools past this many are refused unless `--max-tools` says more: no real server lists that many, a runaway one does. */
export const MCP_DEFAULT_MAX_TOOLS = 2000;
/** The most `--max-tools` may say. */
export const MCP_MAX_TOOLS_LIMIT = 100_000;
/** `tools/list` pages past this many are refused: a server that never stops paging is broken. */
export const MCP_MAX_PAGES = 1000;

export interface McpProvenance {
  command: readonly string[];
  serverName?: string;
  serverVersion?: string;
  protocolVersion?: string;
  pages: number;
}

/** The file name for a server's tools: `--name`, else the name the server gives itself, else the command's. */
export function mcpToolsFileName(given: string | undefined, serverName: string | undefined, command: readonly string[]): string {
  const base = given ?? serverName ?? command[0]?.split(/[\\/]/).pop() ?? 'mcp';
  return `${fileName(base.replace(/\.tools\.jsonc?$/i, '') || 'mcp')}.tools.json`;
}

/** Tool names the server lists more than once (a tools file holds each once: the `schema` rule says so). */
export function repeatedToolNames(tools: readonly Json[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const t of tools) {
    const name = t !== null && typeof t === 'object' && !Array.isArray(t) ? t.name : undefined;
    if (typeof name !== 'string') continue;
    if (seen.has(name)) twice.add(name);
    seen.add(name);
  }
  return [...twice];
}

/** Text the server chose, made safe for a comment line: control and bidi characters escaped, length capped. */
function plain(text: string, max = 200): string {
  const s = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return s.length > max ? `${s.slice(0, max - 3)}...` : s;
}

/** The tools file: what was asked of whom in comments (no date, so a re-listing diffs clean), then `{"tools": [...]}`. */
export function mcpToolsFile(tools: readonly Json[], p: McpProvenance): string {
  const server = plain([p.serverName ?? 'an unnamed server', p.serverVersion].filter(Boolean).join(' '));
  const command = plain(p.command.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' '), 400);
  return (
    comments([
      `MCP tools of ${server}${p.protocolVersion ? ` (protocol ${plain(p.protocolVersion, 40)})` : ''}: its tools/list result, ${p.pages} page${p.pages === 1 ? '' : 's'} joined,`,
      `${tools.length} tool${tools.length === 1 ? '' : 's'} as the server sent them. Listed by \`litmus-lint import mcp -- ${command}\`;`,
      'list again to refresh (a live server\'s tools/list result is a tools file: FORMAT §1, docs/import.md).',
    ]) + jsonText({ tools })
  );
}
