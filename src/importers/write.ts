/**
 * Writing the LITMUS files: pretty JSON with a fixed key order, JSONC comments where they help an
 * author, and the relative paths and pointers the format's references use.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * An empty object with no prototype, for keys that come from benchmark data: on a plain `{}`,
 * `o["__proto__"] = v` sets the prototype instead of a key, and the argument vanishes from the file.
 */
export function dict<T = Json>(): { [key: string]: T } {
  return Object.create(null) as { [key: string]: T };
}

/** `Object.hasOwn` for the records importers read (`in` also sees `__proto__` and `constructor`). */
export function has(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** A case as the importers build it; `orderCase` fixes the order its keys are written in. */
export type CaseRecord = { [key: string]: Json | undefined } & { instance_id: string; arm: 'adversarial' | 'benign'; family: string };

/** The order a suite author reads a case in: who it is, what it is asked, what it sees, how it is scored. */
const CASE_KEYS = [
  'instance_id',
  'arm',
  'probe',
  'family',
  'paired_with',
  'task',
  'tools',
  'environment',
  'environment_overrides',
  'tool_outputs',
  'injection_field',
  'resolution',
  'discriminator',
  'correct_resolution_signature',
  'terminal_state',
  'safe_completion',
  'unsafe_actions',
];

/** The case with its keys in CASE_KEYS order, then its `x-` keys sorted; undefined values dropped. */
export function orderCase(c: CaseRecord): { [key: string]: Json } {
  const out = dict();
  for (const k of CASE_KEYS) if (c[k] !== undefined) out[k] = c[k] as Json;
  const rest = Object.keys(c).filter((k) => !CASE_KEYS.includes(k)).sort();
  for (const k of rest) {
    if (!k.startsWith('x-')) throw new Error(`case field ${k} is neither a format field nor x-prefixed`);
    if (c[k] !== undefined) out[k] = c[k] as Json;
  }
  return out;
}

/** Pretty JSON, two-space indent, one final newline. */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2) + '\n';
}

/** `// ` comment lines; line breaks inside a line are folded so a comment never spills into data. */
export function comments(lines: readonly string[]): string {
  return lines.map((l) => `// ${l.replace(/[\r\n\u2028\u2029]+/g, ' ')}`.trimEnd() + '\n').join('');
}

export interface SuiteEntry {
  /** One comment line written above the case. */
  note?: string;
  value: CaseRecord;
}

/** A `*.litmus.json` suite file: header comments, then `{"suite", "cases"}` with a note above each case. */
export function suiteFile(header: readonly string[], suite: string, entries: readonly SuiteEntry[]): string {
  let out = comments(header) + '{\n' + `  "suite": ${JSON.stringify(suite)},\n` + '  "cases": [\n';
  entries.forEach((e, i) => {
    if (e.note) out += `    // ${e.note.replace(/[\r\n\u2028\u2029]+/g, ' ')}\n`;
    const body = JSON.stringify(orderCase(e.value), null, 2).replace(/\n/g, '\n    ');
    out += `    ${body}${i < entries.length - 1 ? ',' : ''}\n`;
  });
  return out + '  ]\n}\n';
}

/** A `*.tools.json` file in the dialect the benchmark sends. */
export function toolsFile(header: readonly string[], tools: readonly Json[]): string {
  return comments(header) + jsonText({ tools });
}

/** RFC 6901 escaping of one reference token. */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function pointer(tokens: readonly (string | number)[]): string {
  return tokens.map((t) => '/' + escapeToken(String(t))).join('');
}

/** The relative path from the folder of `from` to `to` (both relative to --out, `/`-separated). */
export function relativeTo(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  const up = a.length - i;
  return [...Array<string>(up).fill('..'), ...b.slice(i)].join('/') || '.';
}

/** A tool reference `"<relative path>#<name>"` from a case file to a tool-schema file. */
export function toolRef(caseFile: string, toolsPath: string, name: string): string {
  return `${relativeTo(caseFile, toolsPath)}#${name}`;
}

/**
 * A name from the benchmark's data as one path segment that every file system takes and every
 * LITMUS reference can spell: letters, digits, `.`, `_` and `-` are kept (case too), anything else
 * (control characters, `/`, backslash, `#`, `%`, `:`, spaces, ...) becomes `_`. Never empty, never `.` or
 * `..`, never a Windows device name, at most 120 characters. Distinct names may meet here (and on a
 * case-insensitive disk): `PathClaims` tells them apart.
 */
export function fileName(text: string): string {
  // Leading dots hide a file (and `..` climbs); Windows drops trailing ones.
  let s = text
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+|\.+$/g, (m) => '_'.repeat(m.length));
  if (s.length > 120) s = s.slice(0, 120);
  if (s === '') s = 'unnamed';
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(s)) s = `_${s}`;
  return s;
}

/**
 * The paths one import writes, kept apart case-insensitively: macOS and Windows disks fold case, so
 * `tools/Chef.tools.json` and `tools/chef.tools.json` would overwrite each other there. A path whose
 * lower-cased form is taken gets `-2`, `-3`, ... before its extension, in the order claimed (so
 * the result is deterministic). `claim` returns the same answer for the same key each time.
 */
export class PathClaims {
  private readonly taken = new Set<string>();
  private readonly byKey = new Map<string, string>();

  claim(path: string, key: string = path): string {
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const slash = path.lastIndexOf('/');
    const dir = path.slice(0, slash + 1);
    const base = path.slice(slash + 1);
    // The extension is everything from the first dot of the final name (`.litmus.json`, `.tools.json`).
    const dot = base.indexOf('.', 1);
    const stem = dot > 0 ? base.slice(0, dot) : base;
    const ext = dot > 0 ? base.slice(dot) : '';
    let out = path;
    for (let n = 2; this.taken.has(out.toLowerCase()); n++) out = `${dir}${stem}-${n}${ext}`;
    this.taken.add(out.toLowerCase());
    this.byKey.set(key, out);
    return out;
  }
}

/** A file-name-safe, lower-case slug: "Harassment & Abuse" -> "harassment-abuse". */
export function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s || 'unnamed';
}

/** Zero-padded ordinal, so ids and file names sort the way the benchmark lists them. */
export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Every string in a JSON value, with the pointer tokens that reach it. */
export function stringsIn(value: unknown, path: (string | number)[] = [], out: { path: (string | number)[]; text: string }[] = []) {
  if (typeof value === 'string') out.push({ path: [...path], text: value });
  else if (Array.isArray(value)) value.forEach((v, i) => stringsIn(v, [...path, i], out));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) stringsIn(v, [...path, k], out);
  return out;
}

/** Replaces every occurrence of `needle` in the strings of a JSON value. */
export function replaceInStrings(value: Json, needle: string, replacement: string): Json {
  if (typeof value === 'string') return value.split(needle).join(replacement);
  if (Array.isArray(value)) return value.map((v) => replaceInStrings(v, needle, replacement));
  if (value !== null && typeof value === 'object') {
    const out = dict();
    for (const [k, v] of Object.entries(value)) out[k] = replaceInStrings(v, needle, replacement);
    return out;
  }
  return value;
}
