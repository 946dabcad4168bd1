import { sameOrderedJson } from './canonical';
import { readTool, type ToolModel } from './tools';
import type { JsonPath } from '../text/types';

/**
 * The tool models last read from each file, by place, with the entry value they were read from. A
 * file read again after an edit gets the very same model for every entry that did not change, so
 * work keyed on the model (detector scans, compiled validators, the index's tool-user lists) carries
 * over, as it does for a file whose text did not change at all.
 */
const lastRead = new Map<string, Map<string, { entry: unknown; tool: ToolModel | undefined }>>();

/** Enough for every file of a large workspace; beyond it the files read longest ago are forgotten. */
const MAX_FILES = 20_000;

/** A reader for the tool entries of one new document of `uri`; it replaces what was kept for that file. */
export function toolReader(uri: string): (entry: unknown, root: number, path: JsonPath) => ToolModel | undefined {
  const before = lastRead.get(uri);
  // A file without tool entries keeps nothing.
  lastRead.delete(uri);
  const now = new Map<string, { entry: unknown; tool: ToolModel | undefined }>();
  return (entry, root, path) => {
    if (now.size === 0) {
      lastRead.set(uri, now);
      if (lastRead.size > MAX_FILES) lastRead.delete(lastRead.keys().next().value as string);
    }
    const place = `${root}\u0000${path.join('\u0000')}`;
    const last = before?.get(place);
    // Keys in the same order too: a tool's schema is shown in its own key order.
    const tool = last && sameOrderedJson(last.entry, entry) ? last.tool : readTool(entry, uri, root, path);
    now.set(place, { entry, tool });
    return tool;
  };
}

/** Drops the tool models kept for `uri` (its buffer was closed, or the file is gone). */
export function forgetTools(uri: string): void {
  lastRead.delete(uri);
}
