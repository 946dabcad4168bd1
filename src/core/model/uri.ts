import { URI, Utils } from 'vscode-uri';

/**
 * Keys join arguments with NUL, which neither a URI string nor a file name contains.
 * Results of the pure URI functions that indexing calls once per reference and per file (tens of
 * thousands of times for a large suite, mostly with the same arguments). Cleared when full.
 */
const MEMO_LIMIT = 50_000;
const normalized = new Map<string, string>();
const parents = new Map<string, string>();
const joined = new Map<string, string>();

/** Keeps a computed value unless the key is a hostile megabyte-long reference. */
function remember(map: Map<string, string>, key: string, value: string): string {
  if (key.length <= 2048) {
    if (map.size >= MEMO_LIMIT) map.clear();
    map.set(key, value);
  }
  return value;
}

/**
 * A file URI that is already its own normal form: `file:///`, or `file://` and plain segments
 * (letters, digits, `.`, `_`, `~`, `-`; none empty, none `.` or `..`) with no slash at the end. Such
 * a URI parses to itself, and its folder and its children are read off the string. Most URIs of a
 * suite are plain, and with one case per file parsing each of them (through the memos below, which
 * a workspace of 100,000 files overflows) was a tenth of a lint.
 */
const PLAIN_URI = /^file:\/\/(?:\/|(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~-]+)+)$/;
/** A path segment that a plain URI keeps plain. */
const PLAIN_SEGMENT = /^(?!\.\.?$)[A-Za-z0-9._~-]+$/;
const FILE_SCHEME = 'file://';
const ROOT = 'file:///';
/** Whether file-system paths are spelled as URI paths are (not with backslashes, as on Windows). */
const POSIX_PATHS = URI.parse('file:///a/b').fsPath === '/a/b';

/** One spelling per file, so maps keyed by URI never hold the same file twice. */
export function normalizeUri(uri: string): string {
  if (PLAIN_URI.test(uri)) return uri;
  return normalized.get(uri) ?? remember(normalized, uri, URI.parse(uri).toString());
}

export function fileUri(fsPath: string): string {
  return URI.file(fsPath).toString();
}

export function uriToPath(uri: string): string {
  if (POSIX_PATHS && PLAIN_URI.test(uri)) return uri.slice(FILE_SCHEME.length);
  return URI.parse(uri).fsPath;
}

export function dirnameUri(uri: string): string {
  if (PLAIN_URI.test(uri)) {
    const slash = uri.lastIndexOf('/');
    return slash <= ROOT.length - 1 ? ROOT : uri.slice(0, slash);
  }
  return parents.get(uri) ?? remember(parents, uri, Utils.dirname(URI.parse(uri)).toString());
}

export function basenameUri(uri: string): string {
  return Utils.basename(URI.parse(uri));
}

export function joinUri(base: string, ...segments: string[]): string {
  if (segments.length > 0 && PLAIN_URI.test(base) && segments.every((s) => PLAIN_SEGMENT.test(s))) return (base === ROOT ? base : base + '/') + segments.join('/');
  const key = [base, ...segments].join('\u0000');
  return joined.get(key) ?? remember(joined, key, Utils.joinPath(URI.parse(base), ...segments).toString());
}

/** Resolves a path written in a file (relative to that file's folder, or absolute). */
export function resolveRelative(fromFileUri: string, relPath: string): string {
  // Not memoised here: resolveTarget, its caller, keeps the normalised results.
  return Utils.resolvePath(Utils.dirname(URI.parse(fromFileUri)), relPath).toString();
}

/**
 * The normalised URI a path written in a file names: `resolveRelative` then `normalizeUri`. Every
 * tool reference of every case goes through here (twenty thousand at 10k cases, a few dozen
 * distinct per file), so results are cached per folder and path, without building a key string.
 * Per folder, not per file: with one case per file, a map per file was 7 MB at 10k cases.
 */
const targets = new Map<string, Map<string, string>>();

/**
 * The part of a file URI its relative paths depend on: its folder. The whole URI where that is not
 * plain: a query or fragment would follow the path, and an escape in the name may decode to a `/`.
 */
export function folderKey(fileUri: string): string {
  const slash = fileUri.lastIndexOf('/');
  return slash < 0 || fileUri.includes('?') || fileUri.includes('#') || fileUri.indexOf('%', slash) >= 0 ? fileUri : fileUri.slice(0, slash + 1);
}

export function resolveTarget(fromFileUri: string, relPath: string): string {
  const folder = folderKey(fromFileUri);
  let byPath = targets.get(folder);
  if (!byPath) {
    if (targets.size >= MEMO_LIMIT) targets.clear();
    targets.set(folder, (byPath = new Map()));
  }
  let target = byPath.get(relPath);
  if (target === undefined) {
    // A malformed path throws, every time: only results are kept, and not for hostile lengths.
    target = normalizeUri(resolveRelative(fromFileUri, relPath));
    if (relPath.length <= 2048 && byPath.size < MEMO_LIMIT) byPath.set(relPath, target);
  }
  return target;
}

/** True when `uri` is `root` or lies under it. */
export function isUnder(uri: string, root: string): boolean {
  const r = root.endsWith('/') ? root : root + '/';
  return uri === root || uri.startsWith(r);
}

/** A path for people: relative to `base` when under it, else the file-system path. */
export function displayPath(uri: string, baseUri?: string): string {
  if (baseUri && isUnder(uri, baseUri)) {
    const rel = uri.slice((baseUri.endsWith('/') ? baseUri : baseUri + '/').length);
    return decodeURIComponent(rel);
  }
  const parsed = URI.parse(uri);
  return parsed.scheme === 'file' ? parsed.fsPath : uri;
}

/**
 * Relative paths already found, by the folder they are seen from (as `targets` above): messages
 * name the tool file of every broken reference of a suite, and each case file names the same few
 * (two URI parses a time, 30,000 times in a suite of broken references).
 */
const relativePaths = new Map<string, Map<string, string>>();

/** The relative path from one file's folder to another file, `/`-separated. */
export function relativePath(fromFileUri: string, toUri: string): string {
  const folder = folderKey(fromFileUri);
  let known = relativePaths.get(folder);
  const kept = known?.get(toUri);
  if (kept !== undefined) return kept;
  const path = computeRelativePath(fromFileUri, toUri);
  if (!known || known.size >= MEMO_LIMIT) {
    if (relativePaths.size >= MEMO_LIMIT) relativePaths.clear();
    relativePaths.set(folder, (known = new Map()));
  }
  known.set(toUri, path);
  return path;
}

function computeRelativePath(fromFileUri: string, toUri: string): string {
  const from = URI.parse(dirnameUri(fromFileUri)).path.split('/').filter(Boolean);
  const to = URI.parse(toUri).path.split('/').filter(Boolean);
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  const up = from.slice(i).map(() => '..');
  return [...up, ...to.slice(i)].join('/');
}

/**
 * The path part of an `injection_field` location (FORMAT §4, `<relative path>#<JSON pointer>`),
 * as written in a case: the first `#` separates the pointer, so a `#` in a folder or file name
 * (`C#/mail.tools.json`) is written `%23`, and `%` itself `%25`, as in a URI reference.
 */
export function encodeLocationPath(path: string): string {
  return path.replace(/%/g, '%25').replace(/#/g, '%23');
}

/** The file path a location's path part names: `%23` is `#`, `%25` is `%`; nothing else is decoded. */
export function decodeLocationPath(written: string): string {
  return written.replace(/%2[35]/gi, (m) => (m[2] === '3' ? '#' : '%'));
}

/**
 * Two strings by Unicode code point. JavaScript's `<` compares UTF-16 code units, which puts a
 * character above U+FFFF (a surrogate pair, D800–DFFF) before one in E000–FFFF; the order people
 * and other tools (Rust, Python, `LC_ALL=C ls`) give file names is by code point.
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) return codePointRank(x) - codePointRank(y);
    return x - y;
  }
  return a.length - b.length;
}

/** A code unit at or above U+D800 placed where its code point sorts: surrogates above E000–FFFF. */
function codePointRank(unit: number): number {
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

/** Each URI's path, decoded and split into its segments, for path order (a few per case, asked often). */
const pathSegments = new Map<string, readonly string[]>();

function segmentsOf(uri: string): readonly string[] {
  let segments = pathSegments.get(uri);
  if (segments === undefined) {
    // Scheme and authority first: two files of one scheme and host compare by their paths alone.
    const parsed = PLAIN_URI.test(uri) ? undefined : URI.parse(uri);
    segments = parsed ? [parsed.scheme, parsed.authority, ...parsed.path.split('/')] : ['file', '', ...uri.slice(FILE_SCHEME.length).split('/')];
    if (uri.length <= 2048) {
      if (pathSegments.size >= MEMO_LIMIT) pathSegments.clear();
      pathSegments.set(uri, segments);
    }
  }
  return segments;
}

/**
 * Path order (FORMAT §9: "path order, then file order"), the one order every rule that picks a
 * first or a later file uses: the decoded paths (`ä`, not `%C3%A4`), compared folder by folder,
 * each name by code point, a folder before the names that extend its own. So `a/y.litmus.json`
 * comes before `a-x.litmus.json` and `a.litmus.json` (the folder `a` is a prefix of both names),
 * and `Z.litmus.json` before `ä.litmus.json` — the order a walk of the suite lists files in.
 */
export function comparePathOrder(a: string, b: string): number {
  if (a === b) return 0;
  const x = segmentsOf(a);
  const y = segmentsOf(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const c = compareCodePoints(x[i], y[i]);
    if (c !== 0) return c;
  }
  return x.length - y.length;
}
