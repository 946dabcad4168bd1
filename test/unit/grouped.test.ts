import assert from 'node:assert/strict';
import type { CaseModel } from '../../src/core';
import { regroup, type DocCases, type Grouping } from '../../src/core/model/grouped';
import { rng, type Rng } from '../helpers';

/**
 * regroup against a from-scratch grouping: random workspaces, random changes that keep some
 * models (as an edit keeps every case it did not touch) and replace, add or drop others.
 */

/** A model as the grouping reads it: its document and its keys (a key twice: two entries, as a case naming one tool twice). */
interface Fake {
  doc: { uri: string };
  keys: string[];
}

interface Entry {
  c: CaseModel;
  n: number;
}

const asCase = (f: Fake) => f as unknown as CaseModel;
const keysOf = (c: CaseModel) => (c as unknown as Fake).keys;

const GROUPING: Grouping<string, Entry> = {
  keys: (c, visit) => {
    for (const k of keysOf(c)) visit(k);
  },
  entries: (c, add) => keysOf(c).forEach((k, n) => add(k, { c, n })),
  caseOf: (e) => e.c,
};

function scratch(cases: readonly CaseModel[]): Map<string, Entry[]> {
  const map = new Map<string, Entry[]>();
  for (const c of cases) GROUPING.entries(c, (k, v) => (map.get(k) ?? map.set(k, []).get(k)!).push(v));
  return map;
}

const KEYS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

function fake(r: Rng, uri: string): CaseModel {
  return asCase({ doc: { uri }, keys: Array.from({ length: r.int(3) }, () => r.pick(KEYS)) });
}

/** A new list for a document: most models kept, in order; some replaced, some added, some dropped, now and then all new or two swapped. */
function change(r: Rng, uri: string, before: readonly CaseModel[]): CaseModel[] {
  if (r.chance(0.1)) return Array.from({ length: r.int(6) }, () => fake(r, uri));
  // As many cases, new models here and there (an edited tool file's users): often with the keys
  // they had, so that only their entries change, sometimes with other keys.
  if (r.chance(0.35)) return before.map((c) => (r.chance(0.6) ? c : asCase({ doc: { uri }, keys: r.chance(0.7) ? [...keysOf(c)] : keysOf(fake(r, uri)) })));
  const after: CaseModel[] = [];
  for (const c of before) {
    const roll = r.int(10);
    if (roll === 0) continue;
    if (roll === 1) after.push(fake(r, uri));
    else after.push(c);
    if (roll === 2) after.push(fake(r, uri));
  }
  if (r.chance(0.2)) after.unshift(fake(r, uri));
  if (r.chance(0.1) && after.length > 1) {
    // Two kept models trading places: regroup must not assume a kept model keeps its place.
    const i = r.int(after.length);
    const j = r.int(after.length);
    [after[i], after[j]] = [after[j], after[i]];
  }
  return after;
}

describe('regroup', () => {
  it('gives a from-scratch grouping after changes that keep some models and replace others', () => {
    let reordered = 0;
    let kept = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const r = rng(seed);
      const uris = Array.from({ length: 1 + r.int(4) }, (_, i) => `file:///ws/s${i}.litmus.json`);
      let byDoc = new Map(uris.map((uri) => [uri, Array.from({ length: r.int(r.chance(0.3) ? 30 : 8) }, () => fake(r, uri))]));
      const all = () => [...byDoc.values()].flat();
      let map = scratch(all());
      const rank = (uri: string) => uris.indexOf(uri);
      for (let step = 0; step < 6; step++) {
        const changed = new Map<string, DocCases>();
        const next = new Map(byDoc);
        for (const uri of uris) {
          if (!r.chance(0.4)) continue;
          const before = byDoc.get(uri)!;
          const after = change(r, uri, before);
          changed.set(uri, { before, after });
          next.set(uri, after);
          if (after.some((c) => before.includes(c))) kept++;
        }
        if (!changed.size) continue;
        byDoc = next;
        const cases = all();
        const got = regroup(map, GROUPING, changed, rank, cases);
        const want = scratch(cases);
        const where = `seed ${seed} step ${step}`;
        assert.deepEqual([...got.keys()], [...want.keys()], `${where}: keys or their order`);
        for (const [k, list] of want) {
          const have = got.get(k)!;
          assert.ok(have.length === list.length && have.every((e, i) => e.c === list[i].c && e.n === list[i].n), `${where}: the list of ${k}`);
        }
        if (got !== map) reordered++;
        map = got;
      }
    }
    // Both answers of the key order were taken, and most changes kept models.
    assert.ok(reordered > 100, `only ${reordered} reorderings`);
    assert.ok(kept > 500, `only ${kept} changes keeping models`);
  });

  it('reads only the new models and the ones they replace when a file keeps its number of cases', () => {
    const uri = 'file:///ws/s.litmus.json';
    const before = Array.from({ length: 500 }, (_, i) => asCase({ doc: { uri }, keys: [KEYS[i % KEYS.length], `id${i}`] }));
    // Two models new, far apart, with the keys they had (an edited tool file's users).
    const after = before.map((c, i) => (i === 10 || i === 480 ? asCase({ doc: { uri }, keys: [...keysOf(c)] }) : c));
    let read = 0;
    const counting: Grouping<string, Entry> = {
      keys: (c, visit) => {
        read++;
        GROUPING.keys(c, visit);
      },
      entries: (c, add) => {
        read++;
        GROUPING.entries(c, add);
      },
      caseOf: GROUPING.caseOf,
    };
    const map = scratch(before);
    const got = regroup(map, counting, new Map([[uri, { before, after }]]), () => 0, after);
    const want = scratch(after);
    assert.deepEqual([...got.keys()], [...want.keys()]);
    for (const [k, list] of want) assert.ok(got.get(k)!.every((e, i) => e.c === list[i].c && e.n === list[i].n), k);
    // Each of the four models read twice at most (its keys, its entries; the key order check reads them again).
    assert.ok(read <= 16, `${read} models read`);
  });
});
