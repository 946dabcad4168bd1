import type { ResolvedConfig } from '../model/config';
import { escapeText } from '../text/escape';
import type { SuiteDocument } from '../model/document';
import { lastingLocations, locationSpan, type Location, type ResolvedRange } from '../text/location';
import { docsUrl, RULE_IDS, RULES, ruleMeta } from '../rules/registry';
import { defineLazy, type FixSpec } from '../text/fix';
import type { Finding, Rule, RuleContext } from '../rules/types';
import { SEVERITY_ORDER, type Range, type Severity, type Span } from '../text/types';
import type { WorkspaceIndex } from '../model/workspace';
import { flat } from '../text/multimap';
import { sharedName, timed, type RuleTimes } from './timing';

export interface TextEdit {
  range: Range;
  offset: number;
  length: number;
  newText: string;
}

export interface Fix {
  title: string;
  unambiguous: boolean;
  /** Never applied without asking (see FixSpec). */
  changesClaim?: boolean;
  edits: { uri: string; version?: number; edits: TextEdit[] }[];
}

export interface RelatedInformation {
  uri: string;
  range: Range;
  message: string;
}

/** A finding placed in its document: what every host (CLI, server, tests) shows. */
export interface LintDiagnostic {
  uri: string;
  range: Range;
  offset: number;
  length: number;
  severity: Severity;
  code: string;
  message: string;
  docsUrl: string;
  related: RelatedInformation[];
  fixes: Fix[];
  data?: Record<string, unknown>;
  /**
   * Set when this diagnostic states one fact about one case together with others (lint/facts.ts):
   * human formats show the primary alone, with the others as related locations; machine formats
   * keep every diagnostic, sharing `group`.
   */
  fact?: LintFact;
  /**
   * Set only on a finding that in-source suppressions (FORMAT §11) accept, and only when the lint was
   * asked to keep such findings (`LintOptions.keepSuppressed`): the reason of each suppression that covers it.
   */
  suppressions?: { reason: string }[];
}

/** One fact stated by several diagnostics of one case (docs/format.md, "One fact, one finding"). */
export interface LintFact {
  /** Shared by every diagnostic of the fact. */
  group: string;
  /** The diagnostic that stands for the fact: the most severe, then the first in the file. */
  primary: boolean;
  /** Every rule that states it, the primary's first. */
  rules: string[];
}

export interface LintOptions {
  /** Run only these rules (all when unset). */
  rules?: readonly Rule[];
  /** Only report diagnostics in these documents (cross-file rules still read everything). */
  onlyUris?: ReadonlySet<string>;
  isCancelled?: () => boolean;
  /** Suppressed findings come back marked with `suppressions` instead of being dropped (reports that show them). */
  keepSuppressed?: boolean;
  /** False: in-source suppressions are not applied at all, as ESLint's `--no-inline-config` (default true). */
  inlineConfig?: boolean;
  /** Adds each rule's time, and each shared analysis's, to these (the CLI's `TIMING`). */
  times?: RuleTimes;
}

export interface LintResult {
  diagnostics: LintDiagnostic[];
  cancelled: boolean;
}

function clampSeverity(sev: Severity, finding: Finding): Severity {
  let s = sev;
  if (finding.minSeverity && SEVERITY_ORDER[s] < SEVERITY_ORDER[finding.minSeverity]) s = finding.minSeverity;
  if (finding.maxSeverity && SEVERITY_ORDER[s] > SEVERITY_ORDER[finding.maxSeverity]) s = finding.maxSeverity;
  return s;
}

/** Whether a finding falls outside the seeds' scope where it points: a contamination finding under `"scoring": "disjoint"` (FORMAT §5). */
function outOfScope(finding: Finding, config: ResolvedConfig): boolean {
  return config.scoring === 'disjoint' && (finding.contamination === true || ruleMeta(finding.rule).contamination === true);
}

/** What an out-of-scope finding's message adds: why it is only a notice. */
const DISJOINT_NOTE =
  ' (only a notice: this suite declares "scoring": "disjoint", reporting its arms as separate metrics, which the LITMUS contamination note leaves out of its scope; a shared threshold or aggregate over these arms would be contaminated)';

/** The severity a finding shows with, or undefined when its rule is off where it points. */
export function effectiveSeverity(finding: Finding, config: ResolvedConfig): Severity | undefined {
  const configured = config.rules[finding.rule];
  if (configured === 'off') return undefined;
  const base = configured ?? finding.severity ?? ruleMeta(finding.rule).defaultSeverity;
  const s = clampSeverity(base, finding);
  return outOfScope(finding, config) && SEVERITY_ORDER[s] > SEVERITY_ORDER.info ? 'info' : s;
}

/** A finding as it reads where it points: out of scope, its message says why it is only a notice. */
function scoped(finding: Finding, config: ResolvedConfig): Finding {
  return outOfScope(finding, config) ? { ...finding, message: finding.message + DISJOINT_NOTE, data: { ...finding.data, scope: 'scoring-disjoint' } } : finding;
}

/**
 * Locations already found per parse result. Documents are immutable and reused while their text
 * is unchanged, and whole-workspace rules report the same findings on every server lint. Each
 * keeps its offset and length alone (its positions are read off the lines as it is placed), under
 * one flat key: its range, positions and a key built by concatenation came to some 200 bytes a
 * location, kept as long as the document.
 */
const resolved = new WeakMap<object, Map<string, Span>>();

/**
 * Where a location object was placed, with the parse it was placed in. A finding kept from
 * the last run (rules/kept-by-case.ts, the payload rule's surface findings) brings the same
 * location object: it is found without writing its path out as a key again. Kept only for
 * a host that lints again (`remember`), and only for such kept findings' locations
 * (`lastingLocations`): any other would only pay for it.
 */
const placedAt = new WeakMap<Location, { parsed: object; span: Span }>();

function placed(doc: SuiteDocument, at: Location, remember: boolean): ResolvedRange {
  const lasting = remember && lastingLocations.has(at);
  const known = lasting ? placedAt.get(at) : undefined;
  let span = known !== undefined && known.parsed === doc.parsed ? known.span : undefined;
  if (!span) {
    let memo = resolved.get(doc.parsed);
    if (!memo) resolved.set(doc.parsed, (memo = new Map()));
    const key = 'offset' in at ? `${at.offset}:${at.length}` : JSON.stringify([at.root, at.part ?? '', at.path]);
    span = memo.get(key);
    if (!span) memo.set(key, (span = locationSpan(doc, at)));
    if (lasting) placedAt.set(at, { parsed: doc.parsed, span });
  }
  // A range of its own for each diagnostic: hosts own what they are given.
  return { offset: span.offset, length: span.length, range: doc.lines.rangeOf(span.offset, span.length) };
}

/**
 * A fix whose edits are placed (offsets to ranges) when first read, from changes that may
 * themselves be computed then: a report that shows only titles, as the CLI's text and JSON formats
 * do, never pays for either. The edits are the same whenever they are read: documents are immutable.
 */
function placedFix(index: WorkspaceIndex, f: FixSpec): Fix {
  const own: Omit<Fix, 'edits'> = f.changesClaim ? { title: f.title, unambiguous: f.unambiguous, changesClaim: true } : { title: f.title, unambiguous: f.unambiguous };
  return defineLazy(own, 'edits', placedEdits, index, f);
}

function placedEdits(index: WorkspaceIndex, f: FixSpec): Fix['edits'] {
  return f.changes.map((c) => {
    const target = index.docs.get(c.uri);
    return {
      uri: c.uri,
      version: c.version,
      edits: c.changes.map((ch) => ({
        offset: ch.offset,
        length: ch.length,
        newText: ch.content,
        range: target ? target.lines.rangeOf(ch.offset, ch.length) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      })),
    };
  });
}

/** The fact each placed diagnostic states (Finding.fact), read by lint/facts.ts; kept off the public shape. */
export const factKeys = new WeakMap<LintDiagnostic, string>();

export function toDiagnostic(index: WorkspaceIndex, finding: Finding, severity: Severity, remember = false): LintDiagnostic | undefined {
  const doc = index.docs.get(finding.at.uri);
  if (!doc) return undefined;
  const at = placed(doc, finding.at, remember);
  const related = (finding.related ?? []).flatMap((r) => {
    const rdoc = index.docs.get(r.at.uri);
    return rdoc ? [{ uri: r.at.uri, range: placed(rdoc, r.at, remember).range, message: r.message }] : [];
  });
  const fixes: Fix[] = (finding.fixes ?? []).map((f) => placedFix(index, f));
  const d: LintDiagnostic = {
    uri: finding.at.uri,
    range: at.range,
    offset: at.offset,
    length: at.length,
    severity,
    code: finding.rule,
    message: finding.message,
    docsUrl: finding.docsUrl ?? docsUrl(finding.rule),
    related,
    fixes,
    data: finding.data,
  };
  if (finding.fact !== undefined) factKeys.set(d, finding.fact);
  return d;
}

export function compareDiagnostics(a: LintDiagnostic, b: LintDiagnostic): number {
  if (a.uri !== b.uri) return a.uri < b.uri ? -1 : 1;
  return a.offset - b.offset || a.length - b.length || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);
}

/** `RuleContext.memo` over a map, for hosts that share one computation with the rules they run. */
export function memoOf(memo: Map<string, unknown>, times?: RuleTimes): RuleContext['memo'] {
  return <T>(key: string, compute: () => T): T => {
    if (!memo.has(key)) memo.set(key, timed(times, sharedName(key), compute));
    return memo.get(key) as T;
  };
}

/** Every rule id a run knows: the built-in rules, and the extra (plugin) rules it was given. */
export function knownRuleIds(rules: readonly Rule[]): readonly string[] {
  const extra = rules.filter((r) => !RULES.has(r.meta.id)).map((r) => r.meta.id);
  return extra.length ? [...RULE_IDS, ...extra] : RULE_IDS;
}

/**
 * The rules whose findings no document would show: `off` (FORMAT §5) in the config of every
 * document (the nearest litmus.config.json up its folders). Their checks are not run: placing drops an
 * off rule's findings before suppressions meet them, so skipping one changes no report, and turning
 * off an expensive rule (the payload detector on a suite of long tool outputs) gives its time back.
 * With no document there is nothing to judge by, and nothing is skipped.
 */
export function rulesOffEverywhere(index: WorkspaceIndex, rules: readonly Rule[]): ReadonlySet<string> {
  // Documents of one folder share their config object: a handful of configs for thousands of files.
  const configs = new Set<ResolvedConfig>();
  for (const uri of index.docs.keys()) configs.add(index.configFor(uri));
  const off = new Set<string>();
  if (configs.size === 0) return off;
  for (const rule of rules) {
    let everywhere = true;
    for (const config of configs) if (config.rules[rule.meta.id] !== 'off') everywhere = false;
    if (everywhere) off.add(rule.meta.id);
  }
  return off;
}

/** A full run keeps every document's findings. */
const KEEP_ALL = (): boolean => true;

/**
 * Runs one rule over `index`. Its options come from `configIndex`, which differs from `index` only
 * when the rule runs over a narrowed view of the workspace (incremental linting). A rule that is
 * not built in (a plugin's) carries its default severity and docs link on its findings, since the
 * registry does not know it.
 */
export function runRule(rule: Rule, index: WorkspaceIndex, memo: Map<string, unknown>, configIndex: WorkspaceIndex = index, ruleIds: readonly string[] = RULE_IDS, keeps: (uri: string) => boolean = KEEP_ALL, remember = false, times?: RuleTimes): Finding[] {
  const findings: Finding[] = [];
  const extra = !RULES.has(rule.meta.id);
  const ctx: RuleContext = {
    index,
    config: (uri) => configIndex.configFor(uri),
    memo: memoOf(memo, times),
    report: extra
      ? (f) => findings.push({ ...f, rule: rule.meta.id, severity: f.severity ?? rule.meta.defaultSeverity, docsUrl: rule.meta.docsUrl ?? '' })
      : // The id first: a property added after a spread gives every object a hidden class of its own
        // in V8 (a few hundred bytes a finding, and every read of one megamorphic). A report carries no `rule`.
        // The message as one string: built with a template, it is a tree of its pieces (a node of 32
        // bytes per join) until the report reads it, 9 MB at 30,000 findings (`message` is already
        // there, so setting it again adds no property).
        (f) => findings.push({ rule: rule.meta.id, ...f, message: flat(f.message) }),
    ruleIds,
    keeps,
    remember,
  };
  try {
    timed(times, rule.meta.id, () => rule.check(ctx));
  } catch (e) {
    // One rule's exception must not cost the folder every other rule's findings (the editor would
    // show nothing, the CLI no report). What it found before is kept; the crash itself is said
    // once, at the start of the first file, so CI cannot pass without the rule having run.
    const first = [...index.docs.keys()].sort()[0];
    if (first !== undefined) {
      const what = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      findings.push({
        rule: rule.meta.id,
        at: { uri: first, offset: 0, length: 0 },
        message: `the ${rule.meta.id} check stopped on an internal error (${escapeText(what.split('\n')[0], 120)}), so its findings may be incomplete; please report it`,
        severity: 'warning',
        minSeverity: 'warning',
        data: { problem: 'rule-crashed' },
        ...(extra ? { docsUrl: rule.meta.docsUrl ?? '' } : {}),
      });
    }
  }
  return findings;
}

/** Places findings in their documents with their configured severities, in the order found. */
export function placeFindings(findings: readonly Finding[], index: WorkspaceIndex, keep?: (uri: string) => boolean, remember = false): LintDiagnostic[] {
  const diagnostics: LintDiagnostic[] = [];
  const seen: PlacedAt = new Map();
  for (const f of findings) {
    if (keep && !keep(f.at.uri)) continue;
    const config = index.configFor(f.at.uri);
    const severity = effectiveSeverity(f, config);
    if (!severity) continue;
    const d = toDiagnostic(index, scoped(f, config), severity, remember);
    if (!d) continue;
    // Two paths to one value (e.g. a tool used twice) would otherwise show the same squiggle twice.
    if (!firstAt(seen, d)) continue;
    diagnostics.push(d);
  }
  return diagnostics;
}

/** The diagnostics placed so far, by document and start offset: the first there, then a crowd. */
type PlacedAt = Map<string, Map<number, LintDiagnostic | Crowd>>;

/**
 * The diagnostics that start where another does: compared field by field while they are few, by
 * a text key once they are many (a rule that reports thousands of findings at one place).
 */
class Crowd {
  /** Emptied once the crowd is keyed. */
  list: LintDiagnostic[];
  keys: Set<string> | undefined;
  constructor(first: LintDiagnostic) {
    this.list = [first];
  }
}

/** How many diagnostics at one offset are compared one by one before they are keyed. */
const CROWD_LIST = 8;

const crowdKey = (d: LintDiagnostic): string => `${d.length}\u0000${d.code}\u0000${d.message}`;

/**
 * Notes `d` unless one with its range, rule and message is noted already. Kept by document and
 * offset rather than under a text key per diagnostic: such keys were built for every finding and
 * held until the last was placed (some 250 bytes each, 70 MB for 300,000 findings), while only
 * findings that start where another does are ever compared.
 */
function firstAt(seen: PlacedAt, d: LintDiagnostic): boolean {
  let byOffset = seen.get(d.uri);
  if (!byOffset) seen.set(d.uri, (byOffset = new Map()));
  const there = byOffset.get(d.offset);
  if (there === undefined) {
    byOffset.set(d.offset, d);
    return true;
  }
  let crowd: Crowd;
  if (there instanceof Crowd) crowd = there;
  else byOffset.set(d.offset, (crowd = new Crowd(there)));
  if (!crowd.keys) {
    if (crowd.list.some((o) => o.length === d.length && o.code === d.code && o.message === d.message)) return false;
    crowd.list.push(d);
    if (crowd.list.length > CROWD_LIST) {
      crowd.keys = new Set(crowd.list.map(crowdKey));
      crowd.list = [];
    }
    return true;
  }
  const key = crowdKey(d);
  if (crowd.keys.has(key)) return false;
  crowd.keys.add(key);
  return true;
}
