/** Appends `value` to the list `map` holds under `key`, starting the list when there is none. */
export function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * A set of texts per key, kept as the one text while a key has one: most keys never get a second,
 * and a Set each costs a hundred bytes or more.
 */
export type TextSets<K> = Map<K, string | Set<string>>;

/** Adds `text` under `key`; false when it was there already. */
export function addText<K>(map: TextSets<K>, key: K, text: string): boolean {
  const held = map.get(key);
  if (held === undefined) map.set(key, text);
  else if (typeof held !== 'string') {
    if (held.has(text)) return false;
    held.add(text);
  } else if (held === text) return false;
  else map.set(key, new Set([held, text]));
  return true;
}

/** Removes `text` from under `key`, and the key with its last text. */
export function removeText<K>(map: TextSets<K>, key: K, text: string): void {
  const held = map.get(key);
  if (held === undefined) return;
  if (typeof held === 'string') {
    if (held === text) map.delete(key);
    return;
  }
  held.delete(text);
  if (held.size === 0) map.delete(key);
}

/** Each text under `key`, in the order they came. */
export function eachText<K>(map: TextSets<K>, key: K, visit: (text: string) => void): void {
  const held = map.get(key);
  if (held === undefined) return;
  if (typeof held === 'string') visit(held);
  else for (const text of held) visit(text);
}

/**
 * Appends every item of `items` to `list`. `list.push(...items)` passes them as arguments, and
 * past some hundred thousand (a rule's findings over a 200,000-case file) that overflows the stack.
 */
export function appendAll<T>(list: T[], items: Iterable<T>): void {
  for (const item of items) list.push(item);
}

/** Whether two lists hold the same objects in the same order (what is kept per list of models or tools). */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * `list` at exactly its length, for a short list kept as long as its case: V8 gives a list grown
 * by `push` room for seventeen entries at once, and a few such lists per case came to 8 MB in a
 * 10,000-case lint. A longer list is returned as it is (its spare room is at most a third).
 */
export function trimmed<T>(list: T[]): T[] {
  return list.length > 0 && list.length < 17 ? list.slice() : list;
}

/**
 * `text` as one flat string, for a text kept as long as its case. V8 keeps a string built by
 * concatenation as a tree of its pieces (a node of 32 bytes per join, every piece kept) until
 * something reads it whole; a conversion to a number does, and the tree is then one string. A
 * canonical signature kept this way took a third of the memory (100,000 of them: 42 -> 12 MB).
 */
export function flat(text: string): string {
  // The conversion's result (NaN for nearly every text) is not wanted: reading the text whole is.
  void Number(text);
  return text;
}
