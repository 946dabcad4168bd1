import type { SuiteDocument } from '../model/document';
import { removeValue, setValue } from '../text/edit';
import { code } from '../text/escape';
import { nodeAt } from '../text/location';
import { documentChange, type FixSpec, type TextChange } from '../text/fix';
import type { JsonPath } from '../text/types';
import type { SchemaProblem } from './problems';

/** Renames the key of the property at `path` in place; its value, comments and layout stay. */
function renameKey(doc: SuiteDocument, root: number, path: JsonPath, name: string): TextChange[] {
  const key = nodeAt(doc, root, path)?.parent?.children?.[0];
  return key ? [{ offset: key.offset, length: key.length, content: JSON.stringify(name) }] : [];
}

function hasSibling(doc: SuiteDocument, root: number, path: JsonPath, name: string): boolean {
  return nodeAt(doc, root, [...path.slice(0, -1), name]) !== undefined;
}

function fix(doc: SuiteDocument, title: string, unambiguous: boolean, changes: TextChange[]): FixSpec[] {
  return changes.length ? [{ title, unambiguous, changes: [documentChange(doc, changes)] }] : [];
}

/**
 * Quick fixes for the schema problems whose repair is clear from the file alone. Only a change of
 * spelling or case (`"Benign"` → `"benign"`) is unambiguous enough for fix-all; a typo guess or a
 * choice between two repairs is offered, never applied unasked.
 */
export function schemaFixes(doc: SuiteDocument, root: number, p: SchemaProblem): FixSpec[] {
  const keyword = p.data.keyword;
  const suggestion = typeof p.data.suggestion === 'string' ? p.data.suggestion : undefined;
  if (keyword === 'enum' && suggestion !== undefined) {
    const current = nodeAt(doc, root, p.path)?.value;
    const sameWord = typeof current === 'string' && current.trim().toLowerCase() === suggestion.toLowerCase();
    return fix(doc, `Change to "${suggestion}"`, sameWord, setValue(doc, root, p.path, suggestion));
  }
  if (keyword === 'additionalProperties' && typeof p.data.property === 'string') {
    const name = p.data.property;
    const out: FixSpec[] = [];
    if (suggestion !== undefined && !hasSibling(doc, root, p.path, suggestion)) {
      out.push(...fix(doc, `Rename to ${code(suggestion)}`, false, renameKey(doc, root, p.path, suggestion)));
    }
    if (p.data.customFields === true && !hasSibling(doc, root, p.path, `x-${name}`)) {
      out.push(...fix(doc, `Rename to ${code(`x-${name}`)} (a custom field)`, false, renameKey(doc, root, p.path, `x-${name}`)));
    }
    return out;
  }
  if (keyword === 'false schema' && p.data.property === 'probe') {
    return [
      ...fix(doc, 'Remove `probe`', false, removeValue(doc, root, p.path)),
      ...fix(doc, 'Make the case adversarial', false, setValue(doc, root, [...p.path.slice(0, -1), 'arm'], 'adversarial')),
    ];
  }
  return [];
}
