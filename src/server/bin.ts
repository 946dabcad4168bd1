/**
 * The `litmus-language-server` command (bundled to dist/language-server.js): the language server
 * for editors other than VS Code, which install it by npm name (Mason, Helix, Emacs) and start it as
 * yaml-language-server and vscode-json-languageserver are started. With no transport flag it talks
 * LSP on standard input and output; `--stdio`, `--node-ipc` and `--socket=<port>` pass through.
 *
 * It loads the same server bundle as the VS Code extension (dist/server.js), so both editors give
 * the same answers and the package carries the server once.
 */
import { join } from 'node:path';
import pkg from '../../package.json';

const NAME = 'litmus-language-server';
const TRANSPORTS = /^--(stdio|node-ipc|socket=|pipe=)/;

const HELP = `Usage: ${NAME} [--stdio | --node-ipc | --socket=<port> | --pipe=<name>]

The LITMUS Lint language server. Editors start it and talk the Language Server Protocol to it:
on standard input and output by default (or with --stdio), over Node IPC, a socket or a pipe.
It lints *.litmus.json, *.litmus.jsonc, *.litmus.jsonl, *.tools.json, *.env.json,
litmus.config.json, litmus.harness.json and *.scores.json as they are edited.

Options:
  --stdio            talk LSP on standard input and output (the default)
  --node-ipc         talk LSP over Node IPC (when forked by a Node editor)
  --socket=<port>    talk LSP over a TCP socket on this port
  -v, --version      print the version
  -h, --help         print this help
`;

const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${pkg.version}\n`);
} else if (args.includes('--help') || args.includes('-h')) {
  process.stdout.write(HELP);
} else {
  // vscode-languageserver reads its transport from process.argv; without one it would refuse to start.
  if (!args.some((a) => TRANSPORTS.test(a))) process.argv.push('--stdio');
  // A computed path: esbuild leaves it to Node, so the server bundle is loaded, not bundled twice.
  const server = join(__dirname, 'server.js');
  require(server);
}
