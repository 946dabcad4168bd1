import type { CliIo } from './io';

/** `litmus-lint report <paths>`: the suite health summary (issue #4 fills this in). */
export async function runReport(args: string[], io: CliIo): Promise<number> {
  void args;
  io.stderr('litmus-lint report: not available yet\n');
  return 2;
}
