/** The benchmark importers: file contents in, LITMUS files out. No file system here; the CLI does the I/O. */
import { AGENTDOJO_MAIN, importAgentDojo } from './agentdojo';
import { AGENTHARM_MAIN, importAgentHarm } from './agentharm';
import { ASB_MAIN, importAsb } from './asb';
import { importInjecAgent, INJECAGENT_MAIN } from './injecagent';
import type { Layout } from './locate';
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

/** The file each benchmark is recognised by: `import` takes its root, the folder that holds it, or the file itself. */
export const LAYOUTS: Readonly<Record<string, Layout>> = {
  agentdojo: { main: AGENTDOJO_MAIN },
  injecagent: { main: INJECAGENT_MAIN },
  agentharm: { main: AGENTHARM_MAIN },
  asb: { main: ASB_MAIN },
};

export { expected, locateSource, type EntryKind, type Layout, type Located } from './locate';

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
