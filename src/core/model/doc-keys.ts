import { canonicalHash, canonicalizeUnder, fieldValue, hashText, isJsonObject, PLAIN_RUBRIC, rubricId, type Rubric } from './canonical';
import { addText, eachText, pushTo, removeText, sameItems, type TextSets } from '../text/multimap';
import { duplicateHint } from './duplicate';
import type { SuiteDocument } from './document';
import { parseToolReference } from './tools';
import { decodeLocationPath, normalizeUri, resolveTarget } from './uri';
import { environmentTarget, type CaseModel } from './workspace';

/** The kinds of shared key, each its keys' first letter: ids, families, signatures, what copies share. */
export type KeyKind = 'i' | 'f' | 's' | 'd';
export const KEY_KINDS: readonly KeyKind[] = ['i', 'f', 's', 'd'];

/** A shared key's kind (`f:F12` a family). */
export function kindOf(key: string): string {
  return key[0];
}

/** The keys one document holds, computed once per document object (see incremental.ts). */
export interface DocKeys {
  /** Shared with every other holder: `i:` ids, `f:` families, `s:` canonical signatures, `d:` cases' arm, task and signature (what copies share). */
  keys: Set<string>;
  /** The document as a reference target (its normalised URI). */
  self: string;
  /** The files its tool references, `environment` references and `injection_field` locations point into. */
  targets: Set<string>;
  /**
   * The targets it names only as an `environment` (no tool reference or label into them): the
   * environment's findings follow from this document's cases, but those of its other users do not.
   */
  environmentsOnly: Set<string>;
  /** seed_id links of its cases (id → seed), followed transitively for seed-chain loops. */
  seeds: [string, string][];
  /**
   * What the injection findings of other documents read of this one, as a text per case: each
   * case's id, arm, probe, tool entries, labels, environment reference and override pointers. An
   * edit that leaves it the same (a task, a signature, a tool output reworded) changes no other
   * document's injection findings (lint/incremental-injection.ts, `sameInjection`). Kept per case,
   * not joined: a case the edit kept has the same text object, and joining a thousand-case file's
   * texts was a fifth of its keys' cost.
   */
  injection: readonly string[];
}

/** Whether two versions of a document give other documents' injection findings the same to read. */
export function sameInjection(a: DocKeys, b: DocKeys): boolean {
  return sameItems(a.injection, b.injection);
}

/** Per document, with the rubric its signature keys were made under (their id, as `rubricId`). */
const keyCache = new WeakMap<SuiteDocument, { rubric: string; keys: DocKeys }>();

function targetOf(fromUri: string, ref: string): string | undefined {
  const parsed = parseToolReference(ref);
  if (!parsed) return undefined;
  try {
    return resolveTarget(fromUri, parsed.path);
  } catch {
    return undefined;
  }
}

/** The file part of an `injection_field` location (`path#/pointer`); none for `#/pointer`. */
function labelTarget(fromUri: string, label: string): string | undefined {
  const hash = label.indexOf('#');
  const path = decodeLocationPath(hash < 0 ? label : label.slice(0, hash));
  if (!path) return undefined;
  try {
    return resolveTarget(fromUri, path);
  } catch {
    return undefined;
  }
}

/** What one case adds to its document's keys, in the order they are added. */
interface CaseKeys {
  /** What it was made for: the case's file (references resolve against it) and the rubric's id. */
  uri: string;
  rubric: string;
  keys: string[];
  targets: string[];
  environment: string | undefined;
  seed: [string, string] | undefined;
  /** JSON text of what other files' injection findings read of the case. */
  injection: string;
}

/** The files a case value points into from `uri`: its tool references and labels, and its environment. */
function pointsOf(uri: string, v: CaseModel['value']): { targets: string[]; environment: string | undefined } {
  const targets: string[] = [];
  if (Array.isArray(v.tools)) {
    for (const entry of v.tools) {
      const t = typeof entry === 'string' ? targetOf(uri, entry) : undefined;
      if (t) targets.push(t);
    }
  }
  // An environment file's payloads count for its users (benign-contamination), and its
  // overrides are checked against it (unresolved-reference): its change reaches them.
  const environment = typeof v.environment === 'string' ? environmentTarget(uri, v.environment) : undefined;
  const labels = Array.isArray(v.injection_field) ? v.injection_field : [v.injection_field];
  for (const label of labels) {
    const t = typeof label === 'string' ? labelTarget(uri, label) : undefined;
    if (t) targets.push(t);
  }
  return { targets, environment };
}

/**
 * Whether a case points into one of `files` (normalised URIs, as `DocKeys.targets`): what its
 * document's targets hold, per case. Read from the case's keys when they were made for its file.
 */
export function pointsInto(c: CaseModel, files: ReadonlySet<string>): boolean {
  const kept = caseKeyCache.get(c.value);
  const { targets, environment } = kept && kept.uri === c.doc.uri ? kept : pointsOf(c.doc.uri, c.value);
  if (environment !== undefined && files.has(environment)) return true;
  for (const t of targets) if (files.has(t)) return true;
  return false;
}

/**
 * Per case value: an edit of a 500-case file keeps the values of the cases it did not touch
 * (text/unchanged.ts), so their keys (canonical signatures, resolved references) are not made
 * again. A case's keys depend on its value, its file and the rubric alone.
 */
const caseKeyCache = new WeakMap<object, CaseKeys>();

function caseKeys(uri: string, c: CaseModel, rubric: Rubric, id: string): CaseKeys {
  const v = c.value;
  const kept = caseKeyCache.get(v);
  if (kept && kept.uri === uri && kept.rubric === id) return kept;
  const keys: string[] = [];
  const injection = JSON.stringify([c.id, v.arm, v.probe, v.tools, v.injection_field, typeof v.environment === 'string' ? v.environment : v.environment !== undefined, isJsonObject(v.environment_overrides) ? Object.keys(v.environment_overrides) : v.environment_overrides]);
  if (c.id !== undefined) keys.push(`i:${c.id}`);
  if (typeof v.paired_with === 'string') keys.push(`i:${v.paired_with}`);
  let seed: [string, string] | undefined;
  if (typeof v.seed_id === 'string') {
    keys.push(`i:${v.seed_id}`);
    if (c.id !== undefined) seed = [c.id, v.seed_id];
  }
  if (c.family !== undefined) keys.push(`f:${c.family}`);
  const signature = fieldValue(v, 'correct_resolution_signature');
  const sig = canonicalHash(signature);
  const scored = id === '' ? sig : signature === undefined ? undefined : hashText(canonicalizeUnder(signature, rubric)!);
  if (scored !== undefined) keys.push(`s:${scored}`);
  // Copies always share their arm, task and signature, so that cheap key links every case that
  // may be a copy of this one (cases of one templated task stay apart by their signatures); the
  // canonical text of the whole case, built for every case of an edited file, was a tenth of an edit.
  keys.push(`d:${hashText(`${duplicateHint(v)}\u0000${sig ?? ''}`)}`);
  const { targets, environment } = pointsOf(uri, v);
  const out = { uri, rubric: id, keys, targets, environment, seed, injection };
  caseKeyCache.set(v, out);
  return out;
}

/**
 * A document's keys. `rubric`: the rubric signatures are keyed under (lint/incremental.ts,
 * `workspaceRubric`; FORMAT §3b): two signatures that only the rubric makes equal share a key, and
 * plain canonical equality implies rubric equality, so nothing a plain key linked comes apart.
 */
export function docKeys(doc: SuiteDocument, cases: readonly CaseModel[], rubric: Rubric = PLAIN_RUBRIC): DocKeys {
  const id = rubricId(rubric);
  const cached = keyCache.get(doc);
  if (cached && cached.rubric === id) return cached.keys;
  const keys = new Set<string>();
  const targets = new Set<string>();
  const environments = new Set<string>();
  const seeds: [string, string][] = [];
  const injection: string[] = [];
  for (const c of cases) {
    const k = caseKeys(doc.uri, c, rubric, id);
    injection.push(k.injection);
    for (const key of k.keys) keys.add(key);
    if (k.seed) seeds.push(k.seed);
    for (const t of k.targets) targets.add(t);
    if (k.environment) environments.add(k.environment);
  }
  const environmentsOnly = new Set<string>();
  for (const e of environments) {
    if (!targets.has(e)) environmentsOnly.add(e);
    targets.add(e);
  }
  const out = { keys, self: normalizeUri(doc.uri), targets, environmentsOnly, seeds, injection };
  keyCache.set(doc, { rubric: id, keys: out });
  return out;
}

/** The keys of each document as the linter reads them: a map, or the last run's with the changed documents' keys laid over it. */
export type KeysOf = Pick<ReadonlyMap<string, DocKeys>, 'get'>;

/**
 * The documents' keys turned around: who holds each key, who points at each target, which
 * document is each target, and whose seed links touch each id.
 */
export interface KeyTable {
  holders: Held;
  /**
   * Per document, the keys it holds that another document holds too. An edit asks who else holds
   * each of the edited file's keys; a file of a thousand cases holds thousands, nearly all its
   * own, and asking the table about each cost milliseconds an edit.
   */
  shared: Map<string, Set<string>>;
  users: Held;
  selves: Map<string, string>;
  seedLinks: Held;
}

/**
 * Documents by key: the one document's URI while a key has one (most ids, signatures and copies
 * are one document's), a set from the second on. A set per key was 30,000 sets at 10,000 cases.
 */
export type Held = TextSets<string>;

export function emptyKeyTable(): KeyTable {
  return { holders: new Map(), shared: new Map(), users: new Map(), selves: new Map(), seedLinks: new Map() };
}

function share(table: KeyTable, uri: string, key: string): void {
  let keys = table.shared.get(uri);
  if (!keys) table.shared.set(uri, (keys = new Set()));
  keys.add(key);
}

function unshare(table: KeyTable, uri: string, key: string): void {
  const keys = table.shared.get(uri);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) table.shared.delete(uri);
}

/** `uri` holds `key` (holders and shared keys alike). */
function addHolder(table: KeyTable, key: string, uri: string): void {
  const held = table.holders.get(key);
  if (!addText(table.holders, key, uri)) return;
  if (held === undefined) return;
  // The key now has a second holder (each of the two shares it), or a third or later (only the newcomer is new to it).
  if (typeof held === 'string' || held.size === 2) for (const other of typeof held === 'string' ? [held, uri] : held) share(table, other, key);
  else share(table, uri, key);
}

/** `uri` holds `key` no more. */
function removeHolder(table: KeyTable, key: string, uri: string): void {
  const held = table.holders.get(key);
  if (held === undefined || (typeof held !== 'string' && !held.has(uri))) return;
  removeText(table.holders, key, uri);
  if (typeof held === 'string') return;
  unshare(table, uri, key);
  // Its last holder holds it alone.
  if (held.size === 1) for (const last of held) unshare(table, last, key);
}

/** Adds (or with `drop`, removes) one document's keys; its targets, seeds and self only with `holders` false. */
export function enter(table: KeyTable, uri: string, k: DocKeys, drop = false, holders = true): void {
  const put = drop ? removeText : addText;
  if (holders) for (const key of k.keys) (drop ? removeHolder : addHolder)(table, key, uri);
  for (const t of k.targets) put(table.users, t, uri);
  for (const [id, seed] of k.seeds) {
    put(table.seedLinks, id, uri);
    put(table.seedLinks, seed, uri);
  }
  if (!drop) table.selves.set(k.self, uri);
  else if (table.selves.get(k.self) === uri) table.selves.delete(k.self);
}

/**
 * Moves one document's entries from its keys `was` to its keys `now`: only the keys that differ.
 * An edit changes a few of a suite file's thousand keys; dropping and adding them all was most of
 * the table's cost per edit.
 */
export function reenter(table: KeyTable, uri: string, was: DocKeys, now: DocKeys): void {
  for (const key of was.keys) if (!now.keys.has(key)) removeHolder(table, key, uri);
  for (const key of now.keys) if (!was.keys.has(key)) addHolder(table, key, uri);
  for (const t of was.targets) if (!now.targets.has(t)) removeText(table.users, t, uri);
  for (const t of now.targets) if (!was.targets.has(t)) addText(table.users, t, uri);
  // Seed links are few: moved whole.
  for (const [id, seed] of was.seeds) {
    removeText(table.seedLinks, id, uri);
    removeText(table.seedLinks, seed, uri);
  }
  for (const [id, seed] of now.seeds) {
    addText(table.seedLinks, id, uri);
    addText(table.seedLinks, seed, uri);
  }
  if (was.self !== now.self && table.selves.get(was.self) === uri) table.selves.delete(was.self);
  table.selves.set(now.self, uri);
}

const seedIndexes = new WeakMap<DocKeys, Map<string, string[]>>();

/**
 * The ids a document's seed links join to `id`, in the order of its links (both ends of each link).
 * An edit follows the links of every id it touches, and a suite file of a thousand variants holds
 * hundreds of links: scanning them all per id was quadratic in the file's size.
 */
export function seedLinksOf(k: DocKeys, id: string): readonly string[] | undefined {
  let byId = seedIndexes.get(k);
  if (!byId) {
    byId = new Map();
    for (const [a, b] of k.seeds) {
      pushTo(byId, a, b);
      pushTo(byId, b, a);
    }
    seedIndexes.set(k, byId);
  }
  return byId.get(id);
}

export function keyTable(keys: ReadonlyMap<string, DocKeys>): KeyTable {
  const table = emptyKeyTable();
  for (const [uri, k] of keys) enter(table, uri, k);
  return table;
}

/**
 * The key table of the previous run with the changed documents' new keys laid over it: who holds
 * a key, who points at a target, and which document a target is, as things stand now.
 */
export interface Links {
  /**
   * The documents other than the changed ones that hold a key. The changed documents are in every
   * set a neighbourhood builds from the start; asking each of their thousand-key sets about every
   * key the neighbourhood meets was tens of milliseconds of a tool edit that re-resolves 2,000 cases.
   */
  unchangedHoldersOf(key: string, visit: (uri: string) => void): void;
  /** The keys a document held, as of the last run, that another document held too. */
  sharedKeysOf(uri: string): ReadonlySet<string> | undefined;
  usersOf(target: string, visit: (uri: string) => void): void;
  docOf(target: string): string | undefined;
  /**
   * The changed documents' own overlay (their new targets, seed links and selves); not who holds
   * a key: a suite file holds a thousand keys, and an overlay of them was a thousand new sets per
   * edit.
   */
  fresh: Omit<KeyTable, 'holders' | 'shared'>;
}

export function links(table: KeyTable, keys: KeysOf, changed: ReadonlySet<string>, hasDoc: (uri: string) => boolean): Links {
  const fresh = emptyKeyTable();
  for (const uri of changed) {
    const k = keys.get(uri);
    if (k) enter(fresh, uri, k, false, false);
  }
  return {
    fresh,
    unchangedHoldersOf(key, visit) {
      // Asked for each of an edited file's thousand keys, most held by that file alone: no closure per key.
      const held = table.holders.get(key);
      if (held === undefined) return;
      if (typeof held === 'string') {
        if (!changed.has(held)) visit(held);
      } else for (const uri of held) if (!changed.has(uri)) visit(uri);
    },
    sharedKeysOf: (uri) => table.shared.get(uri),
    usersOf(target, visit) {
      eachText(table.users, target, (uri) => {
        if (!changed.has(uri)) visit(uri);
      });
      eachText(fresh.users, target, visit);
    },
    docOf(target) {
      const uri = fresh.selves.get(target) ?? table.selves.get(target);
      return uri !== undefined && hasDoc(uri) ? uri : undefined;
    },
  };
}
