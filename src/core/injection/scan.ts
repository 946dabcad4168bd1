import { isJsonObject } from '../model/canonical';
import type { ToolModel } from '../model/tools';
import type { JsonPath } from '../text/types';
import { pathStartsWith } from '../text/pointer';
import { detectText, isPayload, type Slot, type StringVerdict } from './detect';
import { topicStems } from './prose';
import type { VerdictCache } from './verdicts';
import { appendAll } from '../text/multimap';

/** A string the detector judged to be a payload, where it stands. */
export interface StringHit {
  uri: string;
  root: number;
  /** Path of the string from its document root. */
  path: JsonPath;
  /** Path of the keyword value that holds it (the `default`, the `enum` array, the description). */
  slotPath: JsonPath;
  slot: Slot;
  text: string;
  verdict: StringVerdict;
  /** The text is the key of the member at `path`, not its value: a finding points at the key. */
  key?: true;
}

/** A string of a tool that the detector judged to be a payload. */
export interface PayloadHit extends StringHit {
  tool: ToolModel;
}

export interface ScanOptions {
  scanDescriptions: boolean;
  /** Strings the config says are never payloads. */
  allowed: (text: string) => boolean;
  /** Verdicts shared across the tools of one scan. */
  verdicts?: VerdictCache;
}

/** Keywords whose value is a map of subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords whose value is one subschema (or, for `items`, an array of them in draft-07). */
const SCHEMA_ONE = ['items', 'additionalProperties', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
/** Keywords whose value is an array of subschemas. */
const SCHEMA_LIST = ['prefixItems', 'allOf', 'anyOf', 'oneOf'];

const SUBSCHEMA_KEYS = new Set([...SCHEMA_MAPS, ...SCHEMA_ONE, ...SCHEMA_LIST]);

const MAX_DEPTH = 200;

/**
 * A string to judge. Its path is kept as the keyword's path plus the steps below it and becomes
 * one array only for the strings that are hits: a tool has dozens of strings and rarely a hit.
 */
interface Candidate {
  slotPath: JsonPath;
  /** Steps from the keyword value down to the string (an enum index, keys of an object default). */
  rest: JsonPath;
  slot: Slot;
  text: string;
  siblingMax?: number;
  /** The text is the key of the member at `rest`. */
  key?: true;
}

const HERE: JsonPath = [];

/**
 * Keys that cannot carry a payload: a short run of ASCII word characters holds no sentence, no
 * markup, no hidden or encoded text (base64 of an instruction is longer). Most keys of a value are
 * such (`id`, `email`), and are not judged.
 */
const PLAIN_KEY = /^[\w$]{0,32}$/;

/** Whether an object key inside a payload-bearing value is text to judge (FORMAT §2: "scanned through"). */
export function judgedKey(key: string): boolean {
  return !PLAIN_KEY.test(key);
}

function stringLeaves(value: unknown, rest: JsonPath, slotPath: JsonPath, slot: Slot, out: Candidate[], siblingMax: number | undefined, depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string') out.push({ slotPath, rest, slot, text: value, siblingMax });
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, [...rest, i], slotPath, slot, out, undefined, depth + 1));
  else if (isJsonObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const at = [...rest, k];
      // A key inside a `default` object is text the agent reads as much as its values.
      if (judgedKey(k)) out.push({ slotPath, rest: at, slot, text: k, key: true });
      stringLeaves(v, at, slotPath, slot, out, undefined, depth + 1);
    }
  }
}

/** The two longest string lengths (and where the longest is), so each entry's siblings cost O(1). */
function longest(values: unknown[]): { first: number; at: number; second: number | undefined } | undefined {
  let first = -1;
  let at = -1;
  let second: number | undefined;
  values.forEach((v, i) => {
    if (typeof v !== 'string') return;
    if (v.length > first) {
      if (first >= 0) second = first;
      first = v.length;
      at = i;
    } else if (second === undefined || v.length > second) {
      second = v.length;
    }
  });
  return first < 0 ? undefined : { first, at, second };
}

function siblingMax(top: ReturnType<typeof longest>, index: number): number | undefined {
  if (!top) return undefined;
  return index === top.at ? top.second : top.first;
}

/** The longest string among enum and examples entries, the siblings of a `default` or `const`. */
function longestEntry(...lists: unknown[][]): number | undefined {
  let max = -1;
  for (const list of lists) for (const v of list) if (typeof v === 'string' && v.length > max) max = v.length;
  return max < 0 ? undefined : max;
}

const VALUE_KEYS = ['default', 'const'] as const;
const LIST_KEYS = ['enum', 'examples'] as const;
const TEXT_KEYS = ['description', 'title'] as const;

/** Collects the payload-bearing strings of a parameter schema (FORMAT §2), keyword by keyword. */
function walkSchema(schema: unknown, path: JsonPath, out: Candidate[], descriptions: boolean, depth: number): void {
  if (!isJsonObject(schema) || depth > MAX_DEPTH) return;
  for (const key of VALUE_KEYS) {
    if (!(key in schema)) continue;
    const v = schema[key];
    const shortSiblings = typeof v === 'string' ? longestEntry(Array.isArray(schema.enum) ? schema.enum : HERE, Array.isArray(schema.examples) ? schema.examples : HERE) : undefined;
    stringLeaves(v, HERE, [...path, key], key, out, shortSiblings, depth + 1);
  }
  for (const key of LIST_KEYS) {
    const v = schema[key];
    if (Array.isArray(v)) {
      const top = longest(v);
      const slotPath = [...path, key];
      v.forEach((item, i) => stringLeaves(item, [i], slotPath, key, out, typeof item === 'string' ? siblingMax(top, i) : undefined, depth + 1));
    } else if (v !== undefined) {
      stringLeaves(v, HERE, [...path, key], key, out, undefined, depth + 1);
    }
  }
  if (descriptions) {
    for (const key of TEXT_KEYS) {
      const v = schema[key];
      if (typeof v === 'string') out.push({ slotPath: [...path, key], rest: HERE, slot: key, text: v });
    }
  }
  // Parsed objects have no prototype and answer each lookup from a hash table: look for the twenty
  // subschema keywords one by one only in the schemas that have some (most are leaves).
  let nested = false;
  for (const key in schema) {
    if (SUBSCHEMA_KEYS.has(key)) {
      nested = true;
      break;
    }
  }
  if (!nested) return;
  for (const key of SCHEMA_MAPS) {
    const m = schema[key];
    if (isJsonObject(m)) for (const name in m) walkSchema(m[name], [...path, key, name], out, descriptions, depth + 1);
  }
  for (const key of SCHEMA_ONE) {
    const sub = schema[key];
    if (Array.isArray(sub)) sub.forEach((s, i) => walkSchema(s, [...path, key, i], out, descriptions, depth + 1));
    else if (isJsonObject(sub)) walkSchema(sub, [...path, key], out, descriptions, depth + 1);
  }
  for (const key of SCHEMA_LIST) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((s, i) => walkSchema(s, [...path, key, i], out, descriptions, depth + 1));
  }
}

/** Where `rest` (steps below a schema) lands, by the keywords `walkSchema` follows. */
function placeInSchema(schema: unknown, rest: JsonPath, depth: number): 'keyword' | 'text' | undefined {
  if (!isJsonObject(schema) || rest.length === 0 || depth > MAX_DEPTH) return undefined;
  const key = rest[0];
  if (typeof key !== 'string') return undefined;
  if ((VALUE_KEYS as readonly string[]).includes(key) || (LIST_KEYS as readonly string[]).includes(key)) return key in schema ? 'keyword' : undefined;
  if ((TEXT_KEYS as readonly string[]).includes(key)) return rest.length === 1 && typeof schema[key] === 'string' ? 'text' : undefined;
  const sub = schema[key];
  if (SCHEMA_MAPS.includes(key) || SCHEMA_LIST.includes(key) || (SCHEMA_ONE.includes(key) && Array.isArray(sub))) {
    if (rest.length < 2 || (!isJsonObject(sub) && !Array.isArray(sub))) return undefined;
    return placeInSchema((sub as Record<string | number, unknown>)[rest[1]], rest.slice(2), depth + 1);
  }
  if (SCHEMA_ONE.includes(key)) return placeInSchema(sub, rest.slice(1), depth + 1);
  return undefined;
}

/**
 * Where a path of a tool's document lies among the places the detector reads (FORMAT §2): in a
 * payload-bearing keyword's value (`keyword`), at a description or title (`text`, read only while
 * descriptions are scanned), or elsewhere (undefined: no payload is looked for there).
 */
export function payloadPlace(tool: ToolModel, path: JsonPath): 'keyword' | 'text' | undefined {
  for (const text of [tool.descriptionPath, tool.titlePath]) if (text && path.length === text.length && pathStartsWith(path, text)) return 'text';
  if (tool.schemaPath && pathStartsWith(path, tool.schemaPath)) {
    const place = placeInSchema(tool.schema, path.slice(tool.schemaPath.length), 0);
    if (place) return place;
  }
  if (tool.outputSchemaPath && pathStartsWith(path, tool.outputSchemaPath)) return placeInSchema(tool.outputSchema, path.slice(tool.outputSchemaPath.length), 0);
  return undefined;
}

function candidates(tool: ToolModel, descriptions: boolean): Candidate[] {
  const out: Candidate[] = [];
  if (descriptions) {
    if (tool.description !== undefined && tool.descriptionPath) out.push({ slotPath: tool.descriptionPath, rest: HERE, slot: 'description', text: tool.description });
    if (tool.title !== undefined && tool.titlePath) out.push({ slotPath: tool.titlePath, rest: HERE, slot: 'title', text: tool.title });
  }
  if (tool.schemaPath) walkSchema(tool.schema, tool.schemaPath, out, descriptions, 0);
  // FORMAT §2: an MCP output schema's payload-bearing keywords are scanned as a parameter schema's.
  if (tool.outputSchemaPath) walkSchema(tool.outputSchema, tool.outputSchemaPath, out, descriptions, 0);
  return out;
}

/** Every string of a tool the detector reads, with where it sits. */
export function toolCandidates(tool: ToolModel, descriptions: boolean): { path: JsonPath; slotPath: JsonPath; slot: Slot; text: string; siblingMax?: number; key?: true }[] {
  return candidates(tool, descriptions).map((c) => ({ path: [...c.slotPath, ...c.rest], slotPath: [...c.slotPath], slot: c.slot, text: c.text, siblingMax: c.siblingMax, ...(c.key ? { key: c.key } : {}) }));
}

const NAME_WEIGHT = 1000;

/** Property names whose values are prose by design: a sentence there is not out of place. */
const FREE_TEXT = /prompt|instruction|query|question|message|text|content|body|comment|note|task|goal|description|summary|request|command|input|sentence|phrase|utterance|statement/i;
/** Of those, the ones that carry requests by design (to a model, an engine, a search): any request fits there. */
const REQUEST_TEXT = /prompt|instruction|query|question|message|task|goal|request|command|input|utterance/i;

/** The name of the property the keyword sits in, when it sits in one. */
function propertyName(slotPath: JsonPath): string | undefined {
  for (let i = slotPath.length - 2; i >= 1; i--) {
    if (slotPath[i - 1] === 'properties' && typeof slotPath[i] === 'string') return slotPath[i] as string;
  }
  return undefined;
}

function propertyNames(schema: unknown, out: string[], depth: number): void {
  if (depth > MAX_DEPTH) return;
  if (Array.isArray(schema)) schema.forEach((s) => propertyNames(s, out, depth + 1));
  else if (isJsonObject(schema)) {
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'properties' && isJsonObject(v)) appendAll(out, Object.keys(v));
      if (k !== 'default' && k !== 'examples' && k !== 'const' && k !== 'enum') propertyNames(v, out, depth + 1);
    }
  }
}

/** What the tool is about: stems of its names (weighted high) and of its descriptions (counted per text). */
function toolTopic(tool: ToolModel, candidates: Candidate[]): Map<string, number> {
  const topic = new Map<string, number>();
  const names = [tool.name, tool.title ?? ''];
  propertyNames(tool.schema, names, 0);
  for (const s of topicStems(names)) topic.set(s, NAME_WEIGHT);
  for (const c of candidates) {
    if (c.slot !== 'description' && c.slot !== 'title') continue;
    for (const s of topicStems([c.text.length > 4096 ? c.text.slice(0, 4096) : c.text])) topic.set(s, (topic.get(s) ?? 0) + 1);
  }
  return topic;
}

/** A string of a tool with the detector's verdict on it, payload or not. */
export interface JudgedString {
  path: JsonPath;
  slotPath: JsonPath;
  slot: Slot;
  text: string;
  verdict: StringVerdict;
}

/**
 * Runs the detector over one tool's strings. Each string is judged against the rest of its own
 * tool (its names and other texts) and nothing else, so a tool's verdicts never depend on which
 * other files are open.
 */
function judge(tool: ToolModel, options: ScanOptions, keep: (v: StringVerdict) => boolean, take: (c: Candidate, v: StringVerdict) => void): void {
  const strings = candidates(tool, options.scanDescriptions);
  // Only a verdict that weighs a sentence against the tool reads the topic; most tools have none.
  let topic: Map<string, number> | undefined;
  const topicOf = () => (topic ??= toolTopic(tool, strings));
  for (const c of strings) {
    if (options.allowed(c.text)) continue;
    const property = propertyName(c.slotPath);
    const freeText = property !== undefined && FREE_TEXT.test(property);
    const ctx = { slot: c.slot, siblingMax: c.siblingMax, freeText, asks: freeText && REQUEST_TEXT.test(property), ownTool: tool.name, topic: topicOf };
    const verdict = options.verdicts ? options.verdicts.verdict(c.text, ctx) : detectText(c.text, ctx);
    if (keep(verdict)) take(c, verdict);
  }
}

export function scanTool(tool: ToolModel, options: ScanOptions): PayloadHit[] {
  const hits: PayloadHit[] = [];
  judge(tool, options, isPayload, (c, verdict) =>
    hits.push({ tool, uri: tool.uri, root: tool.root, path: [...c.slotPath, ...c.rest], slotPath: [...c.slotPath], slot: c.slot, text: c.text, verdict, ...(c.key ? { key: c.key } : {}) }),
  );
  return hits;
}

/** Every string of a tool with its verdict, payload or not (for measuring the detector). */
export function judgeTool(tool: ToolModel, options: ScanOptions): JudgedString[] {
  const out: JudgedString[] = [];
  // The detector's measure is of strings at their paths; a key shares its member's path.
  judge(tool, options, () => true, (c, verdict) => {
    if (!c.key) out.push({ path: [...c.slotPath, ...c.rest], slotPath: [...c.slotPath], slot: c.slot, text: c.text, verdict });
  });
  return out;
}
