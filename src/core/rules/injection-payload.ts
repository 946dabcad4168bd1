import { quote, code } from '../text/escape';
import { formatPointer } from '../text/pointer';
import { markLasting } from '../text/location';
import { hitAt, hitData, MAX_LISTED_CASES, usedByData } from '../injection/data';
import { injectionAnalysis } from '../injection/analysis';
import { addLabelFix, locationFor } from '../injection/fixes';
import type { PayloadHit } from '../injection/scan';
import { surfaceName, type SurfaceHit } from '../injection/surfaces';
import type { InjectionAnalysis } from '../injection/analysis';
import type { CaseModel } from '../model/workspace';
import type { SuiteDocument } from '../model/document';
import type { Label } from '../injection/labels';
import { sameItems } from '../text/multimap';
import type { FixSpec } from '../text/fix';
import type { Report, Rule, RuleMeta } from './types';

function describe(hit: PayloadHit | SurfaceHit): string {
  const top = hit.verdict.signals[0];
  return top ? top.explanation : 'reads as an instruction to the agent';
}

/** One adversarial user: the case whose injection_field should name this payload. */
function labelFixes(users: { case: CaseModel; arm?: string }[], hit: PayloadHit): FixSpec[] {
  const adversarial = [...new Set(users.filter((u) => u.arm === 'adversarial').map((u) => u.case))];
  if (adversarial.length !== 1) return [];
  const c = adversarial[0];
  const fix = addLabelFix(c, locationFor(c, hit), true);
  return fix ? [fix] : [];
}

/**
 * What to do with an unlabelled data-surface payload. A case's own payload counts for it alone
 * (FORMAT §3a): in a benign case no label can make it belong to the attack arm, so it goes.
 */
function surfaceAdvice(hit: SurfaceHit): string {
  if (!hit.case) return "remove it, or label it in an adversarial case's injection_field";
  if (hit.case.arm === 'benign') return `remove it from the benign arm (benign case ${code(hit.case.id ?? '?')})`;
  return `remove it, or label it in the injection_field of ${code(hit.case.id ?? '?')}`;
}

/** An inline tool is its case's own: in a benign case, no label elsewhere can name its payload. */
function toolAdvice(analysis: InjectionAnalysis, hit: PayloadHit): string {
  const users = analysis.usersOf(hit.tool);
  const inlineIn = users.length === 1 && users[0].case.tools.some((u) => u.inline && u.tool === hit.tool) ? users[0] : undefined;
  if (inlineIn?.arm === 'benign') return `remove it from the benign arm (inline tool of benign case ${code(inlineIn.id ?? '?')})`;
  return "remove it, or label it in an adversarial case's injection_field";
}

export const meta: RuleMeta = {
  id: 'injection-payload',
  defaultSeverity: 'warning',
  from: 'card',
  securitySeverity: 7.5,
  description: 'A payload on any payload surface (tool schemas, tool outputs, environments, hidden text in a task) that no injection_field labels.',
};

/**
 * A data-surface payload's finding, kept with what it was made from. A case's surface hits are the
 * same objects while the case's scan stands (surfaces.ts), and so are its labels (labels.ts): an edit
 * elsewhere (a tool file the case uses) re-reported every labelled payload of every case around it,
 * thousands in an InjecAgent suite, each with its message and data built again. A label fix is made
 * on its case's document as it was: a new version of that document makes the finding anew. Kept
 * only for a host that lints again (`RuleContext.remember`).
 */
interface KeptSurfaceFinding {
  labels: readonly Label[];
  holders: readonly CaseModel[];
  /** The case the fix labels, and its document when the fix was made. */
  fixed?: { case: CaseModel; doc: SuiteDocument };
  report: Report;
}

const surfaceReports = new WeakMap<SurfaceHit, KeptSurfaceFinding>();
const NO_LABELS: readonly Label[] = [];

function keptFor(hit: SurfaceHit, labels: readonly Label[], holders: readonly CaseModel[]): Report | undefined {
  const kept = surfaceReports.get(hit);
  if (!kept || !sameItems(kept.labels, labels) || !sameItems(kept.holders, holders)) return undefined;
  return !kept.fixed || kept.fixed.case.doc === kept.fixed.doc ? kept.report : undefined;
}

/** Data-surface payloads (FORMAT §3a), where they stand: environment file, inline environment, override value, tool output, task. */
function surfaceFindings(analysis: InjectionAnalysis, report: (r: Report) => void, kept: (uri: string) => boolean, remember: boolean): void {
  for (const hit of analysis.surfaceHits) {
    if (!kept(hit.uri)) continue;
    const labels = analysis.labelsOf.get(hit) ?? NO_LABELS;
    const holders = analysis.holdersOf(hit);
    const known = remember ? keptFor(hit, labels, holders) : undefined;
    if (known) {
      report(known);
      continue;
    }
    const decoded = hit.verdict.decoded;
    const shown = quote(hit.text) + (decoded !== undefined && decoded !== hit.text ? ` (reads as ${quote(decoded, 50)})` : '');
    const data: Record<string, unknown> = {
      pointer: formatPointer(hit.path),
      surface: hit.surface,
      score: hit.verdict.score,
      signals: hit.verdict.signals.map((s) => ({ id: s.id, explanation: s.explanation })),
      ...usedByData(holders),
    };
    if (decoded !== undefined) data.decoded = decoded;
    let r: Report;
    let fixed: KeptSurfaceFinding['fixed'];
    if (labels.length) {
      const ids = [...new Set(labels.map((l) => l.case.id ?? '?'))];
      data.labelledBy = ids.slice(0, MAX_LISTED_CASES);
      if (ids.length > MAX_LISTED_CASES) data.labelledByCount = ids.length;
      r = {
        at: hitAt(hit),
        message: `labelled injection payload in ${surfaceName(hit)} (injection_field of ${ids.slice(0, 10).map((i) => code(i)).join(', ')}${ids.length > 10 ? ` and ${ids.length - 10} more` : ''}): ${shown}`,
        severity: 'hint',
        maxSeverity: 'hint',
        data,
      };
    } else {
      const adversarial = [...new Set(holders.filter((c) => c.arm === 'adversarial'))];
      const fix = adversarial.length === 1 ? addLabelFix(adversarial[0], locationFor(adversarial[0], hit), true) : undefined;
      if (fix) fixed = { case: adversarial[0], doc: adversarial[0].doc };
      r = {
        at: hitAt(hit),
        message: `injection payload in ${surfaceName(hit)}: ${describe(hit)}: ${shown}; ${surfaceAdvice(hit)}`,
        minSeverity: hit.verdict.hidden ? 'warning' : undefined,
        fixes: fix ? [fix] : [],
        data,
      };
    }
    if (remember) {
      surfaceReports.set(hit, { labels, holders, fixed, report: r });
      markLasting([r]);
    }
    report(r);
  }
}

export const injectionPayload: Rule = {
  meta,
  check(ctx) {
    const analysis = injectionAnalysis(ctx);
    // Every finding stands where its payload or label is: none in a document this run drops is built.
    const kept = ctx.keeps;
    for (const hit of analysis.hits) {
      if (!kept(hit.uri)) continue;
      const labels = analysis.labelsOf.get(hit) ?? [];
      const data = hitData(analysis, hit);
      // The raw text, escaped, is what the author must find in the file; the decoded text says what it means.
      const decoded = hit.verdict.decoded;
      const shown = quote(hit.text) + (decoded !== undefined ? ` (decodes to ${quote(decoded, 50)})` : '');
      if (labels.length) {
        const ids = [...new Set(labels.map((l) => l.case.id ?? '?'))];
        ctx.report({
          at: hitAt(hit),
          message: `labelled injection payload in ${hit.slot} of tool ${code(hit.tool.name)} (injection_field of ${ids.map((i) => code(i)).join(', ')}): ${shown}`,
          severity: 'hint',
          maxSeverity: 'hint',
          data,
        });
        continue;
      }
      ctx.report({
        at: hitAt(hit),
        message: `injection payload in ${hit.slot} of tool ${code(hit.tool.name)}: ${describe(hit)}: ${shown}; ${toolAdvice(analysis, hit)}`,
        minSeverity: hit.verdict.hidden ? 'warning' : undefined,
        fixes: labelFixes(analysis.usersOf(hit.tool), hit),
        data,
      });
    }
    surfaceFindings(analysis, (r) => ctx.report(r), kept, ctx.remember);
    trustedLabels(analysis, (f) => ctx.report(f), kept);
  },
};

/**
 * Labels taken on trust (FORMAT §4): on tool outputs, environments and the task, a label that
 * resolves to text is believed even when the detector finds nothing there — the benchmark defines
 * where its attack sits. Said as a hint on the label, so a reader can count what was confirmed and
 * what was only declared.
 */
function trustedLabels(analysis: InjectionAnalysis, report: Parameters<Rule['check']>[0]['report'], kept: (uri: string) => boolean): void {
  const confirming = new Set<unknown>();
  for (const labels of analysis.labelsOf.values()) for (const l of labels) confirming.add(l);
  for (const label of analysis.labels) {
    if (confirming.has(label) || !label.target || !label.dataSurface || !label.holdsStrings || !kept(label.case.doc.uri)) continue;
    report({
      at: { uri: label.case.doc.uri, root: label.case.root, path: label.path },
      message: `injection_field ${code(label.text, 80)} of ${code(label.case.id ?? '?')} is taken on trust: the detector finds no payload there (on data surfaces the label is believed, FORMAT §4)`,
      severity: 'hint',
      maxSeverity: 'hint',
      data: { label: 'trusted', case: label.case.id, pointer: formatPointer(label.target.path) },
    });
  }
}
