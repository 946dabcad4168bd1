import type { FileSystem } from './fs';
import { dirnameUri, joinUri, normalizeUri } from './uri';

/** What marks the folder a suite is linted in: its config, else its repository. */
export type SuiteMarker = 'litmus.config.json' | '.git';

/** The folder a file or folder is linted in the context of, and what marked it (none: a guess). */
export interface SuiteRoot {
  uri: string;
  marker?: SuiteMarker;
}

/**
 * The suite a path belongs to: the outermost folder at or above it that holds a
 * `litmus.config.json`, looking no higher than the repository root (the nearest folder with a
 * `.git`: a folder, or a file in a worktree); without a config there, the repository root; without
 * either, the path itself when it is a folder, else its folder.
 *
 * The outermost, not the nearest: a nested config gives part of a suite other severities, options
 * or rubric (FORMAT §1), not a workspace of its own, and a lint of the outer folder reads both as one
 * suite. A file linted alone is then linted with that same suite, so it gets the findings it gets
 * when the suite is linted: its twins, seeds and duplicate ids are found wherever in the suite they
 * are, and the result does not depend on what else was named. The repository root bounds the climb:
 * a config in a folder above the repository (a home folder) does not make the whole tree one suite.
 */
export async function findSuiteRoot(fs: FileSystem, uri: string, isFolder: boolean): Promise<SuiteRoot> {
  const start = normalizeUri(isFolder ? uri : dirnameUri(uri));
  const has = async (dir: string, name: string, type?: 'file') => {
    const st = await fs.stat(joinUri(dir, name)).catch(() => undefined);
    return st !== undefined && (type === undefined || st.type === type);
  };
  let outermost: string | undefined;
  for (let dir = start; ; ) {
    if (await has(dir, 'litmus.config.json', 'file')) outermost = dir;
    if (await has(dir, '.git')) return outermost !== undefined ? { uri: outermost, marker: 'litmus.config.json' } : { uri: dir, marker: '.git' };
    const parent = normalizeUri(dirnameUri(dir));
    if (parent === dir) return outermost !== undefined ? { uri: outermost, marker: 'litmus.config.json' } : { uri: start };
    dir = parent;
  }
}
