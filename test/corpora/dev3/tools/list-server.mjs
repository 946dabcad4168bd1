// node list-server.mjs <command> [args...]: speaks MCP over stdio (initialize, tools/list) and prints the tools/list result as JSON.
// Dummy credentials and loopback addresses only; used to list the benign servers of this corpus (README.md).
import { spawn } from 'node:child_process';
const [cmd, ...args] = process.argv.slice(2);
const env = { ...process.env, API_KEY: 'dummy', TAVILY_API_KEY: 'tvly-dummy', FIRECRAWL_API_KEY: 'fc-dummy', GITLAB_PERSONAL_ACCESS_TOKEN: 'dummy', CIRCLECI_TOKEN: 'dummy', SENTRY_ACCESS_TOKEN: 'dummy', NOTION_TOKEN: 'dummy', OPENAPI_MCP_HEADERS: '{}', MDB_MCP_CONNECTION_STRING: 'mongodb://127.0.0.1:1', POSTMAN_API_KEY: 'dummy', METABASE_URL: 'http://127.0.0.1:1', METABASE_API_KEY: 'dummy', COOLIFY_BASE_URL: 'http://127.0.0.1:1', COOLIFY_ACCESS_TOKEN: 'dummy', DATAFORSEO_USERNAME: 'x', DATAFORSEO_PASSWORD: 'y', SUPABASE_ACCESS_TOKEN: 'dummy' };
const p = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
let buf = '';
const send = (m) => p.stdin.write(JSON.stringify(m) + '\n');
const timer = setTimeout(() => { console.error('timeout'); p.kill('SIGKILL'); process.exit(2); }, 40000);
p.stdout.on('data', (d) => {
  buf += d;
  let i;
  while ((i = buf.indexOf('\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    let m; try { m = JSON.parse(line); } catch { continue; }
    if (m.id === 1) { send({ jsonrpc: '2.0', method: 'notifications/initialized' }); send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }); }
    else if (m.id === 2) { process.stdout.write(JSON.stringify(m.result ?? m.error)); clearTimeout(timer); p.kill('SIGKILL'); process.exit(0); }
  }
});
p.on('exit', () => { setTimeout(() => process.exit(3), 200); });
send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'list', version: '1' } } });
