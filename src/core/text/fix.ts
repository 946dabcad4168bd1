/** The shape of a fix, shared by every stage that proposes one (detector labels, schema repairs, rules). */

/** A text change in offsets of the document text it was computed from. */
export interface TextChange {
  offset: number;
  length: number;
  content: string;
}

/** A fix as rules describe it: changes per document, each tied to the version it was computed for. */
export interface FixSpec {
  title: string;
  /** Only one fix of the diagnostic could apply: `--fix` and fix-all may take it. */
  unambiguous: boolean;
  /**
   * The fix changes what the suite claims (what a pair's scorer inspects, a case's arm or
   * resolution, a label the author wrote): offered as a quick fix, never applied without asking
   * (`--fix`, fix-all), even as a diagnostic's only fix (FORMAT §10).
   */
  changesClaim?: boolean;
  changes: { uri: string; version?: number; changes: TextChange[] }[];
}

/**
 * A fix whose changes are computed the first time they are read. Computing one runs jsonc-parser's
 * `modify`, which parses the text it edits; most reports never read them (the text and JSON formats
 * show titles), and a rule may build a fix before it knows it will report anything.
 */
export function lazyFix<A = undefined, B = undefined>(title: string, unambiguous: boolean, changes: (a: A, b: B) => FixSpec['changes'], a?: A, b?: B): FixSpec {
  const own: Omit<FixSpec, 'changes'> = { title, unambiguous };
  return defineLazy(own, 'changes', changes, a, b);
}

/**
 * Where an object keeps what one lazily computed key needs: its computation and the two values it
 * is called with until it has run, then the value.
 */
interface LazyState {
  compute: ((a: unknown, b: unknown) => unknown) | undefined;
  a: unknown;
  b: unknown;
  value: unknown;
}

/** Per key: the symbol its state is kept under, and the one getter every object with that key shares. */
const lazyKeys = new Map<string, { state: symbol; descriptor: PropertyDescriptor }>();

/**
 * Gives `target` an own enumerable getter `key` that computes its value the first time it is read,
 * as an object literal's `get key() {...}` would, but one getter shared by every object: V8 keeps
 * each literal with a getter of its own, after the first, as a dictionary (its own table of
 * properties, ~250 bytes with the getter's pair), and a suite whose every case has a broken
 * reference makes a fix per finding (30,000 at 10k cases). Spread, `Object.keys` and
 * `JSON.stringify` read the key as they read the literal's.
 *
 * `compute` is called with `a` and `b`: a shared function given what it needs this way costs no
 * closure per object, where a closure costs itself and the scope it keeps (some 100 bytes, and a
 * finding's fix had two).
 */
export function defineLazy<T extends object, K extends string, V, A = undefined, B = undefined>(target: T, key: K, compute: (a: A, b: B) => V, a?: A, b?: B): T & Record<K, V> {
  let kept = lazyKeys.get(key);
  if (!kept) {
    const state = Symbol(key);
    kept = {
      state,
      descriptor: {
        enumerable: true,
        configurable: true,
        get(this: Record<symbol, LazyState>) {
          const s = this[state];
          if (s.compute) {
            s.value = s.compute(s.a, s.b);
            s.compute = undefined;
            s.a = undefined;
            s.b = undefined;
          }
          return s.value;
        },
      },
    };
    lazyKeys.set(key, kept);
  }
  Object.defineProperty(target, kept.state, { value: { compute: compute as LazyState['compute'], a, b, value: undefined } satisfies LazyState });
  return Object.defineProperty(target, key, kept.descriptor) as T & Record<K, V>;
}

/**
 * A lazy fix of one document, computed on `doc` as it is when the fix is made: a case's model
 * moves on to its document's next version when an edit keeps the case (model/case.ts), and a host
 * may read the fix after that, so it must edit the text its finding was placed in.
 */
export function lazyDocumentFix<D extends { uri: string; version?: number }>(title: string, unambiguous: boolean, doc: D, compute: (doc: D) => TextChange[]): FixSpec {
  return lazyFix(title, unambiguous, changesOfDocument<D>, doc, compute);
}

function changesOfDocument<D extends { uri: string; version?: number }>(doc: D, compute: (doc: D) => TextChange[]): FixSpec['changes'] {
  return [documentChange(doc, compute(doc))];
}

/** Changes to one document, tied to the version of it they were computed on. */
export function documentChange(doc: { uri: string; version?: number }, changes: TextChange[]): FixSpec['changes'][number] {
  return { uri: doc.uri, version: doc.version, changes };
}
