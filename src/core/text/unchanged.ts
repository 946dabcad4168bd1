import type { Located } from './strict-locate';
import { skipBlank } from './strict-tree';
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

/** Where an edit leaves the elements of one array of the earlier version. */
export interface Reach {
  /** Where each element starts, and the offsets of the array's `[` and `]`. */
  starts: number[];
  open: number;
  close: number;
  /** How many elements, from the first, end in the shared start: the same values at the same places in the later version. */
  kept: number;
  /** The first of the elements that, from it on, start in the shared end (`starts.length` when none do). */
  tail: number;
}

/**
 * Where an edit leaves the elements of the array at `path` in the earlier version (undefined when
 * that holds no array there). Strict JSON is read left to right, so the elements ending in the
 * shared start are the same values at the same places in the later version. Those starting in the
 * shared end may be too, but only the later version's own parse can say so (an edit can change
 * what the same closing text closes). Where an element ends is read off where the next one starts,
 * so only the one that straddles the shared start's end is read to its end.
 */
export function reach(before: Version, affixes: Affixes, path: JsonPath, count: number): Reach | undefined {
  const open = before.startOf(path);
  if (open === undefined || count === 0) return undefined;
  const starts: number[] = [];
  for (let i = 0; i < count; i++) {
    const at = before.startOf(path.concat(i));
    if (at === undefined) return undefined;
    starts.push(at);
  }
  const last = before.locate(path.concat(count - 1));
  const close = skipBlank(before.text, last.offset + last.length);
  let kept = 0;
  while (kept < count && (kept + 1 < count ? starts[kept + 1] : close) <= affixes.prefix) kept++;
  if (kept < count && starts[kept] < affixes.prefix && endOf(before, path.concat(kept)) <= affixes.prefix) kept++;
  const shared = before.text.length - affixes.suffix;
  let tail = count;
  while (tail > kept && starts[tail - 1] >= shared) tail--;
  return { starts, open, close, kept, tail };
}

/** Where the value at `path` ends. */
export function endOf(version: Version, path: JsonPath): number {
  const l = version.locate(path);
  return l.offset + l.length;
}
