import type { Located } from './strict-locate';
import type { JsonPath } from './types';

/**
 * Where two versions of a text differ: the length of the text they start with alike (`prefix`)
 * and of the text they end with alike (`suffix`), the two never overlapping in either text. An
 * edit in the editor changes a few characters of a file; everything outside [prefix, length −
 * suffix) is the same text at the same offset (prefix) or at an offset moved by the change of
 * length (suffix).
 */
export interface Affixes {
  prefix: number;
  suffix: number;
}

/** Compared a block at a time (a slice is a view, and `===` on two of them one memory compare), then a character at a time. */
const BLOCK = 4096;

export function commonAffixes(a: string, b: string): Affixes {
  const limit = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix + BLOCK <= limit && a.slice(prefix, prefix + BLOCK) === b.slice(prefix, prefix + BLOCK)) prefix += BLOCK;
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  const most = limit - prefix;
  let suffix = 0;
  while (suffix + BLOCK <= most && a.slice(a.length - suffix - BLOCK, a.length - suffix) === b.slice(b.length - suffix - BLOCK, b.length - suffix)) suffix += BLOCK;
  while (suffix < most && a.charCodeAt(a.length - suffix - 1) === b.charCodeAt(b.length - suffix - 1)) suffix++;
  return { prefix, suffix };
}

/** One version of a parsed value: its text, and where a path leads in it. */
export interface Version {
  text: string;
  /** Where the value at `path` starts; undefined unless the whole path leads somewhere. */
  startOf(path: JsonPath): number | undefined;
  locate(path: JsonPath): Located;
}

/**
 * Whether element `index` of the array at `path` (held by both versions; `count` elements in the
 * earlier one) is the same text in both, at the same place relative to the edit. Wholly inside the
 * unchanged start, it is: strict JSON is read left to right, so the shared start holds the same
 * values at the same places in both. Starting inside the unchanged end, the later version's own
 * parse must put it there too (an edit can change what the same closing text closes), at the
 * offset moved by the change of length; the same text from the same start is the same value.
 * Where an element ends is read off where the next one starts, so elements are not read to their end.
 */
export function unchangedElement(before: Version, after: Version, affixes: Affixes, path: JsonPath, index: number, count: number): boolean {
  const at = path.concat(index);
  const from = before.startOf(at);
  if (from === undefined) return false;
  if (from < affixes.prefix) {
    // Where the next element starts is known; only the one that straddles the shared start's end is read to its end.
    let end = index + 1 < count ? before.startOf(path.concat(index + 1)) : undefined;
    if (end === undefined || end > affixes.prefix) {
      const whole = before.locate(at);
      end = whole.offset + whole.length;
    }
    // Starting in the shared start, it cannot start in the shared end: the two do not overlap.
    return end <= affixes.prefix;
  }
  if (from < before.text.length - affixes.suffix) return false;
  return after.startOf(at) === from - (before.text.length - after.text.length);
}
