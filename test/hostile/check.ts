/**
 * Invariants that must hold for any input, however hostile: shared by the property tests and by
 * `npm run fuzz`. Each check returns the problems it found (empty: all good) instead of throwing, so
 * the fuzzer can count and report them and the tests can show them all at once.
 */
import { createScanner, getNodeValue, SyntaxKind, type Node } from 'jsonc-parser';
import { RE2JS } from 're2js';
import { effectiveEnvironment, overrideProblem, overridesOf } from '../../src/core/model/environment';
import { compileLinear, MAX_PROGRAM_SIZE, programSize } from '../../src/core/text/regex';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../../src/core';
import type { Oracle, OracleCase } from './arbitraries';
import {
  applyChanges,
  nodeAtPath,
  isUnsafeCodePoint,
  parseJson,
  parseJsonLines,
  RULES,
  type LintDiagnostic,
  type Range,
  type SuiteDocument,
  type TextChange,
  type WorkspaceIndex,
} from '../../src/core';

/** Longest message we accept: a few quoted names (each cut to ~80 characters) and the advice. */
export const MAX_MESSAGE_LENGTH = 600;

const SEVERITIES = new Set(['error', 'warning', 'info', 'hint']);

function firstUnsafe(text: string): number | undefined {
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    if (isUnsafeCodePoint(cp)) return cp;
    i += cp > 0xffff ? 2 : 1;
  }
  return undefined;
}

/** Problems with a text shown to people: hidden or bidi characters, or an uncut payload. */
export function presentationProblems(what: string, text: string): string[] {
  const out: string[] = [];
  const cp = firstUnsafe(text);
  if (cp !== undefined) out.push(`${what} shows U+${cp.toString(16).toUpperCase()} unescaped: ${JSON.stringify(text.slice(0, 200))}`);
  if (text.length > MAX_MESSAGE_LENGTH) out.push(`${what} is ${text.length} characters long (payloads must be cut)`);
  return out;
}

function rangeProblems(what: string, doc: SuiteDocument, offset: number, length: number, range: Range): string[] {
  const out: string[] = [];
  const n = doc.text.length;
  if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + length > n) {
    out.push(`${what}: offset ${offset} + length ${length} lies outside the document (length ${n})`);
    return out;
  }
  const expected = doc.lines.rangeOf(offset, length);
  if (JSON.stringify(expected) !== JSON.stringify(range)) {
    out.push(`${what}: range ${JSON.stringify(range)} does not match offsets ${offset}+${length} (${JSON.stringify(expected)})`);
  }
  for (const p of [range.start, range.end]) {
    if (p.line < 0 || p.line >= doc.lines.lineCount) out.push(`${what}: line ${p.line} does not exist`);
    else if (p.character < 0 || p.character > doc.lines.lineEnd(p.line) - doc.lines.lineStart(p.line)) {
      out.push(`${what}: character ${p.character} lies past the end of line ${p.line}`);
    }
  }
  return out;
}

/** Every diagnostic in its document, with a registered code, a safe message and sane fixes. */
export function diagnosticProblems(index: WorkspaceIndex, diagnostics: readonly LintDiagnostic[]): string[] {
  const out: string[] = [];
  for (const d of diagnostics) {
    const what = `${d.code} at ${d.uri}:${d.offset}`;
    if (!RULES.has(d.code)) out.push(`${what}: code is not a registered rule`);
    if (!SEVERITIES.has(d.severity)) out.push(`${what}: severity ${d.severity}`);
    const doc = index.docs.get(d.uri);
    if (!doc) {
      out.push(`${what}: no such document in the index`);
      continue;
    }
    out.push(...rangeProblems(what, doc, d.offset, d.length, d.range));
    out.push(...presentationProblems(`${what} message`, d.message));
    for (const r of d.related) {
      const rdoc = index.docs.get(r.uri);
      if (!rdoc) out.push(`${what}: related information in unknown document ${r.uri}`);
      else {
        const start = rdoc.lines.offsetAt(r.range.start);
        const end = rdoc.lines.offsetAt(r.range.end);
        if (end < start) out.push(`${what}: related range ends before it starts`);
      }
      out.push(...presentationProblems(`${what} related message`, r.message));
    }
    for (const f of d.fixes) {
      out.push(...presentationProblems(`${what} fix title`, f.title));
      for (const group of f.edits) {
        const target = index.docs.get(group.uri);
        if (!target) {
          out.push(`${what}: fix edits unknown document ${group.uri}`);
          continue;
        }
        if (group.version !== target.version) out.push(`${what}: fix carries version ${group.version}, document has ${target.version}`);
        for (const e of group.edits) out.push(...rangeProblems(`${what} fix edit`, target, e.offset, e.length, e.range));
      }
    }
  }
  return out;
}

interface Token {
  kind: SyntaxKind;
  text: string;
  offset: number;
  length: number;
}

/**
 * The tokens of a text without blanks; comments are kept apart. JSONL is scanned line by line, as
 * it is parsed: a broken line must not make the scanner read the next one as part of a string.
 */
function tokens(text: string, jsonl: boolean): { values: Token[]; comments: Token[] } {
  const values: Token[] = [];
  const commentTokens: Token[] = [];
  const scan = (part: string, base: number) => {
    const scanner = createScanner(part, false);
    for (let kind = scanner.scan(); kind !== SyntaxKind.EOF; kind = scanner.scan()) {
      if (kind === SyntaxKind.Trivia || kind === SyntaxKind.LineBreakTrivia) continue;
      const t = { kind, text: part.substr(scanner.getTokenOffset(), scanner.getTokenLength()), offset: base + scanner.getTokenOffset(), length: scanner.getTokenLength() };
      (kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia ? commentTokens : values).push(t);
    }
  };
  if (!jsonl) scan(text, 0);
  else {
    const re = /[^\r\n]*(\r\n|\r|\n|$)/g;
    for (let m = re.exec(text); m && m[0].length > 0; m = re.exec(text)) scan(m[0], m.index);
  }
  return { values, comments: commentTokens };
}

/**
 * What a fix really changed, in offsets of the original: the span between the longest common
 * run of tokens at the start and at the end. jsonc-parser may rewrite a closing brace to insert a
 * member, or reformat a minified file; neither changes a value, so neither should count.
 */
function changedSpan(before: Token[], after: Token[], textLength: number): TextChange | undefined {
  let pre = 0;
  while (pre < before.length && pre < after.length && before[pre].text === after[pre].text) pre++;
  if (pre === before.length && pre === after.length) return undefined;
  let suf = 0;
  while (suf < before.length - pre && suf < after.length - pre && before[before.length - 1 - suf].text === after[after.length - 1 - suf].text) suf++;
  const from = pre < before.length - suf ? before[pre].offset : pre > 0 ? before[pre - 1].offset + before[pre - 1].length : 0;
  const last = before.length - suf - 1;
  const to = last >= pre ? before[last].offset + before[last].length : from;
  return { offset: Math.min(from, textLength), length: Math.max(0, to - from), content: '' };
}

type Path = (string | number)[];
type Zone = { path: Path; mode: 'replace' | 'members' };

/** The path of `target` from `root`, through property nodes. */
function pathOf(target: Node): Path {
  const path: Path = [];
  let n: Node | undefined = target;
  while (n?.parent) {
    const parent: Node = n.parent;
    if (parent.type === 'property') {
      path.unshift(String(parent.children?.[0]?.value));
      n = parent.parent;
    } else if (parent.type === 'array') {
      path.unshift(parent.children?.indexOf(n) ?? -1);
      n = parent;
    } else n = parent;
  }
  return path;
}

/**
 * What one change may alter. A change that covers exactly one value (or lies inside a string)
 * may replace that value; a change between the members of an object may add, remove or rename
 * members of it; inside an array it may shift the elements.
 */
function zoneOf(root: Node, change: TextChange): Zone {
  const from = change.offset;
  const to = change.offset + change.length;
  let node: Node = root;
  for (;;) {
    let next: Node | undefined;
    for (const child of node.children ?? []) {
      const inside = change.length === 0 ? from > child.offset && from < child.offset + child.length : from >= child.offset && to <= child.offset + child.length;
      if (inside) {
        next = child;
        break;
      }
    }
    if (!next) break;
    node = next;
  }
  if (node.type === 'property') return { path: pathOf(node.children?.[1] ?? node).slice(0, -1), mode: 'members' };
  // A key string: the change renames a member of the object that holds it.
  if (node.parent?.type === 'property' && node.parent.children?.[0] === node) {
    return { path: pathOf(node.parent.children?.[1] ?? node).slice(0, -1), mode: 'members' };
  }
  const exact = change.offset === node.offset && change.length === node.length;
  if (exact || node.type === 'string' || node.type === 'number' || node.type === 'boolean' || node.type === 'null' || node.type === 'array') {
    return { path: pathOf(node), mode: 'replace' };
  }
  return { path: pathOf(node), mode: 'members' };
}

function startsWith(path: Path, prefix: Path): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => p === path[i]);
}

/** The places where two values differ, as narrowly as possible. */
function differences(a: unknown, b: unknown, path: Path, out: { path: Path; member: boolean }[]): void {
  if (a === b) return;
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(k in a) || !(k in b)) out.push({ path: [...path, k], member: true });
      else differences(a[k], b[k], [...path, k], out);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((v, i) => differences(v, b[i], [...path, i], out));
    return;
  }
  if (typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b)) return;
  out.push({ path, member: false });
}

/** [root, ...path] of the innermost value strictly inside which `offset` lies. */
function commentPath(roots: (Node | undefined)[], offset: number): Path | undefined {
  for (let r = 0; r < roots.length; r++) {
    let node = roots[r];
    if (!node || offset <= node.offset || offset >= node.offset + node.length) continue;
    for (;;) {
      let next: Node | undefined;
      for (const child of node.children ?? []) {
        const value = child.type === 'property' ? child.children?.[1] : child;
        if (value && offset > value.offset && offset < value.offset + value.length) next = value;
      }
      if (!next) return [r, ...pathOf(node)];
      node = next;
    }
  }
  return undefined;
}

export interface FixOutcome {
  uri: string;
  title: string;
  problems: string[];
}

/**
 * Applies every edit group of a fix to its document and checks the result: it parses without new
 * errors, keeps every comment, and only values inside what the edits touch have changed.
 */
export function fixProblems(index: WorkspaceIndex, diagnostic: LintDiagnostic): FixOutcome[] {
  const outcomes: FixOutcome[] = [];
  for (const fix of diagnostic.fixes) {
    for (const group of fix.edits) {
      const problems: string[] = [];
      const doc = index.docs.get(group.uri);
      if (!doc) continue;
      const changes: TextChange[] = group.edits.map((e) => ({ offset: e.offset, length: e.length, content: e.newText }));
      const sorted = [...changes].sort((x, y) => x.offset - y.offset);
      for (let i = 1; i < sorted.length; i++) {
        if (sorted[i].offset < sorted[i - 1].offset + sorted[i - 1].length) problems.push('edits overlap');
      }
      const after = applyChanges(doc.text, changes);
      const parse = doc.kind === 'caseLines' ? parseJsonLines : parseJson;
      const before = doc.parsed;
      const reparsed = parse(after);

      const oldMessages = new Map<string, number>();
      for (const i of before.issues) oldMessages.set(i.message, (oldMessages.get(i.message) ?? 0) + 1);
      for (const i of reparsed.issues) {
        const left = oldMessages.get(i.message) ?? 0;
        if (left === 0) problems.push(`the fixed text has a new syntax error: ${i.message} at ${i.offset}`);
        else oldMessages.set(i.message, left - 1);
      }

      const oldTokens = tokens(doc.text, doc.kind === 'caseLines');
      const newTokens = tokens(after, doc.kind === 'caseLines');
      const span = changedSpan(oldTokens.values, newTokens.values, doc.text.length);
      const changed: Path[] = [];
      if (reparsed.roots.length !== before.roots.length) {
        problems.push(`the fix changes the number of values from ${before.roots.length} to ${reparsed.roots.length}`);
      } else {
        before.roots.forEach((root, r) => {
          const newRoot = reparsed.roots[r];
          if (!root.node || !newRoot.node) return;
          const inRoot = span && span.offset >= root.node.offset && span.offset <= root.node.offset + root.node.length;
          const zone = inRoot ? zoneOf(root.node, span) : undefined;
          const diffs: { path: Path; member: boolean }[] = [];
          differences(getNodeValue(root.node), getNodeValue(newRoot.node), [], diffs);
          // Renaming or removing one of two equal keys uncovers the other's value: that is the
          // member the edit touched, not a neighbour.
          const doubled = new Set<string>();
          const holder = zone?.mode === 'members' ? nodeAtPath(root.node, zone.path) : undefined;
          const seen = new Set<unknown>();
          for (const prop of holder?.type === 'object' ? (holder.children ?? []) : []) {
            const key = prop.children?.[0]?.value;
            if (seen.has(key)) doubled.add(String(key));
            seen.add(key);
          }
          for (const d of diffs) {
            changed.push([r, ...d.path]);
            const member = d.member || doubled.has(String(d.path[d.path.length - 1]));
            const ok =
              zone &&
              (zone.mode === 'replace' ? startsWith(d.path, zone.path) : member && d.path.length === zone.path.length + 1 && startsWith(d.path, zone.path));
            if (!ok) problems.push(`the fix changes ${JSON.stringify(d.path)}, outside what its edits touch`);
          }
        });
      }

      // A comment inside a value the fix replaces or removes goes with it; so does one that a removal
      // deletes together with the member it describes (the lines right above it, the rest of its
      // line: FORMAT §10, a removed label leaves no comment about it). Every other one stays.
      const kept = newTokens.comments.map((c) => c.text);
      for (const c of oldTokens.comments) {
        const where = commentPath(before.roots.map((x) => x.node), c.offset);
        if (where && changed.some((p) => startsWith(where, p))) continue;
        if (changed.length && changes.some((ch) => ch.content === '' && c.offset >= ch.offset && c.offset + c.text.length <= ch.offset + ch.length)) continue;
        const at = kept.indexOf(c.text);
        if (at < 0) problems.push(`the fix drops the comment ${JSON.stringify(c.text.slice(0, 80))}`);
        else kept.splice(at, 1);
      }
      outcomes.push({ uri: group.uri, title: fix.title, problems });
    }
  }
  return outcomes;
}

/**
 * What the reference model of a generated input says must come out (test/hostile/arbitraries.ts
 * `Oracle`): rule counts, the effective environment and which overrides land, or, for patterns,
 * that each is sized at least as large as re2js builds it and none over the budget is accepted.
 */
export function oracleProblems(diagnostics: readonly LintDiagnostic[], oracle: Oracle): string[] {
  const out: string[] = [];
  if (oracle.kind === 'counts') {
    for (const [rule, want] of Object.entries(oracle.counts)) {
      const got = diagnostics.filter((d) => d.code === rule).length;
      if (got !== want) out.push(`${rule}: ${got} findings, the reference model says ${want}`);
    }
  } else if (oracle.kind === 'overrides') {
    const overrides = overridesOf({ environment_overrides: Object.fromEntries(oracle.overrides) }, []);
    const landed = overrides.map((_, i) => overrideProblem(oracle.base, true, overrides, i) === undefined);
    if (JSON.stringify(landed) !== JSON.stringify(oracle.landed)) out.push(`overrides landed ${JSON.stringify(landed)}, built by hand ${JSON.stringify(oracle.landed)}`);
    const env = JSON.stringify(effectiveEnvironment(oracle.base, true, overrides));
    if (env !== JSON.stringify(oracle.environment)) out.push(`effective environment ${env.slice(0, 300)}, built by hand ${JSON.stringify(oracle.environment).slice(0, 300)}`);
    const unresolved = diagnostics.filter((d) => d.code === 'unresolved-reference').length;
    const nowhere = oracle.landed.filter((l, i) => !l && (oracle.overrides[i][0] === '' || oracle.overrides[i][0].startsWith('/'))).length;
    if (unresolved !== nowhere) out.push(`unresolved-reference: ${unresolved} findings, ${nowhere} overrides land nowhere`);
  } else {
    for (const p of oracle.patterns) {
      const c = compileLinear(p);
      if (c.ok && c.size > MAX_PROGRAM_SIZE) out.push(`pattern ${JSON.stringify(p.slice(0, 80))} accepted with ${c.size} instructions, over the budget`);
      let source: string;
      try {
        source = RE2JS.translateRegExp(p);
      } catch {
        continue;
      }
      const sized = programSize(source);
      // Built only where that is cheap: the point of sizing is not to build the large ones.
      if (sized > 5 * MAX_PROGRAM_SIZE) continue;
      try {
        const built = RE2JS.compile(source).programSize();
        if (sized < built) out.push(`pattern ${JSON.stringify(p.slice(0, 80))} sized ${sized} instructions, re2js builds ${built}`);
      } catch {
        // Not RE2 syntax: the linter reports it, which the other checks see.
      }
    }
  }
  return out;
}

/** Lints a generated input rooted at file:///ws and checks it against its reference model. */
export async function oracleCaseProblems(c: OracleCase): Promise<string[]> {
  const fs = memoryFileSystem(Object.fromEntries(Object.entries(c.files).map(([k, v]) => [`file:///ws/${k}`, v])));
  const loaded = await loadWorkspace(fs, ['file:///ws']);
  return oracleProblems(lintIndex(loaded.index).diagnostics, c.oracle);
}
