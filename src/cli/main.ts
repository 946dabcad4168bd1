import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import { nodeFileSystem } from '../node/fs';
import type { CliIo } from './io';
import { runCli } from './run';

/** The real process behind the CliIo seam. */
function processIo(): CliIo {
  return {
    fs: nodeFileSystem,
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    async writeFile(path, text) {
      await fsp.mkdir(dirname(path), { recursive: true });
      await fsp.writeFile(path, text, 'utf8');
    },
  };
}

// exitCode rather than exit(): a large report piped to another program is flushed before Node exits.
void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
