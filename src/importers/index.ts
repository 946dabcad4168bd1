/** The benchmark importers: file contents in, LITMUS files out. No file system here; the CLI does the I/O. */
import { importAgentDojo } from './agentdojo';
import { importAgentHarm } from './agentharm';
import { importAsb } from './asb';
import { importInjecAgent } from './injecagent';
import type { Importer } from './types';

export type { ImportOptions, ImportResult, ImportSummary, Importer, OutputFile, SourceReader } from './types';
export { importAgentDojo, importAgentHarm, importAsb, importInjecAgent };

export const IMPORTERS: Readonly<Record<string, Importer>> = {
  agentdojo: importAgentDojo,
  injecagent: importInjecAgent,
  agentharm: importAgentHarm,
  asb: importAsb,
};

export const BENCHMARKS = Object.keys(IMPORTERS);

/** A reader over an in-memory map of relative paths, for tests and for hosts that hold the files. */
export function memoryReader(files: Readonly<Record<string, string>>) {
  const names = Object.keys(files).sort();
  return {
    read: (path: string) => (Object.prototype.hasOwnProperty.call(files, path) ? files[path] : undefined),
    list(dir: string) {
      const base = dir === '' || dir === '.' ? '' : dir.replace(/\/+$/, '') + '/';
      const out = new Set<string>();
      for (const n of names) if (n.startsWith(base)) out.add(n.slice(base.length).split('/')[0]);
      return out.size ? [...out].sort() : undefined;
    },
  };
}
