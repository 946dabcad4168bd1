import { setValue } from '../text/edit';
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
  return {
    title,
    unambiguous: true,
    changes: [{ uri: c.doc.uri, version: c.doc.version, changes: setValue(c.doc, c.root, index.casePath(c, field), value) }],
  };
}
