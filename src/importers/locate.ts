/**
 * Where a benchmark's files are, from what an author types: its root folder, the folder that holds
 * its main file, or the main file itself (`export.json`, `data/tools.json`, ...). Pure: the host
 * says what a path is through `probe`; paths are the host's own, split on `/` and `\`.
 */

export type EntryKind = 'file' | 'directory' | 'other';

export interface Layout {
  /** The file that identifies the benchmark, relative to its root, `/`-separated. */
  main: string;
}

export type Located = { ok: true; root: string } | { ok: false; error: string };

/** The path with its last `n` segments dropped (a trailing separator is not a segment). */
function up(path: string, n: number): string {
  let p = path.replace(/[\\/]+$/, '');
  for (let i = 0; i < n; i++) {
    const cut = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
    if (cut < 0) return '.';
    p = cut === 0 ? p.slice(0, 1) : p.slice(0, cut);
  }
  return p === '' ? '.' : p;
}

function segments(path: string): string[] {
  return path.split(/[\\/]+/).filter((s) => s !== '');
}

function join(root: string, rel: string): string {
  return root.endsWith('/') || root.endsWith('\\') ? root + rel : `${root}/${rel}`;
}

/** What to say when nothing fits: the main file, and the other ways in. */
export function expected(layout: Layout, where: string): string {
  const main = segments(layout.main);
  const file = main[main.length - 1];
  const folders = main.slice(0, -1);
  const also = folders.length ? `, its ${folders.join('/')}/ folder` : '';
  return `expected ${layout.main} in ${where}${also} or a path to ${file}`;
}

/**
 * The benchmark root that `input` names. A folder is the root when the main file is in it, or the
 * root's sub-folder on the way to the main file (InjecAgent's `data/`); a file is the main file.
 */
export function locateSource(layout: Layout, input: string, probe: (path: string) => EntryKind | undefined): Located {
  const kind = probe(input);
  if (kind === undefined) return { ok: false, error: `${input}: no such file or folder (${expected(layout, 'the benchmark\'s folder')})` };
  const main = segments(layout.main);
  const given = segments(input);
  const candidates: string[] = [];
  if (kind === 'directory') {
    candidates.push(input);
    // `…/data` for main `data/tools.json`: the folders on the way to the main file, named as such.
    for (let k = Math.min(main.length - 1, given.length); k >= 1; k--) {
      if (given.slice(given.length - k).join('/') === main.slice(0, k).join('/')) candidates.push(up(input, k));
    }
  } else if (kind === 'file') {
    const n = main.length;
    if (given.length >= n && given.slice(given.length - n).join('/') === main.join('/')) candidates.push(up(input, n));
    else return { ok: false, error: `${input} is not ${main[n - 1]}${n > 1 ? ` in a ${main.slice(0, -1).join('/')}/ folder` : ''}: ${expected(layout, 'a folder')}` };
  } else {
    return { ok: false, error: `${input} is neither a file nor a folder: ${expected(layout, 'a folder')}` };
  }
  for (const root of candidates) if (probe(join(root, layout.main)) === 'file') return { ok: true, root };
  return { ok: false, error: expected(layout, input) };
}
