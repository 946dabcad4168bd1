import { allowMatcher } from '../model/config';
import type { ToolModel } from '../model/tools';
import type { Arm, CaseModel, WorkspaceIndex } from '../model/workspace';
import { labelCovers, labelStrings, resolveLabel, type Label } from './labels';
import { scanTool, type PayloadHit } from './scan';
import { VerdictCache } from './verdicts';
import { pushTo } from '../text/multimap';

/** The detector's result for a whole workspace, computed once per lint and shared by three rules. */
export interface InjectionAnalysis {
  hits: PayloadHit[];
  hitsByTool: Map<ToolModel, PayloadHit[]>;
  labels: Label[];
  /** Labels that name each hit. */
  labelsOf: Map<PayloadHit, Label[]>;
  usersOf(tool: ToolModel): { case: CaseModel; id?: string; arm?: Arm }[];
}

/** Every tool once: those of tool-schema files, then inline ones. */
export function allTools(index: WorkspaceIndex): ToolModel[] {
  const out: ToolModel[] = [];
  for (const file of index.toolFiles.values()) out.push(...file.tools);
  for (const c of index.cases) for (const use of c.tools) if (use.inline && use.tool) out.push(use.tool);
  return out;
}

/**
 * A tool's scan, kept while its ToolModel object lives (the same object while its file is
 * unchanged). The scan reads the workspace's tool-name table only by name, so the result records
 * which names it looked up and what they said, and stands while those answers stay the same: a
 * rename elsewhere rescans only the tools whose text mentions the old or new name.
 */
interface CachedScan {
  options: string;
  nonEmpty: boolean;
  /** Each name looked up, with the files that defined it then (none: empty). */
  lookups: Map<string, string[]>;
  /** The scan walked the whole table: valid only while the whole table is the same. */
  table?: string;
  hits: PayloadHit[];
}

const scans = new WeakMap<ToolModel, CachedScan>();

/** Read past the recording below, so checking a cached scan records nothing. */
function filesOf(toolNames: Map<string, Set<string>>, name: string): Set<string> | undefined {
  return Map.prototype.get.call(toolNames, name) as Set<string> | undefined;
}

function sameFiles(now: Set<string> | undefined, then: readonly string[]): boolean {
  if (!now) return then.length === 0;
  if (now.size !== then.length) return false;
  for (const f of then) if (!now.has(f)) return false;
  return true;
}

/**
 * The name table, instrumented: lookups made while a tool is scanned are recorded into `sink`.
 * Enumerating it marks the scan as depending on the whole table.
 */
function recordingTable(toolNames: Map<string, Set<string>>): { table: Map<string, Set<string>>; begin(): Map<string, string[]>; walkedAll(): boolean } {
  let sink = new Map<string, string[]>();
  let all = false;
  const get = Map.prototype.get;
  const note = (name: unknown): void => {
    if (typeof name === 'string' && !sink.has(name)) sink.set(name, [...(filesOf(toolNames, name) ?? [])]);
  };
  const table = toolNames;
  Object.defineProperties(table, {
    get: { value: (name: string) => (note(name), get.call(toolNames, name)) },
    has: { value: (name: string) => (note(name), Map.prototype.has.call(toolNames, name)) },
  });
  for (const m of ['forEach', 'keys', 'values', 'entries', Symbol.iterator] as const) {
    const original = Map.prototype[m] as (...args: unknown[]) => unknown;
    Object.defineProperty(table, m, { value: (...args: unknown[]) => ((all = true), original.apply(toolNames, args)) });
  }
  return {
    table,
    begin() {
      sink = new Map();
      all = false;
      return sink;
    },
    walkedAll: () => all,
  };
}

function everyLookup(lookups: Map<string, string[]>, test: (name: string, files: string[]) => boolean): boolean {
  for (const [name, files] of lookups) if (!test(name, files)) return false;
  return true;
}

export function analyseInjection(index: WorkspaceIndex): InjectionAnalysis {
  const tools = allTools(index);
  const toolNames = new Map<string, Set<string>>();
  for (const t of tools) {
    const files = toolNames.get(t.name);
    if (files) files.add(t.uri);
    else toolNames.set(t.name, new Set([t.uri]));
  }
  let tableKey: string | undefined;
  const wholeTable = (): string => (tableKey ??= [...Map.prototype.entries.call(toolNames)].map(([n, f]) => n + '\u0000' + [...f].sort().join('\n')).sort().join('\u0001'));
  const recorder = recordingTable(toolNames);
  const nonEmpty = toolNames.size > 0;
  const optionsByConfig = new Map<unknown, { scanDescriptions: boolean; allowed: (t: string) => boolean; key: string }>();
  const verdicts = new VerdictCache();
  const hits: PayloadHit[] = [];
  const hitsByTool = new Map<ToolModel, PayloadHit[]>();
  for (const tool of tools) {
    const config = index.configFor(tool.uri);
    let opts = optionsByConfig.get(config);
    if (!opts) {
      const { scanDescriptions, allow } = config.injection;
      opts = { scanDescriptions, allowed: allowMatcher(allow), key: JSON.stringify([scanDescriptions, allow]) };
      optionsByConfig.set(config, opts);
    }
    const cached = scans.get(tool);
    let found: PayloadHit[];
    if (
      cached &&
      cached.options === opts.key &&
      cached.nonEmpty === nonEmpty &&
      (cached.table === undefined || cached.table === wholeTable()) &&
      everyLookup(cached.lookups, (name, files) => sameFiles(filesOf(toolNames, name), files))
    ) {
      found = cached.hits;
    } else {
      const lookups = recorder.begin();
      found = scanTool(tool, { scanDescriptions: opts.scanDescriptions, allowed: opts.allowed, toolNames: recorder.table, verdicts });
      scans.set(tool, { options: opts.key, nonEmpty, lookups: new Map(lookups), table: recorder.walkedAll() ? wholeTable() : undefined, hits: found });
    }
    hitsByTool.set(tool, found);
    for (const h of found) hits.push(h);
  }

  const labels: Label[] = [];
  for (const c of index.cases) for (const l of labelStrings(c)) labels.push(resolveLabel(index, c, l.path, l.text));
  // A label only ever covers hits in the file it names: compare within that file, not pairwise.
  const hitsByUri = new Map<string, PayloadHit[]>();
  for (const hit of hits) {
    pushTo(hitsByUri, hit.uri, hit);
  }
  const labelsOf = new Map<PayloadHit, Label[]>();
  for (const label of labels) {
    if (!label.target) continue;
    for (const hit of hitsByUri.get(label.target.uri) ?? []) {
      if (!labelCovers(label.target, hit)) continue;
      pushTo(labelsOf, hit, label);
    }
  }

  return {
    hits,
    hitsByTool,
    labels,
    labelsOf,
    usersOf: (tool) => (index.toolUsers.get(tool) ?? []).map((u) => ({ case: u.case, id: u.case.id, arm: u.case.arm })),
  };
}

/** The shared analysis of this lint run. */
export function injectionAnalysis(ctx: { index: WorkspaceIndex; memo<T>(key: string, compute: () => T): T }): InjectionAnalysis {
  return ctx.memo('injection', () => analyseInjection(ctx.index));
}
