/**
 * The language server's Node entry point (bundled to dist/server.js). The transport comes from the
 * command line: `--stdio` for most editors, `--node-ipc` when VS Code forks it, `--socket=<port>`.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { nodeFileSystem } from '../node/fs';
import { useShortRunInlining } from '../node/inlining';
import { startServer } from './server';

// The first lint of a folder is a burst of seconds, as a CLI run is (src/node/inlining.ts).
useShortRunInlining();
startServer(createConnection(ProposedFeatures.all), nodeFileSystem);
