import { docsUrl, RULE_IDS, RULES, type RuleMeta } from '../../core';
import { RULE_DOCS } from './generated/rule-docs';

/**
 * SARIF `reportingDescriptor`s (the run's rule table) from the rule registry and each rule's page.
 * GitHub code scanning shows `fullDescription` and `help` on every alert and requires both; the
 * help is the page's lead, its bad example and the fix, so an alert explains itself without a click.
 */
export interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string; markdown: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: 'error' | 'warning' | 'note' };
  properties: { tags: string[]; 'security-severity'?: string; litmusCondition: string };
}

/** SARIF has three result levels; info and hint are both `note`. */
export function sarifLevel(s: RuleMeta['defaultSeverity']): 'error' | 'warning' | 'note' {
  return s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note';
}

/**
 * `signature-overlap` → `SignatureOverlap`: SARIF's rule names are identifiers in Pascal case, and
 * must differ from the id, so a one-word id gets a noun (`schema` → `SchemaViolation`).
 */
export function pascalName(id: string): string {
  const words = id.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const name = words.map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  return name.toLowerCase() === id.toLowerCase() ? `${name}Violation` : name;
}

/**
 * GitHub's tags: `security` (with a `security-severity`) makes an alert a security alert; the
 * others say which LITMUS check the rule enforces, from the registry's `from`.
 */
export function ruleTags(meta: RuleMeta): string[] {
  const tags = ['litmus'];
  const from = meta.from;
  if (meta.securitySeverity !== undefined) tags.push('security', 'external/cwe/cwe-1427');
  if (from === '—') tags.push('structure');
  if (from === 'card') tags.push('prompt-injection');
  for (const m of from.matchAll(/conditions? ([\d ,and]+)/g)) {
    for (const n of m[1].match(/\d+/g) ?? []) tags.push(`litmus-condition-${n}`);
  }
  if (/condition|validity|isolation/.test(from)) tags.push('benchmark-validity');
  if (/scenario validity/.test(from)) tags.push('scenario-validity');
  if (/harness isolation/.test(from)) tags.push('harness-isolation');
  return [...new Set(tags)];
}

/** Links in a rule page are relative to it; in GitHub's alert view they must be absolute. */
export function absoluteLinks(markdown: string, pageUrl: string): string {
  return markdown.replace(/\]\(([^)\s]+)\)/g, (all, target: string) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return all;
    return `](${new URL(target, pageUrl).href})`;
  });
}

/** Markdown as plain text: fences dropped (code indented instead), emphasis and code marks removed, links spelled out. */
export function plainText(markdown: string): string {
  const out: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) {
      out.push(`    ${line}`);
      continue;
    }
    out.push(
      line
        .replace(/^#{1,6} (.*)$/, '$1:')
        .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_, text: string, url: string) => (text === url ? url : `${text} (${url})`))
        .replace(/\*\*([^*]+)\*\*/g, '$1')
        .replace(/`([^`]+)`/g, '$1'),
    );
  }
  return out.join('\n');
}

function firstParagraph(markdown: string): string {
  return (markdown.split(/\n\s*\n/)[0] ?? '').trim();
}

function describe(meta: RuleMeta): SarifRule {
  // A plugin's rule links its own page, if it has one (docs/plugins.md).
  const url = RULES.has(meta.id) ? docsUrl(meta.id) : (meta.docsUrl ?? '');
  const doc = RULE_DOCS[meta.id];
  const lead = doc?.lead ? absoluteLinks(doc.lead, url) : meta.description;
  const example = doc?.example ? absoluteLinks(doc.example, url) : '';
  // A lead that opens with a list ("… reports a suppression that suppresses nothing:") says it in the list.
  const first = firstParagraph(lead);
  const full = first && !first.endsWith(':') ? first : meta.description;
  const markdown = [lead, example, url && `[Rule documentation](${url})`].filter(Boolean).join('\n\n');
  const text = [plainText(lead), plainText(example), url && `Rule documentation: ${url}`].filter(Boolean).join('\n\n');
  return {
    id: meta.id,
    name: pascalName(meta.id),
    shortDescription: { text: meta.description },
    // One line: GitHub shows it in alert lists.
    fullDescription: { text: plainText(full).replace(/\s*\n\s*/g, ' '), markdown: full },
    help: { text, markdown },
    ...(url ? { helpUri: url } : {}),
    defaultConfiguration: { level: sarifLevel(meta.defaultSeverity) },
    properties: {
      tags: ruleTags(meta),
      ...(meta.securitySeverity !== undefined ? { 'security-severity': meta.securitySeverity.toFixed(1) } : {}),
      litmusCondition: meta.from,
    },
  };
}

let table: SarifRule[] | undefined;

/**
 * Every registered rule, in registry order, then the plugins' rules that ran (results point into it
 * with `ruleIndex`).
 */
export function sarifRules(extra: readonly RuleMeta[] = []): SarifRule[] {
  table ??= RULE_IDS.map((id) => describe(RULES.get(id)!));
  return extra.length ? [...table, ...extra.map(describe)] : table;
}
