import { isBlank, skipBlank, skipString, skipValue } from './strict-tree';
import type { JsonPath, Span } from './types';

/**
 * Where a path leads in strict JSON text, read off the text itself: no tree is built.
 *
 * Placing a finding needs the offsets of one value. A tree, even one built as it is walked, lists
 * every child of each container on the path, and so scans every sibling to its end: a suite file's
 * whole `cases` array for a finding in its first case. This walk stops at the value the path names:
 * an object's properties are read up to the key it wants (strict text has no duplicate keys, so the
 * first is the one readers read), an array's elements are skipped up to the index it wants, and what
 * was read is kept per object and per array, so the next finding in the same file resumes where the
 * last one stopped instead of scanning from the first element again.
 *
 * It answers exactly what `deepest` over the tree answers (location.ts): the deepest value along
 * the path that exists, and the key that holds it (for `part: 'key'`). A property test holds the two
 * to each other.
 */
export interface Located extends Span {
  /** The key of the property whose value this is; absent for the root and for array elements. */
  key?: Span;
}

export class StrictLocator {
  /** Element starts found so far, per array (by the offset of its `[`). */
  private readonly elements = new Map<number, number[]>();
  /** Properties read so far, per object (by the offset of its `{`). */
  private readonly objects = new Map<number, ObjectScan>();
  /** Ends of the containers `pathAt` asked about, by their starts; made only when it is asked. */
  private ends: Map<number, number> | undefined;

  /** `text` holds strict JSON (no duplicate keys) between `start` and `end`, blanks aside. */
  constructor(
    private readonly text: string,
    private readonly start: number,
    private readonly end: number,
  ) {}

  locate(path: JsonPath): Located {
    const at = this.walk(path);
    if (at < 0) return { offset: 0, length: 0 };
    const key = this.walkedKey;
    const length = skipValue(this.text, at) - at;
    return key ? { offset: at, length, key } : { offset: at, length };
  }

  /** The value at `path`, its whole text; undefined unless the whole path leads somewhere. */
  valueAt(path: JsonPath): Span | undefined {
    const at = this.startOf(path);
    return at === undefined ? undefined : { offset: at, length: skipValue(this.text, at) - at };
  }

  /** Where the value at `path` starts, without reading to its end; undefined unless the whole path leads somewhere. */
  startOf(path: JsonPath): number | undefined {
    const at = this.walk(path);
    return at >= 0 && this.walkedAll ? at : undefined;
  }

  /**
   * The path to `offset`, as `pathAtOffset` (pointer.ts) answers it over the tree: down through the
   * value that holds it (ends included), stopping at the property whose key or colon it is on.
   * Undefined outside the root value. No tree is built, and what is read on the way is kept as
   * locating keeps it, so the anchors of a file's findings (SARIF fingerprints, baselines) read it
   * about once.
   */
  pathAt(offset: number): JsonPath | undefined {
    const text = this.text;
    const root = skipBlank(text, this.start);
    if (root >= this.end || offset < root) return undefined;
    // Down the values whose start is the last at or before `offset`, each inside the one before;
    // whether one holds `offset` depends on where it ends, asked below only where it decides.
    const path: JsonPath = [];
    const starts: number[] = [];
    let at = root;
    for (;;) {
      const c = text.charCodeAt(at);
      if (c === 91 /* [ */) {
        const elements = this.startsTo(at, offset);
        const k = lastAtOrBefore(elements, 1, offset);
        if (k < 0) break;
        path.push(k);
        starts.push((at = elements[k]));
      } else if (c === 123 /* { */) {
        const keys = this.keysTo(at, offset);
        const k = lastAtOrBefore(keys, 2, offset);
        if (k < 0) break;
        path.push(keyText(text, keys[k], keys[k + 1]));
        starts.push((at = propertyAt(text, keys[k], keys[k + 1]).value));
        // On the key or its colon, the property is the answer (if it holds the offset at all).
        if (offset < at) break;
      } else {
        break;
      }
    }
    // The deepest that holds `offset` answers; the values nest, so the ones above it hold it too.
    // It is most often the last (a finding on a key or a value), whose end is near.
    for (let n = starts.length; n > 0; n--) if (this.holds(starts[n - 1], offset)) return path.slice(0, n);
    return this.holds(root, offset) ? [] : undefined;
  }

  /** Whether the value that starts at `at` holds `offset` (its end included). */
  private holds(at: number, offset: number): boolean {
    return offset <= at || offset <= this.endOf(at);
  }

  /** What the last walk ended on besides its offset: the key that holds the value, and whether every segment was found. */
  private walkedKey: Located['key'];
  private walkedAll = false;

  /** Start of the deepest value along `path` that exists (-1 for a blank text), noting its key and whether it is the whole path. */
  private walk(path: JsonPath): number {
    const text = this.text;
    let at = skipBlank(text, this.start);
    let stop = this.end;
    while (stop > at && isBlank(text.charCodeAt(stop - 1))) stop--;
    this.walkedKey = undefined;
    this.walkedAll = false;
    if (at >= stop) return -1;
    let key: Located['key'];
    for (const segment of path) {
      const c = text.charCodeAt(at);
      let next: number | undefined;
      let nextKey: Located['key'];
      if (c === 91 /* [ */) {
        if (typeof segment === 'number' && Number.isInteger(segment) && segment >= 0) next = this.element(at, segment);
      } else if (c === 123 /* { */) {
        if (typeof segment === 'string') {
          const found = this.property(at, segment);
          if (found) {
            next = found.value;
            nextKey = found.key;
          }
        }
      }
      if (next === undefined) {
        this.walkedKey = key;
        return at;
      }
      at = next;
      key = nextKey;
    }
    this.walkedKey = key;
    this.walkedAll = true;
    return at;
  }

  /**
   * Takes over the element starts and the keys `before` (a locator over an earlier version of the
   * text) found before `prefix`, the start the two texts share: strict JSON is read left to right,
   * so an array or object that opens there, and each element or key (with its value's start) that
   * lies there, is at the same offset in both. With `end`, the caller knows the old text from
   * `end.from` on to read as it did, `end.shift` characters further on in the old text: the arrays
   * and objects that open there are taken over too, moved. Locating then resumes from what is known
   * instead of from the first element, and the objects read for the findings of the cases around an
   * edit (every case of the file, after each keystroke) are not read again.
   */
  continueFrom(before: StrictLocator, prefix: number, end?: { from: number; shift: number }): void {
    for (const [open, starts] of before.elements) {
      if (end && open >= end.from) {
        if (!this.elements.has(open - end.shift)) this.elements.set(open - end.shift, starts.map((s) => (s < 0 ? s : s - end.shift)));
        continue;
      }
      if (open >= prefix || this.elements.has(open)) continue;
      let n = 0;
      while (n < starts.length && starts[n] >= 0 && starts[n] < prefix) n++;
      if (n > 0) this.elements.set(open, starts.slice(0, n));
    }
    for (const [open, scan] of before.objects) {
      if (end && open >= end.from) {
        if (!this.objects.has(open - end.shift)) this.objects.set(open - end.shift, movedScan(scan, end.shift));
        continue;
      }
      if (open >= prefix || this.objects.has(open)) continue;
      const kept = scanBefore(before.text, scan, prefix);
      if (kept) this.objects.set(open, kept);
    }
  }

  /** Where every element of the array whose `[` is at `open` starts, as the caller read them (the array has no more). */
  knowElements(open: number, starts: readonly number[]): void {
    this.elements.set(open, [...starts, -1]);
  }

  /** Start of element `index` of the array whose `[` is at `open`, or undefined when it has fewer. */
  private element(open: number, index: number): number | undefined {
    const text = this.text;
    let starts = this.elements.get(open);
    if (!starts) {
      starts = [];
      const first = skipBlank(text, open + 1);
      if (text.charCodeAt(first) !== 93 /* ] */) starts.push(first);
      this.elements.set(open, starts);
    }
    while (starts.length <= index) {
      const last = starts[starts.length - 1];
      if (last === undefined || last < 0) return undefined;
      const after = skipBlank(text, skipValue(text, last));
      if (text.charCodeAt(after) !== 44 /* , */) {
        // The array ends here: remembered, so a later index past it stops at once.
        starts.push(-1);
        return undefined;
      }
      starts.push(skipBlank(text, after + 1));
    }
    const s = starts[index];
    return s < 0 ? undefined : s;
  }

  /**
   * The value start and key of property `name` of the object whose `{` is at `open`. The properties
   * read so far are kept per object, with where the reading stopped: a second lookup in the same
   * object (the next finding in a case) never skips a value again, however large (a suite's
   * `cases`, a case's 20,000 completion steps).
   */
  private property(open: number, name: string): Property | undefined {
    const text = this.text;
    const scan = this.scanOf(open);
    const known = findKey(text, scan, name);
    if (known >= 0) return propertyAt(text, scan.keys[known], scan.keys[known + 1]);
    const before = scan.keys.length;
    const found = this.readOn(scan, name);
    if (scan.keys.length !== before) keepTight(scan);
    return found;
  }

  /** Reads on in the object `scan` describes until the key `name` (its property) or the object's end (undefined). */
  private readOn(scan: ObjectScan, name: string): Property | undefined {
    const text = this.text;
    for (let k = this.nextKey(scan); k >= 0; k = this.nextKey(scan)) {
      if (keyEquals(text, scan.keys[k], scan.keys[k + 1], name)) return propertyAt(text, scan.keys[k], scan.keys[k + 1]);
    }
    return undefined;
  }

  /** Reads the next key of the object `scan` describes: its index into `scan.keys`, or -1 at the object's end. */
  private nextKey(scan: ObjectScan): number {
    const text = this.text;
    if (scan.done) return -1;
    if (scan.pending >= 0) {
      // The value of the last property read is skipped only now, when a later key is wanted.
      const after = skipBlank(text, skipValue(text, scan.pending));
      scan.pending = -1;
      if (text.charCodeAt(after) !== 44 /* , */) {
        scan.done = true;
        return -1;
      }
      scan.next = skipBlank(text, after + 1);
    }
    const i = scan.next;
    if (text.charCodeAt(i) !== 34 /* " */) {
      scan.done = true;
      return -1;
    }
    const keyEnd = skipString(text, i);
    scan.keys.push(i, keyEnd);
    if (scan.byName) {
      const key = keyText(text, i, keyEnd);
      // Strict text has no duplicate keys; the first is kept all the same.
      if (!scan.byName.has(key)) scan.byName.set(key, scan.keys.length - 2);
    } else if (scan.keys.length > INDEXED_KEYS * 2) {
      scan.byName = new Map();
      for (let k = scan.keys.length - 2; k >= 0; k -= 2) scan.byName.set(keyText(text, scan.keys[k], scan.keys[k + 1]), k);
    }
    scan.pending = propertyAt(text, i, keyEnd).value;
    return scan.keys.length - 2;
  }

  /**
   * Where the value that starts at `at` ends; a container's is kept, for the paths to a file's
   * findings that end between values (a suppression comment between two cases) ask it again.
   */
  private endOf(at: number): number {
    const c = this.text.charCodeAt(at);
    // Scalars end near where they start; containers (a suite's `cases`) are skipped once.
    if (c !== 123 && c !== 91) return skipValue(this.text, at);
    let end = this.ends?.get(at);
    if (end === undefined) (this.ends ??= new Map()).set(at, (end = skipValue(this.text, at)));
    return end;
  }

  /** The scan of the object whose `{` is at `open`, begun if it was not. */
  private scanOf(open: number): ObjectScan {
    let scan = this.objects.get(open);
    if (!scan) this.objects.set(open, (scan = { keys: [], byName: undefined, next: skipBlank(this.text, open + 1), pending: -1, done: false }));
    return scan;
  }

  /** The key offsets of the object whose `{` is at `open`, read on until one starts at or past `offset` or the object ends. */
  private keysTo(open: number, offset: number): readonly number[] {
    const scan = this.scanOf(open);
    const before = scan.keys.length;
    while (!scan.done && (scan.keys.length === 0 || scan.keys[scan.keys.length - 2] < offset)) this.nextKey(scan);
    if (scan.keys.length !== before) keepTight(scan);
    return scan.keys;
  }

  /** The element starts of the array whose `[` is at `open`, read on until one starts at or past `offset` or the array ends (then -1 closes the list). */
  private startsTo(open: number, offset: number): readonly number[] {
    this.element(open, 0);
    const starts = this.elements.get(open)!;
    for (let last = starts[starts.length - 1]; last !== undefined && last >= 0 && last < offset; last = starts[starts.length - 1]) {
      if (this.element(open, starts.length) === undefined) break;
    }
    return starts;
  }
}

/**
 * Kept for the document's life, and a list grown by push has room to spare (seventeen entries at
 * first): an object of a few keys keeps its list at its length. A longer one has a name index.
 */
function keepTight(scan: ObjectScan): void {
  if (scan.keys.length <= INDEXED_KEYS * 2) scan.keys = scan.keys.slice();
}

/**
 * The index of the last entry of `list` (read in strides of `stride`) at or before `offset`, or -1:
 * the offsets grow, and a -1 may close the list.
 */
function lastAtOrBefore(list: readonly number[], stride: number, offset: number): number {
  let lo = 0;
  let hi = Math.floor(list.length / stride) - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid * stride];
    if (v >= 0 && v <= offset) {
      found = mid * stride;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

interface Property {
  value: number;
  key: Span;
}

/** Past this many keys read, an object's keys are looked up by name rather than one by one. */
const INDEXED_KEYS = 24;

/**
 * What has been read of one object: the offsets of its keys' tokens (start, end, in pairs), by
 * name once there are many, and where reading resumes. Offsets, not an object and a key string per
 * property: placing 80,000 findings kept 250,000 of each (3.5 KB a finding).
 */
interface ObjectScan {
  keys: number[];
  byName: Map<string, number> | undefined;
  /** Start of the next key, once `pending` (the start of the last value read) is skipped. */
  next: number;
  pending: number;
  done: boolean;
}

/** A scan of an object the edit left whole, `shift` characters earlier in the new text: the same reading, moved. */
function movedScan(scan: ObjectScan, shift: number): ObjectScan {
  return {
    keys: scan.keys.map((k) => k - shift),
    // Indexes into `keys`, which keep their order; a copy, since reading on adds to it.
    byName: scan.byName && new Map(scan.byName),
    next: scan.next - shift,
    pending: scan.pending < 0 ? scan.pending : scan.pending - shift,
    done: scan.done,
  };
}

/**
 * What a scan of an object that opens before `prefix` read there: the keys whose values start
 * before it, with reading to resume at the last of those values (it may run on past the edit).
 * Undefined when no key's value starts there.
 */
function scanBefore(text: string, scan: ObjectScan, prefix: number): ObjectScan | undefined {
  const keys = scan.keys;
  // Value starts grow with the keys: most objects lie wholly before the edit, and their last key says so.
  for (let n = keys.length; n > 0; n -= 2) {
    const value = propertyAt(text, keys[n - 2], keys[n - 1]).value;
    if (value < prefix) return { keys: keys.slice(0, n), byName: undefined, next: 0, pending: value, done: false };
  }
  return undefined;
}

/** Index into `scan.keys` of the first key read that spells `name`, or -1. */
function findKey(text: string, scan: ObjectScan, name: string): number {
  if (scan.byName) return scan.byName.get(name) ?? -1;
  const keys = scan.keys;
  for (let k = 0; k < keys.length; k += 2) if (keyEquals(text, keys[k], keys[k + 1], name)) return k;
  return -1;
}

function propertyAt(text: string, keyStart: number, keyEnd: number): Property {
  return { value: skipBlank(text, skipBlank(text, keyEnd) + 1), key: { offset: keyStart, length: keyEnd - keyStart } };
}

/** Whether the string token from `start` to `end` (quotes included) spells `name`. */
function keyEquals(text: string, start: number, end: number, name: string): boolean {
  if (end - start - 2 === name.length && text.startsWith(name, start + 1)) {
    // The same characters spell the same key unless one of them is an escape.
    for (let k = start + 1; k < end - 1; k++) if (text.charCodeAt(k) === 92 /* \\ */) return keyText(text, start, end) === name;
    return true;
  }
  // An escape spells a character with more than one: only a longer token can spell `name` so.
  if (end - start - 2 <= name.length) return false;
  for (let k = start + 1; k < end - 1; k++) if (text.charCodeAt(k) === 92 /* \\ */) return keyText(text, start, end) === name;
  return false;
}

/** The key a string token from `start` to `end` (quotes included) spells. */
function keyText(text: string, start: number, end: number): string {
  for (let k = start + 1; k < end - 1; k++) {
    // An escape is decoded by JSON.parse; without one the token is its own text.
    if (text.charCodeAt(k) === 92 /* \\ */) return JSON.parse(text.slice(start, end)) as string;
  }
  return text.slice(start + 1, end - 1);
}
