import { neutraliseWorkflowCommandsInJson } from '../../core';

/**
 * `JSON.stringify(value, null, 2) + '\n'` (or, with `pretty` false, `JSON.stringify(value) + '\n'`) as a sequence of chunks of about CHUNK characters, for a
 * report past the longest string V8 can build (about 512 M characters): `--format json` of a
 * suite with hundreds of thousands of findings. The text is the same, character for character.
 */
const CHUNK = 1 << 20;

type Frame = { kind: 'array'; items: unknown[]; i: number; indent: string } | { kind: 'object'; entries: [string, unknown][]; i: number; indent: string };

function scalar(v: unknown): string | undefined {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'string' || typeof v === 'boolean') return JSON.stringify(v);
  return undefined;
}

function withToJson(v: unknown): unknown {
  const t = v as { toJSON?: () => unknown } | null;
  return t !== null && typeof t === 'object' && typeof t.toJSON === 'function' ? t.toJSON() : v;
}

export function* jsonChunks(root: unknown, pretty = true): Generator<string> {
  const nl = pretty ? '\n' : '';
  const step = pretty ? '  ' : '';
  const colon = pretty ? ': ' : ':';
  let buf = '';
  const frames: Frame[] = [];
  // Opens a container (or writes a scalar) for `v` at `indent`.
  const open = (raw: unknown, indent: string): void => {
    const v = withToJson(raw);
    const s = scalar(v);
    if (s !== undefined) buf += s;
    else if (Array.isArray(v)) {
      if (v.length === 0) buf += '[]';
      else {
        buf += '[';
        frames.push({ kind: 'array', items: v, i: 0, indent });
      }
    } else if (typeof v === 'object' && v !== null) {
      const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => {
        const y = withToJson(x);
        return y !== undefined && typeof y !== 'function' && typeof y !== 'symbol';
      });
      if (entries.length === 0) buf += '{}';
      else {
        buf += '{';
        frames.push({ kind: 'object', entries, i: 0, indent });
      }
    } else buf += 'null';
  };
  open(root, '');
  while (frames.length) {
    if (buf.length >= CHUNK) {
      yield buf;
      buf = '';
    }
    const f = frames[frames.length - 1];
    const inner = f.indent + step;
    if (f.kind === 'array') {
      if (f.i === f.items.length) {
        frames.pop();
        buf += `${nl}${f.indent}]`;
        continue;
      }
      buf += (f.i ? ',' : '') + nl + inner;
      const item = withToJson(f.items[f.i++]);
      open(item === undefined || typeof item === 'function' || typeof item === 'symbol' ? null : item, inner);
    } else {
      if (f.i === f.entries.length) {
        frames.pop();
        buf += `${nl}${f.indent}}`;
        continue;
      }
      const [k, v] = f.entries[f.i++];
      buf += (f.i > 1 ? ',' : '') + nl + inner + JSON.stringify(k) + colon;
      open(v, inner);
    }
  }
  yield buf + '\n';
}

/** Pieces joined into chunks of at least `size` characters (the last may be shorter): one write each. */
export function* inChunks(pieces: Iterable<string>, size = 1 << 15): Generator<string> {
  let buf = '';
  for (const piece of pieces) {
    buf += piece;
    if (buf.length >= size) {
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

/**
 * A JSON report's parts in chunks of about `size` characters, each with `##[` written `##\u005b`
 * (core/text/workflow.ts). The parts must be cut outside strings, so that `##[` never spans two.
 */
export function* jsonTextChunks(parts: Iterable<string>, size?: number): Generator<string> {
  for (const chunk of inChunks(parts, size)) yield neutraliseWorkflowCommandsInJson(chunk);
}
