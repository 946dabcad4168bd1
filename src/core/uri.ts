import { URI, Utils } from 'vscode-uri';

/** One spelling per file, so maps keyed by URI never hold the same file twice. */
export function normalizeUri(uri: string): string {
  return URI.parse(uri).toString();
}

export function fileUri(fsPath: string): string {
  return URI.file(fsPath).toString();
}

export function uriToPath(uri: string): string {
  return URI.parse(uri).fsPath;
}

export function dirnameUri(uri: string): string {
  return Utils.dirname(URI.parse(uri)).toString();
}

export function basenameUri(uri: string): string {
  return Utils.basename(URI.parse(uri));
}

export function joinUri(base: string, ...segments: string[]): string {
  return Utils.joinPath(URI.parse(base), ...segments).toString();
}

/** Resolves a path written in a file (relative to that file's folder, or absolute). */
export function resolveRelative(fromFileUri: string, relPath: string): string {
  const dir = Utils.dirname(URI.parse(fromFileUri));
  return Utils.resolvePath(dir, relPath).toString();
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

/** The relative path from one file's folder to another file, `/`-separated. */
export function relativePath(fromFileUri: string, toUri: string): string {
  const from = URI.parse(dirnameUri(fromFileUri)).path.split('/').filter(Boolean);
  const to = URI.parse(toUri).path.split('/').filter(Boolean);
  let i = 0;
  while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
  const up = from.slice(i).map(() => '..');
  return [...up, ...to.slice(i)].join('/');
}
