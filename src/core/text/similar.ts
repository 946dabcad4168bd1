/** Two rows of the distance table, reused: did-you-mean compares one name with every id of a workspace. */
let rows = [new Int32Array(64), new Int32Array(64)];

/** Edit distance with a cut-off: beyond `limit` the exact value does not matter. */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const n = b.length;
  // A hostile megabyte-long name gets rows of its own rather than keeping them alive.
  const [first, second] = n < 4096 ? (rows[0].length > n ? rows : (rows = [new Int32Array(n + 1), new Int32Array(n + 1)])) : [new Int32Array(n + 1), new Int32Array(n + 1)];
  let prev = first;
  let cur = second;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const ca = a.charCodeAt(i - 1);
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca === b.charCodeAt(j - 1) ? 0 : 1));
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
