import { SourceError, type ImportOptions, type ImportResult, type ImportSummary, type OutputFile, type SourceReader } from './types';

export interface ImportBody {
  files: OutputFile[];
  warnings: string[];
  summary: ImportSummary;
}

/** Runs an importer body and turns a data fault into the one-line error value the CLI prints. */
export function runImporter(source: SourceReader, options: ImportOptions, body: (source: SourceReader, options: ImportOptions) => ImportBody): ImportResult {
  try {
    const out = body(source, options);
    const files = [...out.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    // Two generators writing one path would lose one silently: that is a bug here, not in the data
    // (PathClaims keeps data-derived names apart). Compared lower-cased, as macOS and Windows disks do.
    const seen = new Map<string, string>();
    for (const f of files) {
      const prior = seen.get(f.path.toLowerCase());
      if (prior !== undefined) throw new Error(prior === f.path ? `importer wrote ${f.path} twice` : `importer wrote ${prior} and ${f.path}, one file on a case-insensitive disk`);
      seen.set(f.path.toLowerCase(), f.path);
    }
    return { ok: true, files, warnings: out.warnings, summary: out.summary };
  } catch (e) {
    if (e instanceof SourceError) return { ok: false, error: oneLine(e.message) };
    throw e;
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s*\n\s*/g, ' ').trim();
  return line.length > 300 ? line.slice(0, 297) + '...' : line;
}

/** Reads a file the importer cannot do without. */
export function need(source: SourceReader, path: string): string {
  const text = source.read(path);
  if (text === undefined) throw new SourceError(path, 'not found');
  return text;
}

/** Parses a JSON data file; truncated or malformed text is a one-line error naming the file. */
export function parseJsonFile(path: string, text: string): unknown {
  try {
    return JSON.parse(stripBom(text));
  } catch (e) {
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    const truncated = /end of (JSON )?input|Unterminated string/i.test(why);
    throw new SourceError(path, `${truncated ? 'truncated JSON' : 'malformed JSON'} (${why})`);
  }
}

/**
 * Parses a JSON Lines data file: one object per non-blank line. A line written as a Python literal
 * (`{'a': 'b'}`, True/None) is named as such: it is not JSON, however close it looks.
 */
export function parseJsonLines(path: string, text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const lines = stripBom(text).split(/\r?\n/);
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      if (looksLikePythonLiteral(line)) throw new SourceError(`${path}:${i + 1}`, 'a Python literal, not JSON (single quotes or True/False/None); write the line as JSON');
      const truncated = i === lines.length - 1 || (i === lines.length - 2 && lines[lines.length - 1] === '');
      const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
      throw new SourceError(`${path}:${i + 1}`, `${truncated ? 'truncated' : 'malformed'} JSON line (${why})`);
    }
    if (!isObject(value)) throw new SourceError(`${path}:${i + 1}`, 'expected a JSON object on each line');
    out.push(value);
  });
  return out;
}

function looksLikePythonLiteral(line: string): boolean {
  const t = line.trim();
  return /^[{[]/.test(t) && (/^[{[]\s*'/.test(t) || /[:,[]\s*'[^']*'/.test(t) || /\b(True|False|None)\b/.test(t));
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Field readers that name the file and the record when the data is not what the benchmark ships. */
export function field(where: string, record: Record<string, unknown>, key: string): unknown {
  if (!(key in record)) throw new SourceError(where, `missing field "${key}"`);
  return record[key];
}

export function str(where: string, record: Record<string, unknown>, key: string): string {
  const v = field(where, record, key);
  if (typeof v !== 'string') throw new SourceError(where, `"${key}" should be a string, not ${kindOf(v)}`);
  return v;
}

export function arr(where: string, record: Record<string, unknown>, key: string): unknown[] {
  const v = field(where, record, key);
  if (!Array.isArray(v)) throw new SourceError(where, `"${key}" should be an array, not ${kindOf(v)}`);
  return v;
}

export function obj(where: string, record: Record<string, unknown>, key: string): Record<string, unknown> {
  const v = field(where, record, key);
  if (!isObject(v)) throw new SourceError(where, `"${key}" should be an object, not ${kindOf(v)}`);
  return v;
}

export function strings(where: string, record: Record<string, unknown>, key: string): string[] {
  const v = arr(where, record, key);
  for (const s of v) if (typeof s !== 'string') throw new SourceError(where, `"${key}" should hold strings only`);
  return v as string[];
}

export function kindOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Counts cases by arm for the summary line and the README. */
export function summarize(cases: readonly { arm: string; 'x-derived'?: boolean }[]): ImportSummary {
  let adversarial = 0;
  let benign = 0;
  let derived = 0;
  for (const c of cases) {
    if (c.arm === 'adversarial') adversarial++;
    else benign++;
    if (c['x-derived'] === true) derived++;
  }
  return { cases: cases.length, adversarial, benign, derived };
}
