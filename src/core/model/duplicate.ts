import { canonicalize, fieldValue, hashText, isJsonObject } from './canonical';
import { parseToolReference } from './tools';
import { decodeLocationPath, resolveTarget } from './uri';

/**
 * What makes two cases the same test (FORMAT §3d, `duplicate-case`): everything but their
 * `instance_id`, `family`, `paired_with` and `x-` fields, compared canonically. References are
 * compared by what they name, not how they spell it: `../tools/mail.tools.json#send` in one folder
 * and `tools/mail.tools.json#send` in its parent name the same tool.
 */

const SET_ASIDE = new Set(['instance_id', 'family', 'paired_with']);

function resolved(fromUri: string, path: string): string | undefined {
  try {
    return resolveTarget(fromUri, decodeLocationPath(path));
  } catch {
    return undefined;
  }
}

/** A tool reference as the file and name it names; unchanged when it names nothing. */
function toolEntry(fromUri: string, entry: unknown): unknown {
  if (typeof entry !== 'string') return entry;
  const ref = parseToolReference(entry);
  const file = ref && resolved(fromUri, ref.path);
  return file ? `${file}#${ref!.name}` : entry;
}

/** A location as the file it names and its pointer (`#/…` stays as written: it points into the case). */
function label(fromUri: string, text: unknown): unknown {
  if (typeof text !== 'string') return text;
  const hash = text.indexOf('#');
  if (hash <= 0) return text;
  const file = resolved(fromUri, text.slice(0, hash));
  return file ? `${file}${text.slice(hash)}` : text;
}

/** The canonical text two duplicate cases share (undefined for a value that is not a case object). */
function formOf(fromUri: string, value: Record<string, unknown>): string | undefined {
  if (!isJsonObject(value)) return undefined;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value)) {
    if (SET_ASIDE.has(k) || k.startsWith('x-')) continue;
    if (k === 'tools' && Array.isArray(v)) out[k] = v.map((e) => toolEntry(fromUri, e));
    else if (k === 'environment' && typeof v === 'string') out[k] = resolved(fromUri, v) ?? v;
    else if (k === 'injection_field') out[k] = Array.isArray(v) ? v.map((l) => label(fromUri, l)) : label(fromUri, v);
    // Integers past 2^53 by their digits: the copy would lose what the parser kept on `value`.
    else out[k] = fieldValue(value, k);
  }
  return canonicalize(out);
}

const keys = new WeakMap<object, string | undefined>();
const forms = new WeakMap<object, string | undefined>();

/**
 * A hash of the duplicate form (64 bits, as hex), kept per case value: a document's values are the
 * same objects while its text is unchanged. A form is as large as its case, and keeping one for
 * every case that shares its arm and task with another (a workspace holding a copy of its suite
 * folder: every case) held the whole suite again as text. Equal keys are confirmed with
 * `duplicateForm`.
 */
export function duplicateKey(fromUri: string, value: Record<string, unknown>): string | undefined {
  if (keys.has(value)) return keys.get(value);
  const form = formOf(fromUri, value);
  const key = form === undefined ? undefined : hashText(form);
  keys.set(value, key);
  return key;
}

/** The duplicate form itself, for cases whose keys are equal (kept per case value, as their keys). */
export function duplicateForm(fromUri: string, value: Record<string, unknown>): string | undefined {
  if (forms.has(value)) return forms.get(value);
  const form = formOf(fromUri, value);
  forms.set(value, form);
  return form;
}

/**
 * A cheap key that duplicates always share: their arms and tasks, canonically. Most cases of a suite
 * have a task of their own, so a case whose key no other case has cannot be a duplicate, and its full
 * form (a canonical text of the whole case) is never built.
 */
export function duplicateHint(value: Record<string, unknown>): string {
  return `${canonicalize(value.arm) ?? ''}\u0000${canonicalize(value.task) ?? ''}`;
}

/**
 * One part of the duplicate hint (a case's `arm` or `task`) with no text built for it: a string
 * as it compares canonically (trimmed; nearly always the string itself), any other value by its
 * canonical text. Values with equal canonical texts have equal parts; a string and another value
 * may share one, which only sends a case on to the full comparison.
 */
export function hintPart(value: unknown): string {
  return typeof value === 'string' ? value.trim() : (canonicalize(value) ?? '');
}
