/** Two rows of the distance table, reused: did-you-mean compares one name with every id of a workspace. */
let rows = [new Int32Array(64), new Int32Array(64)];

/** Edit distance with a cut-off: beyond `limit` the exact value does not matter. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  // What the two share at either end costs nothing: ids of one scheme (`fam00012-b1`, `fam00345-a2`)
  // differ in a few characters, and the table shrinks to those.
  let from = 0;
  let endA = a.length;
  let endB = b.length;
  while (from < endA && from < endB && a.charCodeAt(from) === b.charCodeAt(from)) from++;
  while (endA > from && endB > from && a.charCodeAt(endA - 1) === b.charCodeAt(endB - 1)) {
    endA--;
    endB--;
  }
  const n = endB - from;
  if (countBound(a, b, from, endA, endB) > limit) return limit + 1;
  // A hostile megabyte-long name gets rows of its own rather than keeping them alive.
  const [first, second] = n < 4096 ? (rows[0].length > n ? rows : (rows = [new Int32Array(n + 1), new Int32Array(n + 1)])) : [new Int32Array(n + 1), new Int32Array(n + 1)];
  let prev = first;
  let cur = second;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= endA - from; i++) {
    const ca = a.charCodeAt(from + i - 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === b.charCodeAt(from + j - 1) ? 0 : 1));
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    const done = prev;
    prev = cur;
    cur = done;
  }
  return prev[n];
}

/** Per ASCII character, how many more times it occurs in one text than in the other; all zero between calls. */
const counts = new Int32Array(128);

/**
 * A lower bound of the edit distance of `a[from, endA)` and `b[from, endB)`, read off how often
 * each character occurs in each: an insertion or a deletion changes those counts by one, a
 * substitution by two, so half their differences (rounded up) is a bound. A did-you-mean over the
 * ids nearest a reference compares it with a hundred names, most of them plainly too far: this
 * answers those in one pass, where the table took a pass per character. 0 (no bound) for text
 * beyond ASCII.
 */
function countBound(a: string, b: string, from: number, endA: number, endB: number): number {
  for (let i = from; i < endA; i++) {
    const c = a.charCodeAt(i);
    if (c > 127) return clearCounts(a, from, i);
    counts[c]++;
  }
  for (let j = from; j < endB; j++) {
    const c = b.charCodeAt(j);
    if (c > 127) return clearCounts(a, from, endA) + clearCounts(b, from, j);
    counts[c]--;
  }
  // Each character's difference counted once (zeroed as it is read), which also leaves the table clear.
  let differ = 0;
  for (let i = from; i < endA; i++) {
    const c = a.charCodeAt(i);
    differ += Math.abs(counts[c]);
    counts[c] = 0;
  }
  for (let j = from; j < endB; j++) {
    const c = b.charCodeAt(j);
    differ += Math.abs(counts[c]);
    counts[c] = 0;
  }
  return (differ + 1) >> 1;
}

/** Zeroes the counts of `text[from, end)`'s characters (all ASCII); 0, no bound. */
function clearCounts(text: string, from: number, end: number): number {
  for (let i = from; i < end; i++) counts[text.charCodeAt(i)] = 0;
  return 0;
}

/** The one candidate closest to `word` (case-insensitively), when it is a plausible typo of it. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(1, Math.min(3, Math.floor(w.length / 3)));
  let best: string | undefined;
  let bestDistance = limit + 1;
  let tie = false;
  for (const c of candidates) {
    const d = editDistance(w, c.toLowerCase(), limit);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
      tie = false;
    } else if (d === bestDistance) {
      tie = true;
    }
  }
  if (best !== undefined && !tie) return best;
  // A cut-short word (`warn` for `warning`) is too far by edit distance but plainly meant.
  const prefixed = w.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(w)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** Every candidate at the smallest distance from `name`, when that distance is a plausible typo. */
export function closest(name: string, candidates: Iterable<string>): string[] {
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  let best = limit + 1;
  let out: string[] = [];
  for (const c of candidates) {
    const d = editDistance(name, c, limit);
    if (d < best) {
      best = d;
      out = [c];
    } else if (d === best) {
      out.push(c);
    }
  }
  return best <= limit ? out : [];
}

/** Up to this many names, a lookup compares the name with every one of them. */
const EXACT_SCAN = 2_000;
/** Past it, with this many names on each side of where the name would sort, by its start and by its end. */
const WINDOW = 32;

/**
 * Names to suggest from, for many lookups: the instance ids of a workspace, asked once for every
 * reference that names none. Comparing each reference with every id is quadratic: 40 mistyped
 * references among 10,000 ids took 0.25 s, and a generator that names twins by another scheme
 * makes every reference one (10,000 × 10,000 comparisons). Up to EXACT_SCAN names a lookup is
 * `closest` itself; past it, a lookup compares only the names nearest in sorted order, by their
 * start and by their end (a typo in the middle of a long id may be missed), so its cost does not
 * grow with the workspace.
 */
export interface NameIndex {
  closest(name: string): string[];
}

const reversed = (s: string): string => {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
};

/** The first place in `sorted` (places in `keys`, in the order of their keys) whose key is not below `key`. */
function lowerBoundBy(sorted: Int32Array, keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[sorted[mid]] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** `names` are distinct (the keys of a map). */
export function nameIndex(names: Iterable<string>): NameIndex {
  const all = [...names];
  if (all.length <= EXACT_SCAN) return { closest: (name) => closest(name, all) };
  // Places in `all`, sorted by the name and by the name read backwards: two arrays of numbers rather
  // than a map and a pair per name (10 MB at 100,000 ids).
  const backwards = all.map(reversed);
  const order = (keys: readonly string[]) => Int32Array.from(keys.keys()).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0));
  const byStart = order(all);
  const byEnd = order(backwards);
  // The places both windows pick, gathered in one buffer: a lookup for every reference of a suite
  // that names its twins by another scheme built a set, a list and a sorted copy each (90 MB at 10k).
  const picked = new Int32Array(4 * WINDOW);
  return {
    closest(name) {
      let n = 0;
      const take = (sorted: Int32Array, keys: readonly string[], key: string) => {
        const at = lowerBoundBy(sorted, keys, key);
        for (let i = Math.max(0, at - WINDOW); i < Math.min(sorted.length, at + WINDOW); i++) picked[n++] = sorted[i];
      };
      take(byStart, all, name);
      take(byEnd, backwards, reversed(name));
      // In the order the names were given, once each, as `closest` over all of them would list them.
      const near: string[] = [];
      let last = -1;
      for (const i of picked.subarray(0, n).sort()) {
        if (i !== last) near.push(all[i]);
        last = i;
      }
      return closest(name, near);
    },
  };
}
