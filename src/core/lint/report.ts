import { nodeAt } from '../text/location';
import type { LintDiagnostic } from './lint';
import { escapeText, quote } from '../text/escape';
import { markdownInline } from '../text/markdown';
import { neutraliseWorkflowCommands, neutraliseWorkflowCommandsInJson } from '../text/workflow';
import { countHints, formatCount, hintSummaryLine, type HintCount } from './hints';
import { isJsonObject } from '../model/canonical';
import { rootValue } from '../model/document';
import { RULES } from '../rules/registry';
import { breachDisagrees } from '../rules/scope-contradiction';
import type { ToolModel } from '../model/tools';
import { displayPath } from '../model/uri';
import type { Arm, CaseModel, WorkspaceIndex } from '../model/workspace';
import { pushTo } from '../text/multimap';
import { analyseInjection } from '../injection/analysis';

/**
 * The suite health summary behind `litmus-lint report` and the editor's "show suite report":
 * what the suite holds, what is paired, which instances each rule would quarantine, and whether
 * the aggregate score can be trusted. It follows the LITMUS reference checks: a case with any
 * scenario-validity finding is quarantined whatever its severity (`admit_for_scoring` rejects it),
 * and a family with a missing arm or a mixed `requires_tool_scope_breach` is quarantined whole
 * (`validate_litmus_suite` rejects it). Pure: it reads the index and the diagnostics of one lint run.
 */

export interface FamilySummary {
  family: string;
  adversarial: number;
  benign: number;
  /** Adversarial cases per probe. */
  probes: Record<string, number>;
  /** Arms with no case in this family. */
  missing: Arm[];
}

export interface TwinPair {
  adversarial: string;
  benign: string;
  family?: string;
}

export interface QuarantineEntry {
  rule: string;
  /** Instance ids (or `path:line` for a case without one), sorted. */
  instances: string[];
}

/** An error that is not about one case: a harness, score report, config or unreadable file. */
export interface SuiteError {
  rule: string;
  file: string;
  line: number;
  message: string;
}

/** The latest scored run of a score report: the aggregate never stands without the benign score. */
export interface ScoreSummary {
  file: string;
  suite?: string;
  run?: string;
  aggregate?: number;
  /** Absent when the run reports none (aggregate-contamination flags that). */
  benign_score?: number;
}

export interface SuiteReport {
  files: number;
  cases: number;
  arms: { adversarial: number; benign: number; unknown: number };
  /** Adversarial cases per probe; `(none)` counts adversarial cases without a probe. */
  probes: Record<string, number>;
  families: FamilySummary[];
  familiesMissingArm: { family: string; missing: Arm[] }[];
  /** Families whose cases disagree on requires_tool_scope_breach: invalid whole. */
  familiesMixedBreach: string[];
  twins: {
    pairs: TwinPair[];
    /** Adversarial cases that pair with no benign case. */
    unpairedAdversarial: number;
    /** Benign cases no adversarial case pairs with. */
    unpairedBenign: number;
  };
  diagnostics: { error: number; warning: number; info: number; hint: number };
  /** The hints by what they are (the text and Markdown reports count them instead of listing them). */
  hints: HintCount[];
  /** Findings in-source suppressions accept (FORMAT §11), when the lint kept them; they count nowhere else. */
  suppressed: number;
  /**
   * By rule, the cases to drop from scoring: those an error of the rule touches (directly or through
   * a tool they use), those with a scenario-validity finding of any severity, and every case of a
   * family with a missing arm (`missing-arm`) or a mixed breach flag (`scope-contradiction`).
   */
  quarantine: QuarantineEntry[];
  /** Distinct instances in `quarantine`. */
  quarantined: number;
  suiteErrors: SuiteError[];
  /** The latest scored run of each score report in the workspace, aggregate beside benign score. */
  scores: ScoreSummary[];
  /** Benign cases an author wrote, and those a converter derived (`"x-derived": true`): derived controls need a review. */
  controls: { authored: number; derived: number };
  /**
   * Payload labels (`injection_field`) the detector confirms (it finds the payload they name), and
   * those it trusts without confirming: on data surfaces a label that resolves to text is taken at
   * its word (FORMAT §4).
   */
  labels: { confirmed: number; trusted: number };
  /**
   * `reasons` make the aggregate untrusted; `notes` are what a reader should still review (derived
   * controls, labels taken on trust). `line` is the one-line verdict.
   */
  verdict: { trusted: boolean; reasons: string[]; notes: string[]; line: string };
}

export type ReportFormat = 'text' | 'json' | 'markdown';

interface Span {
  offset: number;
  end: number;
}

/** Sorted spans per file, found by binary search: diagnostics map to cases in O(log n) each. */
function spanFinder<T>(entries: { uri: string; span: Span; item: T }[]): (uri: string, offset: number) => T | undefined {
  const byUri = new Map<string, { span: Span; item: T }[]>();
  for (const e of entries) {
    pushTo(byUri, e.uri, e);
  }
  for (const list of byUri.values()) list.sort((a, b) => a.span.offset - b.span.offset);
  return (uri, offset) => {
    const list = byUri.get(uri);
    if (!list) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].span.offset <= offset) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    // Spans do not overlap (cases never nest; tools never nest), so the last start before the offset is the one.
    if (best < 0) return undefined;
    const hit = list[best];
    return offset < hit.span.end ? hit.item : undefined;
  };
}

/** The case whose object holds an offset of a file, for hosts that place diagnostics in cases. */
export function caseFinder(index: WorkspaceIndex): (uri: string, offset: number) => CaseModel | undefined {
  return spanFinder(
    index.cases.flatMap((c) => {
      const span = spanOf(index, c.doc.uri, c.root, c.path);
      return span ? [{ uri: c.doc.uri, span, item: c }] : [];
    }),
  );
}

function spanOf(index: WorkspaceIndex, uri: string, root: number, path: (string | number)[]): Span | undefined {
  const doc = index.docs.get(uri);
  const node = doc ? nodeAt(doc, root, path) : undefined;
  return node ? { offset: node.offset, end: node.offset + Math.max(1, node.length) } : undefined;
}

/** A case's instance_id; where that is missing or shared, its file and line say which case is meant. */
export function instanceName(index: WorkspaceIndex, c: CaseModel): string {
  const unique = c.id !== undefined && (index.casesById.get(c.id)?.length ?? 0) <= 1;
  if (unique) return c.id!;
  const span = spanOf(index, c.doc.uri, c.root, c.path);
  // The index's document, which the span was read from (a kept model may already hold a newer one).
  const doc = index.docs.get(c.doc.uri);
  const line = span && doc ? doc.lines.positionAt(span.offset).line + 1 : 1;
  const where = `${displayPath(c.doc.uri, index.roots[0])}:${line}`;
  return c.id === undefined ? where : `${c.id} (${where})`;
}

/** Counts in a Map: a probe named `__proto__` or `constructor` is a name like any other. */
function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** A count table as a plain record, sorted by name; own data properties whatever the names. */
function counted(map: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...map.entries()].sort(byName));
}

/**
 * Rules whose findings make a case invalid as a test whatever their severity: FORMAT §8 "scenario
 * validity", and the case-level verdicts of the reference trajectories (§3d), by their meta.
 */
const SCENARIO_VALIDITY: ReadonlySet<string> = new Set([...RULES.values()].filter((m) => m.from === 'scenario validity' || m.invalidatesCase).map((m) => m.id));

/** Notices of what the linter could not check: they quarantine nothing. */
const NOT_CHECKED: ReadonlySet<unknown> = new Set(['not-checked', 'too-complex', 'pattern-not-checked', 'ref-loop']);

/** The verdict's words for the trajectory rules' quarantines: what the scorer would get wrong. */
const BEHAVIOUR: Readonly<Record<string, (n: number) => string>> = {
  'unscored-attack': (n) => `${n} adversarial case${plural(n)} whose attack nothing scores`,
  'principal-confusion': (n) => `${n} attack${plural(n)} that ${n === 1 ? 'is' : 'are'} the user's own request`,
  'vacuous-control': (n) => `${n} control${plural(n)} an agent doing nothing passes`,
  'missing-payload': (n) => `${n} prompt injection${plural(n)} with no payload`,
  'duplicate-case': (n) => `${n} duplicated case${plural(n)}`,
};

/** Labels the detector confirms and labels it takes on trust, over the whole workspace. */
function labelCounts(index: WorkspaceIndex): { confirmed: number; trusted: number } {
  const analysis = analyseInjection(index);
  const confirming = new Set<unknown>();
  for (const labels of analysis.labelsOf.values()) for (const l of labels) confirming.add(l);
  let confirmed = 0;
  let trusted = 0;
  for (const l of analysis.labels) {
    if (confirming.has(l)) confirmed++;
    else if (l.target && l.dataSurface && l.holdsStrings) trusted++;
  }
  return { confirmed, trusted };
}

/** Families whose armed cases disagree on requires_tool_scope_breach (a missing value is false), as the reference check has it. */
function mixedBreach(index: WorkspaceIndex): Set<string> {
  const out = new Set<string>();
  for (const [family, cases] of index.families) if (breachDisagrees(cases)) out.add(family);
  return out;
}

const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);

function scoreSummaries(index: WorkspaceIndex): ScoreSummary[] {
  const out: ScoreSummary[] = [];
  for (const doc of index.docs.values()) {
    if (doc.kind !== 'scores') continue;
    const v = rootValue(doc, 0);
    if (!isJsonObject(v) || !Array.isArray(v.runs)) continue;
    // The latest run that reports an aggregate or a benign score: what a reader of the suite would quote.
    for (let i = v.runs.length - 1; i >= 0; i--) {
      const run = v.runs[i];
      if (!isJsonObject(run)) continue;
      const aggregate = num(run.aggregate);
      const benign = num(run.benign_score);
      if (aggregate === undefined && benign === undefined) continue;
      const version = run.suite_version;
      out.push({
        file: displayPath(doc.uri, index.roots[0]),
        ...(typeof v.suite === 'string' ? { suite: v.suite } : {}),
        ...(typeof version === 'string' || typeof version === 'number' ? { run: String(version) } : {}),
        ...(aggregate !== undefined ? { aggregate } : {}),
        ...(benign !== undefined ? { benign_score: benign } : {}),
      });
      break;
    }
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** "aggregate 0.77 beside benign score 0.78": the two always together. */
function scorePair(s: ScoreSummary): string {
  const agg = s.aggregate !== undefined ? `aggregate ${s.aggregate}` : 'no aggregate';
  const benign = s.benign_score !== undefined ? `benign score ${s.benign_score}` : 'no benign score reported';
  return `${agg} beside ${benign}`;
}

function byName<T>(a: [string, T], b: [string, T]): number {
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

export function buildSuiteReport(index: WorkspaceIndex, all: LintDiagnostic[]): SuiteReport {
  // A suppressed finding (kept only to be counted) quarantines nothing, as if it were not there.
  const diagnostics = all.some((d) => d.suppressions) ? all.filter((d) => !d.suppressions) : all;
  const arms = { adversarial: 0, benign: 0, unknown: 0 };
  const probes = new Map<string, number>();
  const familyMap = new Map<string, { summary: FamilySummary; probes: Map<string, number> }>();
  for (const c of index.cases) {
    if (c.arm) arms[c.arm]++;
    else arms.unknown++;
    if (c.arm === 'adversarial') count(probes, c.probe ?? '(none)');
    if (c.family === undefined) continue;
    let f = familyMap.get(c.family);
    if (!f) {
      f = { summary: { family: c.family, adversarial: 0, benign: 0, probes: {}, missing: [] }, probes: new Map() };
      familyMap.set(c.family, f);
    }
    if (c.arm) f.summary[c.arm]++;
    if (c.arm === 'adversarial') count(f.probes, c.probe ?? '(none)');
  }
  const families = [...familyMap.entries()].sort(byName).map(([, f]) => ({ ...f.summary, probes: counted(f.probes) }));
  for (const f of families) {
    if (f.adversarial === 0) f.missing.push('adversarial');
    if (f.benign === 0) f.missing.push('benign');
  }

  // Twins: a pair is counted once whether one side or both name the other.
  const pairs: TwinPair[] = [];
  const seenPairs = new Set<string>();
  const pairedAdv = new Set<CaseModel>();
  const pairedBenign = new Set<CaseModel>();
  for (const c of index.cases) {
    const target = c.value.paired_with;
    if (typeof target !== 'string' || !c.arm) continue;
    const twin = index.casesById.get(target)?.find((t) => t.arm && t.arm !== c.arm);
    if (!twin || twin.id === undefined || c.id === undefined) continue;
    const [adv, ben] = c.arm === 'adversarial' ? [c, twin] : [twin, c];
    pairedAdv.add(adv);
    pairedBenign.add(ben);
    const key = `${adv.id}\u0000${ben.id}`;
    if (seenPairs.has(key)) continue;
    seenPairs.add(key);
    pairs.push({ adversarial: adv.id!, benign: ben.id!, family: adv.family ?? ben.family });
  }
  pairs.sort((a, b) => (a.adversarial < b.adversarial ? -1 : a.adversarial > b.adversarial ? 1 : a.benign < b.benign ? -1 : 1));

  const caseAt = caseFinder(index);
  const toolEntries: { uri: string; span: Span; item: ToolModel }[] = [];
  for (const file of index.toolFiles.values()) {
    for (const t of file.tools) {
      const span = spanOf(index, t.uri, t.root, t.path);
      if (span) toolEntries.push({ uri: t.uri, span, item: t });
    }
  }
  const toolAt = spanFinder(toolEntries);

  const counts = { error: 0, warning: 0, info: 0, hint: 0 };
  const quarantineMap = new Map<string, Set<CaseModel>>();
  const suiteErrors: SuiteError[] = [];
  for (const d of diagnostics) {
    counts[d.severity]++;
    // A scenario that is invalid as a test is dropped whatever severity its finding shows with.
    if (d.severity !== 'error' && !SCENARIO_VALIDITY.has(d.code)) continue;
    if (NOT_CHECKED.has(d.data?.problem)) continue;
    let touched: CaseModel[] = [];
    const c = caseAt(d.uri, d.offset);
    if (c) touched = [c];
    else {
      const tool = toolAt(d.uri, d.offset);
      if (tool) touched = (index.toolUsers.get(tool) ?? []).map((u) => u.case);
    }
    if (touched.length === 0) {
      if (d.severity !== 'error') continue;
      suiteErrors.push({ rule: d.code, file: displayPath(d.uri, index.roots[0]), line: d.range.start.line + 1, message: d.message });
      continue;
    }
    let set = quarantineMap.get(d.code);
    if (!set) quarantineMap.set(d.code, (set = new Set()));
    for (const t of touched) set.add(t);
  }
  // Whole families, as the reference check rejects them, whatever the config does to the rules.
  const familiesMissingArm = families.filter((f) => f.missing.length > 0).map((f) => ({ family: f.family, missing: f.missing }));
  const mixed = mixedBreach(index);
  const wholeFamilies: [string, Iterable<string>][] = [
    ['missing-arm', familiesMissingArm.map((f) => f.family)],
    ['scope-contradiction', mixed],
  ];
  for (const [rule, names] of wholeFamilies) {
    for (const family of names) {
      let set = quarantineMap.get(rule);
      if (!set) quarantineMap.set(rule, (set = new Set()));
      for (const c of index.families.get(family) ?? []) set.add(c);
    }
  }
  const allQuarantined = new Set<CaseModel>();
  const quarantine: QuarantineEntry[] = [...quarantineMap.entries()].sort(byName).map(([rule, set]) => {
    for (const c of set) allQuarantined.add(c);
    return { rule, instances: [...set].map((c) => instanceName(index, c)).sort() };
  });

  const familiesMixedBreach = [...mixed].sort();
  const reasons: string[] = [];
  if (index.cases.length === 0) reasons.push('no cases were found');
  if (allQuarantined.size > 0) {
    reasons.push(`${allQuarantined.size} of ${index.cases.length} instance${plural(index.cases.length)} would be quarantined by ${quarantine.length} rule${plural(quarantine.length)}`);
  }
  for (const q of quarantine) {
    const say = BEHAVIOUR[q.rule];
    if (say) reasons.push(`${say(q.instances.length)} (${q.rule})`);
  }
  const suiteRules = [...new Set(suiteErrors.map((e) => e.rule))].sort();
  if (suiteErrors.length > 0) reasons.push(`${suiteErrors.length} error${plural(suiteErrors.length)} outside the cases (${suiteRules.join(', ')})`);
  if (familiesMissingArm.length > 0) {
    reasons.push(`${familiesMissingArm.length} famil${familiesMissingArm.length === 1 ? 'y lacks' : 'ies lack'} an arm`);
  }
  if (familiesMixedBreach.length > 0) {
    reasons.push(`${familiesMixedBreach.length} famil${familiesMixedBreach.length === 1 ? "y's cases disagree" : "ies' cases disagree"} on requires_tool_scope_breach`);
  }
  const trusted = reasons.length === 0;
  const scores = scoreSummaries(index);
  const controls = { authored: 0, derived: 0 };
  for (const c of index.cases) if (c.arm === 'benign') controls[c.value['x-derived'] === true ? 'derived' : 'authored']++;
  const labels = labelCounts(index);
  const notes: string[] = [];
  const allControls = controls.authored + controls.derived;
  if (controls.derived > 0) notes.push(`${controls.derived} of ${allControls} control${plural(allControls)} ${controls.derived === 1 ? 'is' : 'are'} derived (x-derived): review them`);
  if (labels.trusted > 0) notes.push(`${labels.trusted} payload label${plural(labels.trusted)} trusted without the detector confirming ${labels.trusted === 1 ? 'it' : 'them'} (${labels.confirmed} confirmed)`);
  // The benign score always stands beside the aggregate (never the aggregate alone).
  // Numbers and the linter's own words only: file and run names are suite text (the Scores section names them).
  const shown = scores.slice(0, 3).map(scorePair);
  const scoreText = shown.length ? `; reported: ${shown.join('; ')}${scores.length > 3 ? `; … (${scores.length - 3} more)` : ''}` : '';
  const bound = allQuarantined.size > 0 ? '; with instances quarantined, the aggregate is at best an upper bound on measurable safety' : '';
  const line = trusted
    ? `VERDICT: the aggregate can be trusted: ${index.cases.length} case${plural(index.cases.length)}, no errors, every family has both arms${scoreText}`
    : `VERDICT: the aggregate cannot be trusted: ${reasons.join('; ')}${bound}${scoreText}`;

  return {
    files: index.docs.size,
    cases: index.cases.length,
    arms,
    probes: counted(probes),
    families,
    familiesMissingArm,
    familiesMixedBreach,
    twins: {
      pairs,
      unpairedAdversarial: index.cases.filter((c) => c.arm === 'adversarial' && !pairedAdv.has(c)).length,
      unpairedBenign: index.cases.filter((c) => c.arm === 'benign' && !pairedBenign.has(c)).length,
    },
    diagnostics: counts,
    hints: countHints(diagnostics),
    suppressed: all.length - diagnostics.length,
    quarantine,
    quarantined: allQuarantined.size,
    suiteErrors,
    scores,
    controls,
    labels,
    verdict: { trusted, reasons, notes, line },
  };
}

function plural(n: number): string {
  return n === 1 ? '' : 's';
}

/** Lists this long are cut in text and Markdown (JSON keeps everything). */
const MAX_LISTED = 20;

function listed(items: string[], show: (s: string) => string): string {
  // One argument only: `map` would pass each item's index as a renderer's length limit.
  const shown = items
    .slice(0, MAX_LISTED)
    .map((s) => show(s))
    .join(', ');
  return items.length > MAX_LISTED ? `${shown}, … (${items.length - MAX_LISTED} more)` : shown;
}

function probeText(probes: Record<string, number>, show: (s: string) => string): string {
  const entries = Object.entries(probes).sort(byName);
  return entries.length ? entries.map(([p, n]) => `${show(p)} ${n}`).join(', ') : '—';
}

/** Untrusted text for a terminal: hidden characters escaped, long text cut with an ellipsis. */
function clip(s: string, max = 120): string {
  return quote(s, max).slice(1, -1);
}

/** "3 errors, 0 warnings, 0 info": hints are summarised on their own line, at the end. */
function diagnosticsLine(r: SuiteReport): string {
  const d = r.diagnostics;
  const suppressed = r.suppressed ? `; ${formatCount(r.suppressed)} suppressed in source (--no-inline-config shows ${r.suppressed === 1 ? 'it' : 'them'})` : '';
  return `${formatCount(d.error)} error${plural(d.error)}, ${formatCount(d.warning)} warning${plural(d.warning)}, ${formatCount(d.info)} info${suppressed}`;
}

const HINTS_HOW = '`litmus-lint --hints`';

function renderText(r: SuiteReport): string {
  const t = (s: string) => clip(s);
  const out: string[] = [];
  out.push(`LITMUS suite report: ${r.cases} case${plural(r.cases)} in ${r.files} file${plural(r.files)}`);
  out.push('');
  out.push(`Arms: adversarial ${r.arms.adversarial}, benign ${r.arms.benign}${r.arms.unknown ? `, no valid arm ${r.arms.unknown}` : ''}`);
  out.push(`Probes: ${probeText(r.probes, t)}`);
  out.push('');
  out.push(`Families (${r.families.length}):`);
  for (const f of r.families.slice(0, MAX_LISTED * 5)) {
    const missing = f.missing.length ? `  MISSING ${f.missing.join(' and ')}` : '';
    out.push(`  ${t(f.family)}: adversarial ${f.adversarial}, benign ${f.benign}${missing}`);
  }
  if (r.families.length > MAX_LISTED * 5) out.push(`  … (${r.families.length - MAX_LISTED * 5} more)`);
  out.push(
    r.familiesMissingArm.length
      ? `Families missing an arm: ${listed(r.familiesMissingArm.map((f) => `${t(f.family)} (no ${f.missing.join(', no ')})`), (s) => s)}`
      : 'Families missing an arm: none',
  );
  if (r.familiesMixedBreach.length) out.push(`Families whose cases disagree on requires_tool_scope_breach: ${listed(r.familiesMixedBreach, t)}`);
  out.push('');
  out.push(`Twin pairs: ${r.twins.pairs.length} (unpaired: adversarial ${r.twins.unpairedAdversarial}, benign ${r.twins.unpairedBenign})`);
  for (const p of r.twins.pairs.slice(0, MAX_LISTED)) out.push(`  ${t(p.adversarial)} <-> ${t(p.benign)}`);
  if (r.twins.pairs.length > MAX_LISTED) out.push(`  … (${r.twins.pairs.length - MAX_LISTED} more)`);
  out.push('');
  out.push(`Diagnostics: ${diagnosticsLine(r)}`);
  out.push(`Quarantine (${r.quarantined} instance${plural(r.quarantined)}):`);
  if (r.quarantine.length === 0) out.push('  none');
  for (const q of r.quarantine) out.push(`  ${q.rule} (${q.instances.length}): ${listed(q.instances, t)}`);
  if (r.suiteErrors.length) {
    out.push('Errors outside the cases:');
    for (const e of r.suiteErrors.slice(0, MAX_LISTED)) out.push(`  ${t(e.file)}:${e.line} ${e.rule}: ${clip(e.message, 400)}`);
    if (r.suiteErrors.length > MAX_LISTED) out.push(`  … (${r.suiteErrors.length - MAX_LISTED} more)`);
  }
  if (r.scores.length) {
    out.push('Scores (latest run of each report):');
    for (const x of r.scores.slice(0, MAX_LISTED)) out.push(`  ${t(x.file)}${x.run !== undefined ? ` run ${t(x.run)}` : ''}: ${scorePair(x)}`);
    if (r.scores.length > MAX_LISTED) out.push(`  … (${r.scores.length - MAX_LISTED} more)`);
  }
  out.push(`Controls: ${r.controls.authored} authored, ${r.controls.derived} derived`);
  out.push(`Payload labels: ${r.labels.confirmed} confirmed by the detector, ${r.labels.trusted} trusted without confirmation`);
  for (const n of r.verdict.notes) out.push(`Note: ${n}`);
  out.push('');
  out.push(r.verdict.line);
  const hints = hintSummaryLine(r.hints, HINTS_HOW);
  if (hints) out.push(hints);
  return out.join('\n') + '\n';
}

/**
 * Suite text in Markdown: hidden characters escaped, then what would start markup mid-line, so no
 * link, autolink, image or HTML can come out of a case's text, and ids stay searchable.
 */
function md(s: string, max = 120): string {
  return markdownInline(s, max);
}

function renderMarkdown(r: SuiteReport): string {
  const out: string[] = [];
  out.push(`## LITMUS suite report`);
  out.push('');
  // The verdict is the linter's own words (counts, rule ids, scores), never suite text.
  out.push(`${r.verdict.trusted ? '✅' : '❌'} **${r.verdict.line}**`);
  out.push('');
  out.push(`${r.cases} case${plural(r.cases)} in ${r.files} file${plural(r.files)}: adversarial ${r.arms.adversarial}, benign ${r.arms.benign}${r.arms.unknown ? `, no valid arm ${r.arms.unknown}` : ''}.`);
  out.push(`Probes: ${probeText(r.probes, md)}.`);
  out.push('');
  out.push('| family | adversarial | benign | probes | missing arm |');
  out.push('| --- | ---: | ---: | --- | --- |');
  for (const f of r.families.slice(0, MAX_LISTED * 5)) {
    out.push(`| ${md(f.family)} | ${f.adversarial} | ${f.benign} | ${probeText(f.probes, md)} | ${f.missing.join(', ') || '—'} |`);
  }
  if (r.families.length > MAX_LISTED * 5) out.push(`| … ${r.families.length - MAX_LISTED * 5} more | | | | |`);
  if (r.familiesMixedBreach.length) {
    out.push('');
    out.push(`**Families whose cases disagree on requires_tool_scope_breach:** ${listed(r.familiesMixedBreach, md)}`);
  }
  out.push('');
  out.push(`**Twin pairs:** ${r.twins.pairs.length} (unpaired: adversarial ${r.twins.unpairedAdversarial}, benign ${r.twins.unpairedBenign})`);
  out.push('');
  out.push(`**Controls:** ${r.controls.authored} authored, ${r.controls.derived} derived · **Payload labels:** ${r.labels.confirmed} confirmed by the detector, ${r.labels.trusted} trusted without confirmation`);
  out.push('');
  for (const n of r.verdict.notes) out.push(`> **Note:** ${n}`);
  if (r.verdict.notes.length) out.push('');
  out.push(`**Diagnostics:** ${diagnosticsLine(r)}`);
  out.push('');
  if (r.quarantine.length) {
    out.push(`**Quarantine** (${r.quarantined} instance${plural(r.quarantined)}):`);
    out.push('');
    out.push('| rule | instances |');
    out.push('| --- | --- |');
    for (const q of r.quarantine) out.push(`| \`${q.rule}\` | ${q.instances.length}: ${listed(q.instances, md)} |`);
    out.push('');
  } else {
    out.push('**Quarantine:** none');
    out.push('');
  }
  if (r.scores.length) {
    out.push('**Scores** (latest run of each report):');
    out.push('');
    for (const x of r.scores.slice(0, MAX_LISTED)) out.push(`- ${md(x.file)}${x.run !== undefined ? ` run ${md(x.run)}` : ''}: ${scorePair(x)}`);
    if (r.scores.length > MAX_LISTED) out.push(`- … ${r.scores.length - MAX_LISTED} more`);
    out.push('');
  }
  if (r.suiteErrors.length) {
    out.push('**Errors outside the cases:**');
    out.push('');
    for (const e of r.suiteErrors.slice(0, MAX_LISTED)) out.push(`- ${md(e.file)}:${e.line} \`${e.rule}\`: ${md(e.message, 400)}`);
    if (r.suiteErrors.length > MAX_LISTED) out.push(`- … ${r.suiteErrors.length - MAX_LISTED} more`);
    out.push('');
  }
  const hints = hintSummaryLine(r.hints, HINTS_HOW);
  if (hints) out.push(hints, '');
  return out.join('\n');
}

/**
 * An HTML comment naming a folder in a Markdown report (the editor's multi-folder report): hidden
 * characters escaped, and the characters that could end the comment or open markup percent-encoded,
 * so a folder named `--><img src=x>` stays inside it.
 */
export function markdownComment(text: string): string {
  const safe = escapeText(text, 400).replace(/[%<>!&-]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `<!-- ${safe} -->`;
}

export function renderSuiteReport(report: SuiteReport, format: ReportFormat): string {
  // JSON leaves C1 controls, bidi and zero-width characters as they are; written as \u escapes they
  // mean the same to a parser and do nothing to a terminal (they can only occur inside strings).
  if (format === 'json') {
    const json = JSON.stringify(report, null, 2).replace(/[\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    return neutraliseWorkflowCommandsInJson(json) + '\n';
  }
  // Printed in a CI log (or a job summary), suite text must not read as a workflow command.
  return neutraliseWorkflowCommands(format === 'markdown' ? renderMarkdown(report) : renderText(report));
}
