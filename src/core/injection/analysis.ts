import { allowMatcher } from '../config';
import type { ToolModel } from '../tools';
import type { Arm, CaseModel, WorkspaceIndex } from '../workspace';
import { labelCovers, labelStrings, resolveLabel, type Label } from './labels';
import { scanTool, type PayloadHit } from './scan';

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

export function analyseInjection(index: WorkspaceIndex): InjectionAnalysis {
  const tools = allTools(index);
  const toolNames = new Map<string, Set<string>>();
  for (const t of tools) {
    const files = toolNames.get(t.name);
    if (files) files.add(t.uri);
    else toolNames.set(t.name, new Set([t.uri]));
  }
  const optionsByConfig = new Map<unknown, { scanDescriptions: boolean; allowed: (t: string) => boolean }>();
  const hits: PayloadHit[] = [];
  const hitsByTool = new Map<ToolModel, PayloadHit[]>();
  for (const tool of tools) {
    const config = index.configFor(tool.uri);
    let opts = optionsByConfig.get(config);
    if (!opts) {
      opts = { scanDescriptions: config.injection.scanDescriptions, allowed: allowMatcher(config.injection.allow) };
      optionsByConfig.set(config, opts);
    }
    const found = scanTool(tool, { ...opts, toolNames });
    hitsByTool.set(tool, found);
    hits.push(...found);
  }

  const labels: Label[] = [];
  for (const c of index.cases) for (const l of labelStrings(c)) labels.push(resolveLabel(index, c, l.path, l.text));
  const labelsOf = new Map<PayloadHit, Label[]>();
  for (const label of labels) {
    if (!label.target) continue;
    for (const hit of hits) {
      if (!labelCovers(label.target, hit)) continue;
      const list = labelsOf.get(hit);
      if (list) list.push(label);
      else labelsOf.set(hit, [label]);
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
