import { setValueFix } from '../text/edit';
import { rootValue } from '../model/document';
import { code } from '../text/escape';
import type { Location } from '../text/location';
import type { JsonPath } from '../text/types';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import type { FixSpec } from '../text/fix';

/** How messages name a case: its instance_id, escaped. */
export function caseName(c: CaseModel): string {
  return code(c.id ?? '(no instance_id)');
}

/** Where a finding about a value inside a case points. */
export function caseField(index: WorkspaceIndex, c: CaseModel, ...path: JsonPath): Location {
  return { uri: c.doc.uri, root: c.root, path: index.casePath(c, ...path) };
}

/** A one-change fix that sets (or adds) a field of a case, tied to the document's version. */
export function setCaseField(index: WorkspaceIndex, c: CaseModel, field: string, value: unknown, title: string): FixSpec {
  // Computed when read: the edit costs a parse of the text around the case.
  return setValueFix(title, true, c.doc, c.root, index.casePath(c, field), value);
}

/**
 * A fact about a case (see `Finding.fact`): findings that state the same fact of the same case are
 * shown as one. It names the case by its place in its file; the file is the one every finding of a
 * case fact points into, and lint/facts.ts adds it (as a path relative to the workspace, so a group
 * is the same in every checkout).
 */
export function caseFact(c: CaseModel, ...parts: (string | number)[]): string {
  return JSON.stringify([c.root, c.path, ...parts]);
}

/** The value at a path of a document root (undefined when the path leads nowhere). */
export function valueAt(index: WorkspaceIndex, uri: string, root: number, path: JsonPath): unknown {
  const doc = index.docs.get(uri);
  if (!doc) return undefined;
  let v: unknown = rootValue(doc, root);
  for (const step of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(v, step)) return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

/** Every string of a value at any depth, in order, up to `max` characters in all (a bound on hostile input). */
export function stringsOf(value: unknown, max = 1 << 20): string[] {
  const out: string[] = [];
  let left = max;
  const walk = (v: unknown, depth: number): void => {
    if (left <= 0 || depth > 200) return;
    if (typeof v === 'string') {
      out.push(v.length > left ? v.slice(0, left) : v);
      left -= v.length;
    } else if (Array.isArray(v)) {
      for (const x of v) walk(x, depth + 1);
    } else if (v !== null && typeof v === 'object') {
      for (const x of Object.values(v)) walk(x, depth + 1);
    }
  };
  walk(value, 0);
  return out;
}
