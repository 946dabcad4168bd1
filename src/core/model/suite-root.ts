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
 * The suite a path belongs to: the nearest folder at or above it that holds a `litmus.config.json`
 * or a `.git` (the repository root; a folder, or a file in a worktree), whichever comes first on the
 * way up. Without either, the path itself when it is a folder, else its folder. A file linted alone
 * is then linted with its whole suite, so it gets the findings it gets when the suite is linted:
 * its twins, seeds and duplicate ids are found wherever in the suite they are.
 */
export async function findSuiteRoot(fs: FileSystem, uri: string, isFolder: boolean): Promise<SuiteRoot> {
  const start = normalizeUri(isFolder ? uri : dirnameUri(uri));
  const has = async (dir: string, name: string, type?: 'file') => {
    const st = await fs.stat(joinUri(dir, name)).catch(() => undefined);
    return st !== undefined && (type === undefined || st.type === type);
  };
  for (let dir = start; ; ) {
    if (await has(dir, 'litmus.config.json', 'file')) return { uri: dir, marker: 'litmus.config.json' };
    if (await has(dir, '.git')) return { uri: dir, marker: '.git' };
    const parent = normalizeUri(dirnameUri(dir));
    if (parent === dir) return { uri: start };
    dir = parent;
  }
}
