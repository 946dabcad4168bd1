import { once } from 'node:events';
import { blockingFileSystem } from '../node/fs';
import { decodeUtf8, notUtf8Error } from '../node/utf8';
import { flushed } from './flushed';
import type { CliIo } from './io';
import { runCli } from './run';
import { writeFileAtomic } from './write';

/** The real process behind the CliIo seam. */
function processIo(): CliIo {
  return {
    fs: blockingFileSystem,
    cwd: process.cwd(),
    env: process.env,
    isTTY: Boolean(process.stdout.isTTY),
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    // Past its high-water mark the stream queues: the caller may wait for it to drain (CliIo.stdout).
    stdout: (text) => (process.stdout.write(text) ? undefined : once(process.stdout, 'drain').then(() => undefined)),
    stderr: (text) => void process.stderr.write(text),
    // A temporary file and a rename: a full disk never leaves a half-written suite file.
    writeFile: writeFileAtomic,
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      const decoded = decodeUtf8(Buffer.concat(chunks));
      if (!decoded.ok) throw notUtf8Error('standard input', decoded);
      return decoded.text;
    },
  };
}

// A reader that stops early (`litmus-lint ... | head`) is not a failure of the lint.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw e;
});

// The report is out before the process ends: exit() would cut off a report still queued for a
// slow reader, so it waits for both streams. It does not wait for Node's natural exit either, which
// first frees every page of the lint's heap, one by one (~20 ms at 10,000 cases).
void runCli(process.argv.slice(2), processIo()).then(async (code) => {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
});
