import type { Node } from 'jsonc-parser';
import { childNode, nodeAtPath } from './location';
import type { ParsedRoot } from './parse';
import type { JsonPath } from './types';

/**
 * RFC 6901 JSON Pointers. The empty pointer is the whole document; every other pointer starts
 * with `/`. `~1` stands for `/` and `~0` for `~`, decoded in that order.
 */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  const tokens = pointer.slice(1).split('/');
  for (const t of tokens) {
    // A `~` must introduce `~0` or `~1`; anything else makes the pointer invalid.
    for (let i = t.indexOf('~'); i >= 0; i = t.indexOf('~', i + 1)) {
      const next = t[i + 1];
      if (next !== '0' && next !== '1') return undefined;
    }
  }
  return tokens.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function escapePointerToken(token: string | number): string {
  // Nearly every token (an index, a key) has neither character: two regular-expression passes over
  // each, for every payload finding's pointer, were most of writing them.
  const text = typeof token === 'string' ? token : String(token);
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function formatPointer(path: readonly (string | number)[]): string {
  return path.map((t) => '/' + escapePointerToken(t)).join('');
}

/**
 * Resolves pointer tokens against a parse tree. Array tokens must be canonical indices
 * (no leading zeros, no `-`), as RFC 6901 requires.
 */
export function pathFromTokens(root: Node | undefined, tokens: readonly string[]): JsonPath | undefined {
  const path: JsonPath = [];
  let node = root;
  for (const token of tokens) {
    if (!node) return undefined;
    if (node.type === 'array') {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      const index = Number(token);
      node = node.children?.[index];
      path.push(index);
    } else if (node.type === 'object') {
      node = childNode(node, token);
      path.push(token);
    } else {
      return undefined;
    }
  }
  return node ? path : undefined;
}

/**
 * The same over a plain value (`JSON.parse` or jsonc-parser's `getNodeValue`, objects without a
 * prototype): where the parse tree's walk would land, without building the tree. With duplicate
 * keys both see the last one, the one readers read.
 */
export function pathInValue(root: unknown, tokens: readonly string[]): JsonPath | undefined {
  const path: JsonPath = [];
  let v = root;
  for (const token of tokens) {
    if (Array.isArray(v)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) return undefined;
      const index = Number(token);
      if (index >= v.length) return undefined;
      v = v[index];
      path.push(index);
    } else if (v !== null && typeof v === 'object' && Object.prototype.hasOwnProperty.call(v, token)) {
      v = (v as Record<string, unknown>)[token];
      path.push(token);
    } else {
      return undefined;
    }
  }
  // JSON has no undefined: only a start that is not there gives it.
  return v === undefined ? undefined : path;
}

export function nodeAtPointer(root: Node | undefined, pointer: string): Node | undefined {
  const tokens = parsePointer(pointer);
  if (!tokens) return undefined;
  const path = pathFromTokens(root, tokens);
  return path && root ? nodeAtPath(root, path) : undefined;
}

/** The path from the root to the innermost value that contains `offset`. */
export function pathAtOffset(root: Node | undefined, offset: number): JsonPath | undefined {
  if (!root || offset < root.offset || offset > root.offset + root.length) return undefined;
  const path: JsonPath = [];
  let node: Node = root;
  for (;;) {
    const children: Node[] = node.children ?? [];
    let next: Node | undefined;
    if (node.type === 'object') {
      for (const prop of children) {
        const key = prop.children?.[0];
        const value = prop.children?.[1];
        if (!key || offset < prop.offset || offset > prop.offset + prop.length) continue;
        path.push(String(key.value));
        // On the key itself, the property is the answer.
        if (value && offset >= value.offset && offset <= value.offset + value.length) next = value;
        break;
      }
      if (!next) return path;
    } else if (node.type === 'array') {
      for (let i = 0; i < children.length; i++) {
        const c = children[i];
        if (offset >= c.offset && offset <= c.offset + c.length) {
          path.push(i);
          next = c;
          break;
        }
      }
      if (!next) return path;
    } else {
      return path;
    }
    node = next;
  }
}

/**
 * The JSON path to `offset` in a root's value: the deepest value that holds it, or the property
 * whose key it is on (`pathAtOffset`). Strict roots answer off their text, the others from the tree.
 */
export function rootPathAt(root: ParsedRoot, offset: number): JsonPath | undefined {
  return root.pathAt ? root.pathAt(offset) : pathAtOffset(root.node, offset);
}

export function pointerAtOffset(root: Node | undefined, offset: number): string | undefined {
  const path = pathAtOffset(root, offset);
  return path ? formatPointer(path) : undefined;
}

/** Whether `path` is `prefix` or lies below it. */
export function pathStartsWith(path: JsonPath, prefix: JsonPath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => p === path[i]);
}
