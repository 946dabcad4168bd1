/**
 * Scores injection-payload results against a labelled corpus, the way its README says: a poisoned
 * file counts as found when a result lands on its labelled line (±1); every result in a benign
 * file is a false positive; results elsewhere in a poisoned file are off-target, not false positives.
 */

import { appendAll } from '../core/text/multimap';

export interface CorpusLabel {
  file: string;
  line: number;
  field: string;
  encoding: string;
  source: string;
  /** The technique, language or slot the payload's source gives. */
  variant?: string;
  pointer?: string;
}

export interface Result {
  /** Path relative to the corpus folder, `/`-separated. */
  file: string;
  /** 1-based. */
  line: number;
  /** Index of the tool the result is inside, when known. */
  tool?: number;
  message?: string;
}

export interface BenignFile {
  file: string;
  tools: number;
  candidateStrings: number;
}

export interface Rate {
  hit: number;
  total: number;
}

export interface Score {
  recall: Rate;
  byField: Map<string, Rate>;
  byEncoding: Map<string, Rate>;
  bySource: Map<string, Rate>;
  byVariant: Map<string, Rate>;
  missed: CorpusLabel[];
  offTarget: Result[];
  falsePositives: Result[];
  candidateStrings: number;
  benignTools: number;
  flaggedTools: number;
}

function bump(map: Map<string, Rate>, key: string, hit: boolean): void {
  const r = map.get(key) ?? { hit: 0, total: 0 };
  r.total++;
  if (hit) r.hit++;
  map.set(key, r);
}

export function score(labels: CorpusLabel[], results: Result[], benign: BenignFile[]): Score {
  const byFile = new Map<string, Result[]>();
  for (const r of results) {
    const list = byFile.get(r.file);
    if (list) list.push(r);
    else byFile.set(r.file, [r]);
  }
  const s: Score = {
    recall: { hit: 0, total: 0 },
    byField: new Map(),
    byEncoding: new Map(),
    bySource: new Map(),
    byVariant: new Map(),
    missed: [],
    offTarget: [],
    falsePositives: [],
    candidateStrings: 0,
    benignTools: 0,
    flaggedTools: 0,
  };
  for (const label of labels) {
    const found = byFile.get(label.file) ?? [];
    const onTarget = found.filter((r) => Math.abs(r.line - label.line) <= 1);
    const hit = onTarget.length > 0;
    s.recall.total++;
    if (hit) s.recall.hit++;
    else s.missed.push(label);
    bump(s.byField, label.field, hit);
    bump(s.byEncoding, label.encoding, hit);
    bump(s.bySource, label.source, hit);
    bump(s.byVariant, variantKey(label), hit);
    appendAll(s.offTarget, found.filter((r) => !onTarget.includes(r)));
  }
  for (const b of benign) {
    s.candidateStrings += b.candidateStrings;
    s.benignTools += b.tools;
    const found = byFile.get(b.file) ?? [];
    appendAll(s.falsePositives, found);
    s.flaggedTools += new Set(found.map((r) => r.tool ?? -1)).size;
  }
  return s;
}

/**
 * A payload style: the variant's technique, without the language a translated source puts before
 * it ("German/persuasion" counts as persuasion; the language is reported as its own row).
 */
export function variantKey(label: CorpusLabel): string {
  const v = label.variant ?? '';
  if (!v) return '(none)';
  const cut = v.lastIndexOf('/');
  return cut >= 0 && !v.startsWith('table/') ? v.slice(cut + 1) : v;
}

export function pct(r: Rate): number {
  return r.total ? (100 * r.hit) / r.total : 100;
}

/** Candidate strings of one tool, counted as the corpus README defines them. */
export function countCandidates(tool: unknown): number {
  if (typeof tool !== 'object' || tool === null) return 0;
  const t = tool as Record<string, unknown>;
  let n = typeof t.description === 'string' ? 1 : 0;
  const leaves = (v: unknown): number =>
    typeof v === 'string' ? 1 : Array.isArray(v) ? v.reduce((a: number, x) => a + leaves(x), 0) : typeof v === 'object' && v !== null ? Object.values(v).reduce((a: number, x) => a + leaves(x), 0) : 0;
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'description' && typeof x === 'string') n++;
        else if (k === 'default' || k === 'examples' || k === 'const' || k === 'enum') n += leaves(x);
        else walk(x);
      }
    }
  };
  walk(t.inputSchema ?? t.input_schema ?? t.parameters);
  return n;
}
