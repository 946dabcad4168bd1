import type { Writable } from 'node:stream';

/**
 * Settles once everything written to the stream so far has left the process: an empty write's
 * callback runs after the writes queued before it (a pipe whose reader lags queues them), with an
 * error too, so a reader that went away never holds the exit.
 */
export function flushed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded) resolve();
    else stream.write('', () => resolve());
  });
}
