import assert from 'node:assert/strict';
import type { LintDiagnostic, WorkspaceIndex } from '../../src/core';

/** Comparisons shared by the incremental tests: an incremental result must equal a from-scratch one. */

/** A comparable form of everything a host shows: position, code, message, related, fixes, data. */
export function view(ds: readonly LintDiagnostic[]): string[] {
  return ds.map((d) => JSON.stringify([d.uri, d.range, d.severity, d.code, d.message, d.related, d.fixes, d.data ?? null]));
}

export function firstDifference(a: string[], b: string[]): string {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return `#${i}\n  incremental: ${a[i]}\n  scratch:     ${b[i]}`;
  return 'none';
}

/** Grouped maps alike: keys in the same order, each list holding the same objects in the same order. */
function sameGroups<K, V>(a: ReadonlyMap<K, V[]>, b: ReadonlyMap<K, V[]>, what: string, same: (x: V, y: V) => boolean = (x, y) => x === y): void {
  assert.deepEqual([...a.keys()], [...b.keys()], `${what}: keys or their order differ`);
  for (const [k, list] of a) {
    const other = b.get(k)!;
    assert.ok(list.length === other.length && list.every((v, i) => same(v, other[i])), `${what}: the list of ${String(k)} differs`);
  }
}

/** An index updated from an earlier one must equal a from-scratch build: same objects, same order. */
export function assertSameIndex(got: WorkspaceIndex, want: WorkspaceIndex, where: string): void {
  assert.deepEqual([...got.docs.keys()], [...want.docs.keys()], `${where}: documents`);
  for (const [uri, doc] of got.docs) assert.equal(doc, want.docs.get(uri), `${where}: document ${uri}`);
  assert.ok(got.cases.length === want.cases.length && got.cases.every((c, i) => c === want.cases[i]), `${where}: cases or their order`);
  for (const c of got.cases) assert.equal(c.doc, got.docs.get(c.doc.uri), `${where}: case ${c.id ?? '?'} holds the document the index holds`);
  sameGroups(got.casesById, want.casesById, `${where}: casesById`);
  sameGroups(got.families, want.families, `${where}: families`);
  sameGroups(got.toolUsers, want.toolUsers, `${where}: toolUsers`, (x, y) => x.case === y.case && x.use === y.use);
  assert.deepEqual([...got.toolFiles.keys()], [...want.toolFiles.keys()], `${where}: tool files`);
  for (const [uri, file] of got.toolFiles) assert.equal(file, want.toolFiles.get(uri), `${where}: tool file ${uri}`);
  assert.deepEqual([...got.envFiles.keys()], [...want.envFiles.keys()], `${where}: environment files`);
  for (const [uri, file] of got.envFiles) assert.equal(file, want.envFiles.get(uri), `${where}: environment file ${uri}`);
  assert.deepEqual([...got.readErrors], [...want.readErrors], `${where}: read errors`);
}
