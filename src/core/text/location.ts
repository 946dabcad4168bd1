import type { Node } from 'jsonc-parser';
import type { ParsedSource } from './source';
import type { JsonPath, Range, Span } from './types';

/**
 * Where a finding points. Rules speak in paths; ranges are computed once, here, from the tree.
 * `part: 'key'` points at the property name that holds the value (for a missing property: the
 * key of the object that lacks it, or its opening brace when it has no key).
 */
export type Location =
  | { uri: string; root: number; path: JsonPath; part?: 'value' | 'key' }
  | { uri: string; offset: number; length: number };

/**
 * Locations of findings kept for the editor's next run (rules/kept-by-case.ts, the payload rule's
 * surface findings): they come back as the same objects, so placing keeps their ranges by object
 * (lint/lint.ts). Every other finding is new each run, and keeping its range would only cost.
 */
export const lastingLocations = new WeakSet<Location>();

/** Marks the locations of findings a rule keeps for the next run (`lastingLocations`). */
export function markLasting(reports: readonly { at: Location; related?: readonly { at: Location }[] }[]): void {
  for (const r of reports) {
    lastingLocations.add(r.at);
    for (const rel of r.related ?? []) lastingLocations.add(rel.at);
  }
}

export interface ResolvedRange {
  offset: number;
  length: number;
  range: Range;
}

function keyOrBrace(node: Node): Span {
  const parent = node.parent;
  if (parent?.type === 'property' && parent.children?.[0]) {
    const key = parent.children[0];
    return { offset: key.offset, length: key.length };
  }
  return { offset: node.offset, length: 1 };
}

/**
 * One step down a parse tree. With duplicate keys the last one wins, as in `getNodeValue` and
 * `JSON.parse`: the squiggle must land on the value rules actually read, not on a decoy before it.
 */
export function childNode(node: Node, segment: string | number): Node | undefined {
  const children = node.children;
  if (!children) return undefined;
  if (typeof segment === 'number') {
    return node.type === 'array' && Number.isInteger(segment) && segment >= 0 ? children[segment] : undefined;
  }
  if (node.type !== 'object') return undefined;
  for (let i = children.length - 1; i >= 0; i--) {
    const prop = children[i].children;
    if (prop?.length === 2 && prop[0].value === segment) return prop[1];
  }
  return undefined;
}

/** The node at `path`, or undefined. One pass, no recursion. */
export function nodeAtPath(root: Node, path: JsonPath): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of path) {
    node = childNode(node, segment);
    if (!node) return undefined;
  }
  return node;
}

/** Deepest node that exists along `path`; a path that no longer matches still lands close by. */
function deepest(root: Node, path: JsonPath): Node {
  let node = root;
  for (const segment of path) {
    const next = childNode(node, segment);
    if (!next) break;
    node = next;
  }
  return node;
}

export function resolveLocation(doc: ParsedSource, at: Location): ResolvedRange {
  const { offset, length } = locationSpan(doc, at);
  return { offset, length, range: doc.lines.rangeOf(offset, length) };
}

export function locationSpan(doc: ParsedSource, at: Location): Span {
  let offset: number;
  let length: number;
  if ('offset' in at) {
    offset = at.offset;
    length = at.length;
  } else if (doc.parsed.roots[at.root]?.locate) {
    // Strict JSON: read off the text, no tree built.
    const found = doc.parsed.roots[at.root].locate!(at.path);
    ({ offset, length } = at.part === 'key' ? (found.key ?? { offset: found.offset, length: found.length === 0 ? 0 : 1 }) : found);
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
  return { offset, length };
}

export function nodeAt(doc: ParsedSource, root: number, path: JsonPath): Node | undefined {
  const r = doc.parsed.roots[root];
  return r?.node && !r.broken ? nodeAtPath(r.node, path) : undefined;
}
