import { appendInPlace, removeValue, setValueInPlace } from '../text/edit';
import { quote } from '../text/escape';
import { formatPointer, pathStartsWith } from '../text/pointer';
import { lazyDocumentFix, type FixSpec, type TextChange } from '../text/fix';
import type { JsonPath } from '../text/types';
import { encodeLocationPath, relativePath } from '../model/uri';
import type { CaseModel } from '../model/workspace';
import type { SuiteDocument } from '../model/document';
import type { Label } from './labels';

/** Suite text in a fix title: escaped and cut like a quote, without the quotes (plain ids read as they are). */
function shown(text: string, max = 80): string {
  return quote(text, max).slice(1, -1);
}

/** The `injection_field` location that names a string, as written in case `c` (FORMAT §4). */
export function locationFor(c: CaseModel, at: { uri: string; root: number; path: JsonPath }): string {
  if (at.uri === c.doc.uri && at.root === c.root && pathStartsWith(at.path, c.path)) return '#' + formatPointer(at.path.slice(c.path.length));
  return encodeLocationPath(relativePath(c.doc.uri, at.uri)) + '#' + formatPointer(at.path);
}

/**
 * A fix to one case's document, computed when first read on the document the finding was made on
 * (text/fix.ts, `lazyDocumentFix`). The injection rules offer one per payload and label; a report
 * that shows titles only never computes the edits (each runs jsonc-parser's `modify` on the case's text).
 */
function caseFix(c: CaseModel, title: string, unambiguous: boolean, compute: (doc: SuiteDocument) => TextChange[]): FixSpec {
  return lazyDocumentFix(title, unambiguous, c.doc, compute);
}

/**
 * Adds a location to a case's `injection_field`: creates it, appends to the array, or turns a string
 * into an array. Labelling says the author meant the payload to be there, which turns a warning
 * about possible poisoning into a hint: it changes a claim (FORMAT §10), so it is a quick fix only,
 * never applied by `--fix` or fix-all. A field that holds anything else (an object with a note, a
 * number, null) is the author's and would be lost: no fix is offered then (`schema` reports its type).
 */
export function addLabelFix(c: CaseModel, location: string, unambiguous: boolean): FixSpec | undefined {
  const field = [...c.path, 'injection_field'];
  const current = c.value.injection_field;
  if (current !== undefined && typeof current !== 'string' && !Array.isArray(current)) return undefined;
  const fix = caseFix(c, `Label as injection_field of ${c.id !== undefined ? shown(c.id, 60) : 'this case'}`, unambiguous, (doc) => {
    if (Array.isArray(current)) return appendInPlace(doc, c.root, field, location);
    if (typeof current === 'string') return setValueInPlace(doc, c.root, field, [current, location]);
    return setValueInPlace(doc, c.root, field, location);
  });
  fix.changesClaim = true;
  return fix;
}

export function relabelFix(label: Label, location: string, unambiguous: boolean): FixSpec {
  const c = label.case;
  return caseFix(c, `Relabel injection_field to ${shown(location, 120)}`, unambiguous, (doc) => setValueInPlace(doc, c.root, label.path, location));
}

/**
 * Removes the stale string; the whole field when it is the only one. Never applied without asking:
 * it removes a label the author wrote (FORMAT §10), so callers offer it as a quick fix only.
 */
export function removeLabelFix(label: Label, unambiguous: boolean): FixSpec {
  const c = label.case;
  const field = [...c.path, 'injection_field'];
  const current = c.value.injection_field;
  const only = !Array.isArray(current) || current.length <= 1;
  return caseFix(c, 'Remove stale injection_field', unambiguous, (doc) => removeValue(doc, c.root, only ? field : label.path, true));
}
