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
 * unchanged). A scan reads only the tool itself and its config, never the rest of the workspace,
 * so a change elsewhere never rescans it.
 */
interface CachedScan {
  options: string;
  hits: PayloadHit[];
}

const scans = new WeakMap<ToolModel, CachedScan>();

export function analyseInjection(index: WorkspaceIndex): InjectionAnalysis {
  const tools = allTools(index);
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
    if (cached && cached.options === opts.key) {
      found = cached.hits;
    } else {
      found = scanTool(tool, { scanDescriptions: opts.scanDescriptions, allowed: opts.allowed, verdicts });
      scans.set(tool, { options: opts.key, hits: found });
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
