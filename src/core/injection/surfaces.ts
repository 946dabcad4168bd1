import { isJsonObject } from '../model/canonical';
import type { EnvironmentFile } from '../model/environment';
import { overridesOf, replacedByOverrides, type Override } from '../model/environment';
import type { CaseModel } from '../model/workspace';
import type { JsonPath } from '../text/types';
import { sameItems, trimmed } from '../text/multimap';
import { detectText, isPayload, withSignal, type StringVerdict } from './detect';
import { affinityOf, affinitySignal, requestsIn, type AffinityTool, type AffinityRequest } from './affinity';
import { fold } from './prose';
import { toolId, type ToolModel } from '../model/tools';
import { isBidiControl, isCombiningMark, isLatinLetter, isTagChar } from './chars';
import { judgedKey, type StringHit } from './scan';
import type { VerdictCache } from './verdicts';

/**
 * The payload surfaces beyond tool schemas (FORMAT §3a): tool outputs, environments (files, inline,
 * overrides) and the task. Their strings are data written for people, judged in the detector's
 * `data` slot; a task is an instruction by nature, so only hidden text in it is a finding.
 */
export type Surface = 'tool_output' | 'environment' | 'environment_override' | 'inline_environment' | 'task';

/** `slotPath` is the surface value that holds the string: the output, the override value, the environment, the task. */
export interface SurfaceHit extends StringHit {
  surface: Surface;
  /** The case whose own field holds the string; undefined in an environment file, which is shared. */
  case?: CaseModel;
}

export interface SurfaceScanOptions {
  allowed: (text: string) => boolean;
  /** The config's options as text: a cached scan stands while they are the same. */
  key: string;
  verdicts?: VerdictCache;
}

const MAX_DEPTH = 200;
const DATA_CONTEXT = { slot: 'data' as const };

/**
 * The text's own verdict (shared by every case that holds the same text), then, when it is no
 * payload by itself, its affinity with the tools of the case that holds it.
 */
function judge(text: string, options: SurfaceScanOptions, tools: readonly AffinityTool[], betweenPeople = false): StringVerdict | undefined {
  if (options.allowed(text)) return undefined;
  const verdict = options.verdicts ? options.verdicts.verdict(text, DATA_CONTEXT) : detectText(text, DATA_CONTEXT);
  if (isPayload(verdict)) return verdict;
  const affinity = tools.length ? affinitySignal(fold(text), tools, betweenPeople) : undefined;
  if (!affinity) return undefined;
  const judged = withSignal(verdict, affinity);
  return isPayload(judged) ? judged : undefined;
}

const NO_TOOLS: readonly AffinityTool[] = [];

/** Fields of a message that name who wrote it: `from`, `sender_email`, `author`, `from_name`. */
const SENDER_KEY = /^(from|sender|author)([_-]?(name|email|address|addr))?$/i;
/** An address, alone or after a display name: "bob@example.com", "Bob Smith <bob.smith@example.com>". */
const ADDRESS = /^(?:[^<>@]*<)?([^\s@<>]+)@[^\s@<>]+\.[a-z]{2,}>?$/i;
/** A local part made of a name: "bob", "bob.smith", "d_whitfield"; no digits, at most three parts. */
const NAME_PART = /^[a-z]+([._-][a-z]+){0,2}$/i;
/** "Bob", "Dana Whitfield": one to four capitalised words. */
const NAME = /^\p{Lu}[\p{L}'.-]*(\s+\p{Lu}[\p{L}'.-]*){0,3}$/u;
/** Parts of a role or service mailbox, which no one person writes from: "daily.news@", "no-reply@", "billing@". */
const ROLE_PARTS = new Set(
  `news newsletter newsletters noreply no reply donotreply info support team admin administrator notifications notification alerts alert
  billing sales marketing partner partners research hello contact service services updates update digest mailer postmaster webmaster
  security system bot robot office help helpdesk accounts account orders shop store jobs careers hr press media feedback`.split(/\s+/),
);

/** A person's address or name: the writer of a message is someone, not a service. */
function isPerson(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const t = v.trim();
  if (!t || t.length > 120) return false;
  const address = ADDRESS.exec(t);
  if (address) return NAME_PART.test(address[1]) && !address[1].toLowerCase().split(/[._-]/).some((p) => ROLE_PARTS.has(p));
  return NAME.test(t);
}

/**
 * Whether an object is a message a person wrote: its sender or author field names a person (FORMAT
 * §3a: "a request between people there … is not a payload"). A polite request in its strings is put
 * to its reader by that person, so it is no tool affinity. A sender that is a service's mailbox
 * (a news mailbox, a partner address with digits) frames nothing: InjecAgent's attacks arrive so.
 */
export function messageFraming(value: Record<string, unknown>): boolean {
  for (const k in value) {
    if (!SENDER_KEY.test(k)) continue;
    const v = value[k];
    if (isPerson(v) || (isJsonObject(v) && (isPerson(v.email) || isPerson(v.address) || isPerson(v.name)))) return true;
  }
  return false;
}

/**
 * Whether an environment payload (`path` from the environment's root) is gone from a case's
 * effective environment: an override at or above its value replaced it. A key stays when only its
 * own value is replaced: its object must be.
 */
export function replacedHit(hit: { path: JsonPath; key?: true }, overrides: readonly Override[]): boolean {
  return replacedByOverrides(hit.key ? hit.path.slice(0, -1) : hit.path, overrides);
}

type RawHit = Omit<SurfaceHit, 'case'>;

/** Every string of `value` at any depth, judged as data; `path` is mutated as the walk goes and copied for hits only. */
function scanValue(value: unknown, path: JsonPath, slotPath: JsonPath, surface: Surface, uri: string, root: number, options: SurfaceScanOptions, out: RawHit[], depth: number, tools: readonly AffinityTool[], betweenPeople = false): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') {
    const verdict = judge(value, options, tools, betweenPeople);
    if (verdict) out.push({ surface, uri, root, path: [...path], slotPath, slot: 'data', text: value, verdict });
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      scanValue(value[i], path, slotPath, surface, uri, root, options, out, depth + 1, tools);
      path.pop();
    }
  } else if (isJsonObject(value)) {
    const message = tools.length > 0 && messageFraming(value);
    for (const k in value) {
      path.push(k);
      // A key is data the agent reads too (`{"<SYSTEM>…": true}`); judged by its text alone, as no
      // request between people is spelt as a key.
      if (judgedKey(k)) {
        const verdict = judge(k, options, NO_TOOLS);
        if (verdict) out.push({ surface, uri, root, path: [...path], slotPath, slot: 'data', text: k, verdict, key: true });
      }
      scanValue(value[k], path, slotPath, surface, uri, root, options, out, depth + 1, tools, message);
      path.pop();
    }
  }
}

const fileScans = new WeakMap<EnvironmentFile, { key: string; hits: SurfaceHit[] }>();

/**
 * Every string of an environment file, scanned once per file object (the same object while the
 * file's text is unchanged), however many cases share it and whatever they override.
 */
export function scanEnvironmentFile(file: EnvironmentFile, options: SurfaceScanOptions): SurfaceHit[] {
  const cached = fileScans.get(file);
  if (cached && cached.key === options.key) return cached.hits;
  const out: RawHit[] = [];
  if (!file.broken) scanValue(file.value, [], [], 'environment', file.doc.uri, 0, options, out, 0, NO_TOOLS);
  fileScans.set(file, { key: options.key, hits: out });
  return out;
}

/** Any character hidden text is made of (tags as surrogate pairs): most tasks have none. */
const HIDDEN_CANDIDATE = /[\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]|\udb40[\udc00-\udc7f]/;

/** Hidden text as FORMAT §3a defines it, and only that: what a task is scanned for. */
export function hiddenText(text: string): StringVerdict | undefined {
  if (!HIDDEN_CANDIDATE.test(text)) return undefined;
  let tags = 0;
  let bidi = 0;
  let zeroWidth = 0;
  let tagText = '';
  let visible = '';
  const latin = (ch: string | undefined) => ch !== undefined && isLatinLetter(ch.codePointAt(0)!);
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i].codePointAt(0)!;
    if (isTagChar(cp)) {
      tags++;
      if (cp >= 0xe0020 && cp <= 0xe007e) tagText += String.fromCharCode(cp - 0xe0000);
      continue;
    }
    if (isBidiControl(cp)) {
      bidi++;
      continue;
    }
    if (cp === 0x200b || cp === 0x200c || cp === 0x200d || cp === 0x2060 || cp === 0xfeff) {
      // Between two Latin letters (a run of several counts once), it splits a word without showing.
      let j = i + 1;
      while (j < chars.length && /[\u200b-\u200d\u2060\ufeff]/.test(chars[j])) j++;
      let k = i - 1;
      while (k > 0 && isCombiningMark(chars[k].codePointAt(0)!)) k--;
      if (latin(chars[k]) && latin(chars[j])) zeroWidth++;
      i = j - 1;
      continue;
    }
    visible += chars[i];
  }
  if (!tags && !bidi && !zeroWidth) return undefined;
  const signals = [];
  if (tags) signals.push({ id: 'hidden-tags', weight: 1, explanation: 'carries invisible Unicode tag characters (U+E0000–E007F)' });
  if (bidi) signals.push({ id: 'bidi-control', weight: 1, explanation: 'contains bidirectional control characters that reorder what is shown' });
  if (zeroWidth) signals.push({ id: 'zero-width', weight: 1, explanation: 'splits words with zero-width characters' });
  return { score: signals.length, signals, hidden: true, decoded: tagText.trim() ? tagText : visible };
}

/** A scan kept while the config's options and the case's resolved tools are the same. */
interface KeptScan<H> {
  key: string;
  tools: readonly ToolModel[];
  hits: H[];
}

const caseScans = new WeakMap<object, KeptScan<RawHit>>();
const caseHits = new WeakMap<CaseModel, KeptScan<SurfaceHit>>();

/** The tools a case's references and inline entries resolved to, in order. */
export function caseTools(c: CaseModel): ToolModel[] {
  const out: ToolModel[] = [];
  for (const u of c.tools) if (u.tool) out.push(u.tool);
  return out;
}

/** Whether two lists hold the same tool models in the same order. */
export function sameTools(a: readonly ToolModel[], b: readonly ToolModel[]): boolean {
  return sameItems(a, b);
}

/** Whether `tools` are what the case's tool entries resolve to now (`caseTools`), without building that list. */
function resolvesTo(c: CaseModel, tools: readonly ToolModel[]): boolean {
  let i = 0;
  for (const u of c.tools) if (u.tool && u.tool !== tools[i++]) return false;
  return i === tools.length;
}

/**
 * The payloads in a case's own surfaces: `tool_outputs[*].output`, an inline `environment`, the
 * values of `environment_overrides`, hidden text in `task`. A tool output is also judged against the
 * case's other tools (tool affinity), the environments against all of them. Kept per case value
 * (the same object while its document is unchanged) and its resolved tools: its cost follows the
 * case's own fields, never the size of an environment file it references.
 */
export function scanCaseSurfaces(c: CaseModel, options: SurfaceScanOptions): SurfaceHit[] {
  let raw = caseScans.get(c.value);
  // A lint asks this of every case it reads, and nearly every case has no payload: that answer
  // comes from the value's scan alone, with nothing built to ask it.
  if (raw && raw.key === options.key && resolvesTo(c, raw.tools)) {
    if (raw.hits.length === 0) return NO_HITS;
    const kept = caseHits.get(c);
    if (kept && kept.key === options.key && sameTools(kept.tools, raw.tools)) return kept.hits;
  }
  // Kept with the case's scans.
  const tools = trimmed(caseTools(c));
  if (!raw || raw.key !== options.key || !sameTools(raw.tools, tools)) {
    const out: RawHit[] = [];
    const v = c.value;
    const uri = c.doc.uri;
    if (Array.isArray(v.tool_outputs)) {
      v.tool_outputs.forEach((entry, i) => {
        if (!isJsonObject(entry) || !('output' in entry)) return;
        const slotPath = c.path.concat('tool_outputs', i, 'output');
        // The tool that returned the output may speak of its own work; the others may not be asked for.
        const others = typeof entry.tool === 'string' ? tools.filter((t) => t.name !== entry.tool) : tools;
        scanValue(entry.output, [...slotPath], slotPath, 'tool_output', uri, c.root, options, out, 0, others);
      });
    }
    const overrides = overridesOf(v, c.path);
    if (v.environment !== undefined && typeof v.environment !== 'string') {
      const slotPath = c.path.concat('environment');
      const from = out.length;
      scanValue(v.environment, [...slotPath], slotPath, 'inline_environment', uri, c.root, options, out, 0, tools);
      // FORMAT §3a scans the effective environment: a string the case's own overrides replace is
      // text the agent never sees, as for an environment file's (replacedByOverrides).
      if (overrides.length && out.length > from) {
        const live = out.splice(from).filter((h) => !replacedHit({ path: h.path.slice(slotPath.length), key: h.key }, overrides));
        for (const h of live) out.push(h);
      }
    }
    for (const o of overrides) scanValue(o.value, [...o.path], o.path, 'environment_override', uri, c.root, options, out, 0, tools);
    if (typeof v.task === 'string' && !options.allowed(v.task)) {
      const verdict = hiddenText(v.task);
      const path = c.path.concat('task');
      if (verdict) out.push({ surface: 'task', uri, root: c.root, path, slotPath: path, slot: 'data', text: v.task, verdict });
    }
    raw = { key: options.key, tools, hits: trimmed(out) };
    caseScans.set(c.value, raw);
  }
  // Nearly every case has no payload of its own: one shared empty answer, nothing kept per case.
  if (raw.hits.length === 0) return NO_HITS;
  // `case` first: added after a spread, it gave every hit a hidden class of its own (lint/lint.ts, runRule).
  const hits = raw.hits.map((h) => ({ case: c, ...h }));
  caseHits.set(c, { key: options.key, tools, hits });
  return hits;
}

const NO_HITS: SurfaceHit[] = [];

/**
 * The strings of a shared environment file that are payloads only for a case with the right tools:
 * plain requests for what one of its tools does. Found per case, since the file is shared by cases
 * with different tools; the file's own payloads (`scanEnvironmentFile`) count for every user.
 */
export function environmentAffinity(file: EnvironmentFile, c: CaseModel, options: SurfaceScanOptions): SurfaceHit[] {
  const tools = caseTools(c);
  if (!tools.length || file.broken) return [];
  const found = affinityHits(file, tools, options);
  return found.length ? found.map((h) => ({ case: c, ...h })) : [];
}

/** An environment's payload for the users of one list of tools, before it is given to a case. */
type AffinityHit = Omit<SurfaceHit, 'case'>;

/**
 * Lists of tools kept per environment file; past this many the least recently used is judged again
 * when it comes back. Cases that each pick two of ten tools make 90 lists: a bound of 64 judged every
 * case again on every lint.
 */
const MAX_TOOL_LISTS = 4096;
const affinityByTools = new WeakMap<EnvironmentFile, { key: string; lists: Map<string, AffinityHit[]> }>();

/** A number per tool model, so a list of tools has a text key (a changed tool file makes new models). */
function toolListKey(tools: readonly ToolModel[]): string {
  let key = '';
  for (const t of tools) key += `${toolId(t)},`;
  return key;
}

/**
 * The strings of an environment file that ask for what one of `tools` does. They depend on the file
 * and the tools alone, and the cases of one task share their tools: an AgentDojo suite judged every
 * request of its environment against every case's tools again, on every edit of a case file.
 */
function affinityHits(file: EnvironmentFile, tools: readonly ToolModel[], options: SurfaceScanOptions): AffinityHit[] {
  let kept = affinityByTools.get(file);
  if (!kept || kept.key !== options.key) affinityByTools.set(file, (kept = { key: options.key, lists: new Map() }));
  const listKey = toolListKey(tools);
  const known = kept.lists.get(listKey);
  if (known) {
    kept.lists.delete(listKey);
    kept.lists.set(listKey, known);
    return known;
  }
  const hits: AffinityHit[] = [];
  for (const r of requestStrings(file, options)) {
    const affinity = affinityOf(r.requests, tools);
    if (!affinity) continue;
    const verdict = withSignal(r.verdict, affinity);
    if (isPayload(verdict)) hits.push({ surface: 'environment', uri: file.doc.uri, root: 0, path: r.path, slotPath: [], slot: 'data', text: r.text, verdict });
  }
  if (kept.lists.size >= MAX_TOOL_LISTS) kept.lists.delete(kept.lists.keys().next().value as string);
  kept.lists.set(listKey, hits);
  return hits;
}

interface RequestString {
  path: JsonPath;
  text: string;
  /** What it asks for, found once: each case's tools are held against it. */
  requests: readonly AffinityRequest[];
  verdict: StringVerdict;
}

const fileRequests = new WeakMap<EnvironmentFile, { key: string; list: RequestString[] }>();

/** The strings of an environment file that open with a request and are no payload by themselves, once per file. */
function requestStrings(file: EnvironmentFile, options: SurfaceScanOptions): RequestString[] {
  const kept = fileRequests.get(file);
  if (kept && kept.key === options.key) return kept.list;
  const list: RequestString[] = [];
  const walk = (value: unknown, path: JsonPath, depth: number, betweenPeople: boolean): void => {
    if (depth > MAX_DEPTH) return;
    if (typeof value === 'string') {
      if (options.allowed(value)) return;
      const requests = requestsIn(fold(value), betweenPeople);
      if (!requests.length) return;
      const verdict = options.verdicts ? options.verdicts.verdict(value, DATA_CONTEXT) : detectText(value, DATA_CONTEXT);
      if (!isPayload(verdict)) list.push({ path: [...path], text: value, requests, verdict });
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...path, i], depth + 1, false));
    } else if (isJsonObject(value)) {
      const message = messageFraming(value);
      for (const k in value) walk(value[k], [...path, k], depth + 1, message);
    }
  };
  walk(file.value, [], 0, false);
  fileRequests.set(file, { key: options.key, list });
  return list;
}

/** How messages name where a surface payload sits. */
export function surfaceName(hit: SurfaceHit): string {
  switch (hit.surface) {
    case 'tool_output':
      return 'a tool output';
    case 'environment':
      return 'an environment file';
    case 'environment_override':
      return 'an environment override';
    case 'inline_environment':
      return 'the inline environment';
    default:
      return 'the task (hidden text)';
  }
}
