import { promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import { blockingFileSystem } from '../node/fs';
import type { CliIo } from './io';
import { runCli } from './run';

/** The real process behind the CliIo seam. */
function processIo(): CliIo {
  return {
    fs: blockingFileSystem,
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    async writeFile(path, text) {
      await fsp.mkdir(dirname(path), { recursive: true });
      // The reader drops a byte-order mark; a file that had one keeps it when --fix rewrites it.
      const head = await fsp.readFile(path).then((b) => b.subarray(0, 3), () => undefined);
      const bom = head !== undefined && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf && !text.startsWith('\ufeff');
      await fsp.writeFile(path, bom ? '\ufeff' + text : text, 'utf8');
    },
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

// A reader that stops early (`litmus-lint ... | head`) is not a failure of the lint.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

// exitCode rather than exit(): a large report piped to another program is flushed before Node exits.
void runCli(process.argv.slice(2), processIo()).then((code) => {
  process.exitCode = code;
});
