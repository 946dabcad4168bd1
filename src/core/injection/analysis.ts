import { allowMatcher } from '../model/config';
import type { ToolModel } from '../model/tools';
import type { Arm, CaseModel, WorkspaceIndex } from '../model/workspace';
import { caseLabels, coverIndex, labelCovers, type Label } from './labels';
import { scanTool, type PayloadHit } from './scan';
import { sharedVerdicts, type VerdictCache } from './verdicts';
import { pushTo, sameItems } from '../text/multimap';
import type { JsonPath } from '../text/types';
import { overridesOf, type EnvironmentFile } from '../model/environment';
import { normalizeUri } from '../model/uri';
import { environmentAffinity, replacedHit, sameTools, scanCaseSurfaces, scanEnvironmentFile, type SurfaceHit } from './surfaces';

/** A payload on any surface: in a tool schema, or in data (tool outputs, environments, the task). */
export type AnyHit = PayloadHit | SurfaceHit;

export function isSurfaceHit(hit: AnyHit): hit is SurfaceHit {
  return 'surface' in hit;
}

/** The detector's result for a whole workspace, computed once per lint and shared by three rules. */
export interface InjectionAnalysis {
  hits: PayloadHit[];
  /** Shared with later analyses while the tools stay the same: read it, never change it. */
  hitsByTool: ReadonlyMap<ToolModel, PayloadHit[]>;
  labels: Label[];
  /** Labels that name each hit, on every surface. Shared with later analyses while the labels and hits stay the same: read it, never change it. */
  labelsOf: ReadonlyMap<AnyHit, readonly Label[]>;
  usersOf(tool: ToolModel): { case: CaseModel; id?: string; arm?: Arm }[];
  /** Payloads of the data surfaces (FORMAT §3a): environment files' first, then each case's own. */
  surfaceHits: SurfaceHit[];
  /** Each environment file's payloads, by its document URI (scanned once per file, shared by its users). */
  envHits: Map<string, SurfaceHit[]>;
  /** The cases that reference each environment file (normalised URI). */
  envUsers: Map<string, CaseModel[]>;
  /** Each case's payloads in its own data surfaces. */
  caseHits: Map<CaseModel, SurfaceHit[]>;
  /**
   * Strings of each case's environment file that are payloads for that case alone: plain requests
   * for what one of its tools does (tool affinity), where its overrides did not replace them.
   */
  envCaseHits: Map<CaseModel, SurfaceHit[]>;
  /**
   * The cases a surface payload counts for: the case whose own field holds it, or the users of its
   * environment file whose effective environment still holds it (their overrides did not replace it).
   */
  holdersOf(hit: SurfaceHit): CaseModel[];
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

/**
 * The tool-schema files' part of an analysis: their tools' hits in order. It depends on those files
 * and their configs alone, so it is kept while the index's map of tool files (the same object until
 * a tool file changes) and its config resolution stand. An edit of a case file in a workspace of
 * 2,000 tools would otherwise look their kept scans up one by one on every keystroke.
 */
interface ToolFileScans {
  configFor: WorkspaceIndex['configFor'];
  hits: readonly PayloadHit[];
  hitsByTool: ReadonlyMap<ToolModel, PayloadHit[]>;
  /**
   * The last analysis's inline tools, in order, and the hits with theirs added. Every analysis sees
   * every inline tool of the workspace, and an edit rarely changes one: copying the map of 2,000
   * tools to add them was most of an edit's analysis.
   */
  withInline?: { tools: readonly ToolModel[]; hits: readonly PayloadHit[]; hitsByTool: ReadonlyMap<ToolModel, PayloadHit[]> };
}

const toolFileScans = new WeakMap<WorkspaceIndex['toolFiles'], ToolFileScans>();

/**
 * The detector's analysis of a workspace. `surfacesOf`, when given, names the documents whose
 * cases' own surfaces (and environment affinity) are scanned; the other cases still count as
 * users, holders and labellers. The incremental linter passes the documents whose findings it
 * recomputes: no other document's findings read a case's own surface hits.
 */
/** A config's scan options, made once per resolved config object. */
const toolOptions = new WeakMap<object, { scanDescriptions: boolean; allowed: (t: string) => boolean; key: string }>();

/** A tool's payloads under its own config: scanned once per tool model and options, whoever asks. */
export function toolHits(index: Pick<WorkspaceIndex, 'configFor'>, tool: ToolModel): PayloadHit[] {
  const config = index.configFor(tool.uri);
  let opts = toolOptions.get(config);
  if (!opts) {
    const { scanDescriptions, allow } = config.injection;
    opts = { scanDescriptions, allowed: allowMatcher(allow), key: JSON.stringify([scanDescriptions, allow]) };
    toolOptions.set(config, opts);
  }
  const cached = scans.get(tool);
  if (cached && cached.options === opts.key) return cached.hits;
  const found = scanTool(tool, { scanDescriptions: opts.scanDescriptions, allowed: opts.allowed, verdicts: sharedVerdicts });
  scans.set(tool, { options: opts.key, hits: found });
  return found;
}

export function analyseInjection(index: WorkspaceIndex, surfacesOf?: (uri: string) => boolean): InjectionAnalysis {
  const verdicts = sharedVerdicts;
  const scanned = (tool: ToolModel): PayloadHit[] => toolHits(index, tool);
  let files = toolFileScans.get(index.toolFiles);
  if (!files || files.configFor !== index.configFor) {
    const fileHits: PayloadHit[] = [];
    const byTool = new Map<ToolModel, PayloadHit[]>();
    for (const file of index.toolFiles.values()) {
      for (const tool of file.tools) {
        const found = scanned(tool);
        byTool.set(tool, found);
        for (const h of found) fileHits.push(h);
      }
    }
    files = { configFor: index.configFor, hits: fileHits, hitsByTool: byTool };
    toolFileScans.set(index.toolFiles, files);
  }
  const inline: ToolModel[] = [];
  for (const c of index.cases) for (const use of c.tools) if (use.inline && use.tool) inline.push(use.tool);
  if (!files.withInline || !sameTools(files.withInline.tools, inline)) {
    const withHits = files.hits.slice();
    const byTool = new Map(files.hitsByTool);
    for (const tool of inline) {
      const found = scanned(tool);
      byTool.set(tool, found);
      for (const h of found) withHits.push(h);
    }
    files.withInline = { tools: inline, hits: withHits, hitsByTool: byTool };
  }
  // A list of the caller's own; the map is shared (read-only).
  const hits = files.withInline.hits.slice();
  const hitsByTool = files.withInline.hitsByTool;

  // Data surfaces. Environment files are scanned whether or not a case uses them, once per file.
  const optsFor = (uri: string) => {
    const config = index.configFor(uri);
    let o = surfaceOptions.get(config);
    if (!o) {
      const { allow } = config.injection;
      surfaceOptions.set(config, (o = { allowed: allowMatcher(allow), key: JSON.stringify(allow), verdicts }));
    }
    return o;
  };
  const surfaceOptions = new Map<unknown, { allowed: (t: string) => boolean; key: string; verdicts: VerdictCache }>();
  const surfaceHits: SurfaceHit[] = [];
  const envHits = new Map<string, SurfaceHit[]>();
  for (const file of index.envFiles.values()) {
    const found = scanEnvironmentFile(file, optsFor(file.doc.uri));
    envHits.set(file.doc.uri, found);
    for (const h of found) surfaceHits.push(h);
  }
  const envUsers = new Map<string, CaseModel[]>();
  const caseHits = new Map<CaseModel, SurfaceHit[]>();
  const envCaseHits = new Map<CaseModel, SurfaceHit[]>();
  // Thousands of cases share one environment file: its URI is normalised once for a run of them.
  let lastEnv: EnvironmentFile | undefined;
  let lastEnvUri = '';
  for (const c of index.cases) {
    const env = c.environment;
    const scanned = !surfacesOf || surfacesOf(c.doc.uri);
    if (env?.file && !env.problem) {
      if (env.file !== lastEnv) {
        lastEnv = env.file;
        lastEnvUri = normalizeUri(env.file.doc.uri);
      }
      pushTo(envUsers, lastEnvUri, c);
      if (!scanned) continue;
      const mine = environmentAffinity(env.file, c, optsFor(env.file.doc.uri));
      const live = mine.length ? mine.filter((h) => !replacedHit(h, overridesOf(c.value, c.path))) : mine;
      if (live.length) envCaseHits.set(c, live);
    }
    if (!scanned) continue;
    const own = scanCaseSurfaces(c, optsFor(c.doc.uri));
    if (!own.length) continue;
    caseHits.set(c, own);
    for (const h of own) surfaceHits.push(h);
  }
  const holders = new Map<SurfaceHit, CaseModel[]>();
  const holdersOf = (hit: SurfaceHit): CaseModel[] => {
    if (hit.case) return [hit.case];
    let list = holders.get(hit);
    if (!list) {
      list = (envUsers.get(normalizeUri(hit.uri)) ?? []).filter((c) => !replacedHit(hit, overridesOf(c.value, c.path)));
      holders.set(hit, list);
    }
    return list;
  };

  const labels: Label[] = [];
  for (const c of index.cases) for (const l of caseLabels(index, c)) labels.push(l);
  const labelsOf = labelsOfHits(labels, hits, surfaceHits);

  return {
    hits,
    hitsByTool,
    labels,
    labelsOf,
    usersOf: (tool) => (index.toolUsers.get(tool) ?? []).map((u) => ({ case: u.case, id: u.case.id, arm: u.case.arm })),
    surfaceHits,
    envHits,
    envUsers,
    caseHits,
    envCaseHits,
    holdersOf,
  };
}

/**
 * The last data-surface hits' cover index. A case's surface hits are the same objects while its scan
 * stands (surfaces.ts), so an edit that changes no case's surfaces (a tool file edited) finds the
 * same list: an InjecAgent suite of two thousand labelled tool outputs spent a tenth of such an
 * edit filing them again, path step by path step.
 */
let lastSurfaceCover: { hits: readonly SurfaceHit[]; covered: (target: { uri: string; root: number; path: JsonPath }) => readonly SurfaceHit[] } | undefined;

function surfaceCover(hits: readonly SurfaceHit[]): (target: { uri: string; root: number; path: JsonPath }) => readonly SurfaceHit[] {
  if (lastSurfaceCover && sameItems(lastSurfaceCover.hits, hits)) return lastSurfaceCover.covered;
  const covered = coverIndex(hits);
  lastSurfaceCover = { hits, covered };
  return covered;
}

/** The last analysis's labels of each hit, with the lists they were read from. */
let lastLabelsOf: { labels: readonly Label[]; hits: readonly PayloadHit[]; surfaceHits: readonly SurfaceHit[]; labelsOf: Map<AnyHit, Label[]> } | undefined;

/**
 * The labels that name each hit. They follow from the lists alone, and an edit that changes no
 * label and no hit (a tool file whose payloads stand, a case without either) finds the same lists:
 * the last answer is given again (shared, read-only) rather than two thousand labels looked up
 * and filed again.
 */
function labelsOfHits(labels: readonly Label[], hits: readonly PayloadHit[], surfaceHits: readonly SurfaceHit[]): Map<AnyHit, Label[]> {
  const last = lastLabelsOf;
  if (last && sameItems(last.labels, labels) && sameItems(last.hits, hits) && sameItems(last.surfaceHits, surfaceHits)) return last.labelsOf;
  const labelsOf = new Map<AnyHit, Label[]>();
  if (labels.some((l) => l.target)) {
    const inTools = coverIndex<AnyHit>(hits);
    const inSurfaces = surfaceCover(surfaceHits);
    for (const label of labels) {
      if (!label.target) continue;
      for (const hit of inTools(label.target)) pushTo(labelsOf, hit, label);
      for (const hit of inSurfaces(label.target)) pushTo(labelsOf, hit, label);
    }
  }
  lastLabelsOf = { labels, hits, surfaceHits, labelsOf };
  return labelsOf;
}

/** The shared analysis of this lint run (`given`: one the caller made, kept as the run's). */
export function injectionAnalysis(ctx: { index: WorkspaceIndex; memo<T>(key: string, compute: () => T): T }, given?: InjectionAnalysis): InjectionAnalysis {
  return ctx.memo('injection', () => given ?? analyseInjection(ctx.index));
}


/** The tools a label's target may lie in: the case's inline tools, or the tools of the file it names. */
export function labelTools(index: Pick<WorkspaceIndex, 'toolFiles'>, label: Label): readonly ToolModel[] {
  const t = label.target;
  if (!t) return [];
  const c = label.case;
  if (t.uri === c.doc.uri && t.root === c.root) {
    const inline: ToolModel[] = [];
    for (const use of c.tools) if (use.inline && use.tool) inline.push(use.tool);
    return inline;
  }
  return index.toolFiles.get(normalizeUri(t.uri))?.tools ?? [];
}

/**
 * Whether a label stands (FORMAT §4): it names text of a data surface (taken on trust there), or a
 * payload the detector finds in a tool schema. Any other label is stale, and no rule may read it as
 * naming an attack. Asked of the label's own target only (its tools' scans, kept per tool), so a
 * rule that reads labels need not run the workspace's analysis.
 */
export function labelStands(index: Pick<WorkspaceIndex, 'toolFiles' | 'configFor'>, label: Label): boolean {
  const t = label.target;
  if (!t || label.offSurface) return false;
  if (label.dataSurface) return label.holdsStrings === true;
  for (const tool of labelTools(index, label)) for (const hit of toolHits(index, tool)) if (labelCovers(t, hit)) return true;
  return false;
}
