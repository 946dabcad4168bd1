import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { blockingFileSystem } from '../../src/node/fs';
import { benchmarkReader } from '../../src/node/source-reader';
import { runCli } from '../../src/cli/run';
import type { CliIo } from '../../src/cli/io';

export const ROOT = resolve(__dirname, '../../..');
export const FIXTURES = join(ROOT, 'test/fixtures/import');

/** A reader over a real folder: the one the CLI reads a benchmark through. */
export const folderReader = benchmarkReader;

/** Every file under a folder as `{ relative path: text }`, paths `/`-separated and sorted. */
export function readTree(root: string, base = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(join(root, base)).sort()) {
    const rel = base ? `${base}/${name}` : name;
    if (statSync(join(root, rel)).isDirectory()) Object.assign(out, readTree(root, rel));
    else out[rel] = readFileSync(join(root, rel), 'utf8');
  }
  return out;
}

/** Runs the CLI in-process and captures what it prints. */
export async function cli(args: string[], cwd = ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    fs: blockingFileSystem,
    cwd,
    env: {},
    isTTY: false,
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    writeFile: async () => {
      throw new Error('import writes through its own temporary folder');
    },
  };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}
