import { findNodeAtLocation, type Node } from 'jsonc-parser';
import type { SuiteDocument } from './document';
import type { JsonPath, Range } from './types';

/**
 * Where a finding points. Rules speak in paths; ranges are computed once, here, from the tree.
 * `part: 'key'` points at the property name that holds the value (for a missing property: the
 * key of the object that lacks it, or its opening brace when it has no key).
 */
export type Location =
  | { uri: string; root: number; path: JsonPath; part?: 'value' | 'key' }
  | { uri: string; offset: number; length: number };

export interface ResolvedRange {
  offset: number;
  length: number;
  range: Range;
}

function keyOrBrace(node: Node): { offset: number; length: number } {
  const parent = node.parent;
  if (parent?.type === 'property' && parent.children?.[0]) {
    const key = parent.children[0];
    return { offset: key.offset, length: key.length };
  }
  return { offset: node.offset, length: 1 };
}

/** Deepest node that exists along `path`; a path that no longer matches still lands close by. */
function deepest(root: Node, path: JsonPath): Node {
  for (let i = path.length; i > 0; i--) {
    const found = findNodeAtLocation(root, path.slice(0, i));
    if (found) return found;
  }
  return root;
}

export function resolveLocation(doc: SuiteDocument, at: Location): ResolvedRange {
  let offset: number;
  let length: number;
  if ('offset' in at) {
    offset = at.offset;
    length = at.length;
  } else {
    const root = doc.parsed.roots[at.root]?.node;
    if (!root) {
      offset = 0;
      length = 0;
    } else {
      const node = deepest(root, at.path);
      ({ offset, length } = at.part === 'key' ? keyOrBrace(node) : { offset: node.offset, length: node.length });
    }
  }
  offset = Math.max(0, Math.min(offset, doc.text.length));
  length = Math.max(0, Math.min(length, doc.text.length - offset));
  return { offset, length, range: doc.lines.rangeOf(offset, length) };
}

export function nodeAt(doc: SuiteDocument, root: number, path: JsonPath): Node | undefined {
  const r = doc.parsed.roots[root];
  return r?.node && !r.broken ? findNodeAtLocation(r.node, path) : undefined;
}
