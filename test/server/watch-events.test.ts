import assert from 'node:assert/strict';
import { memoryFileSystem, type FileSystem } from '../../src/core';
import { createWorkspaceState } from '../../src/server/workspace-state';

/**
 * Issue 22, item 14: each file-watch "created" or "deleted" event scanned every path the server had
 * cached, so 2,500 such events in a 10,000-file workspace blocked requests for 20-30 s. An event
 * now costs what lies at or under its path. Time is the benchmark's to measure; here the work is
 * counted: how many elements every Map and Set iteration hands out while the events are handled.
 */
const WS = 'file:///ws';
const FILES = 10_000;

function counting(base: FileSystem): { fs: FileSystem; reads: Map<string, number> } {
  const reads = new Map<string, number>();
  return {
    reads,
    fs: {
      readFile: (uri, o) => (reads.set(uri, (reads.get(uri) ?? 0) + 1), base.readFile(uri, o)),
      readDirectory: (uri) => base.readDirectory(uri),
      stat: (uri) => base.stat(uri),
    },
  };
}

/** Runs `work` with every Map and Set iterator counted; returns how many elements they handed out. */
function iterated(work: () => void): number {
  let n = 0;
  const wrap = <T extends object>(proto: T, names: (keyof T)[]) =>
    names.map((name) => {
      const original = proto[name] as unknown as (...a: unknown[]) => Iterator<unknown>;
      (proto as Record<keyof T, unknown>)[name] = function (this: unknown, ...a: unknown[]) {
        const it = original.apply(this, a);
        return {
          next: () => {
            const r = it.next();
            if (!r.done) n++;
            return r;
          },
          [Symbol.iterator]() {
            return this;
          },
        };
      };
      return () => void ((proto as Record<keyof T, unknown>)[name] = original);
    });
  const restore = [
    ...wrap(Map.prototype, ['keys', 'values', 'entries', Symbol.iterator as keyof Map<unknown, unknown>]),
    ...wrap(Set.prototype, ['keys', 'values', 'entries', Symbol.iterator as keyof Set<unknown>]),
  ];
  try {
    work();
  } finally {
    for (const r of restore) r();
  }
  return n;
}

describe('file-watch events (issue 22)', function () {
  this.timeout(60_000);
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`${WS}/d${i % 100}/c${i}.litmus.json`] = `{"instance_id": "c${i}"}`;

  it('a created or deleted file costs what lies under its path, not every cached path', async () => {
    const { fs } = counting(memoryFileSystem(files));
    const state = createWorkspaceState(fs, { caching: () => true });
    state.setFolders([WS]);
    for (const uri of Object.keys(files)) {
      await state.fs.readFile(uri);
      await state.fs.stat(uri);
      await state.fs.realUri?.(uri);
    }
    const work = iterated(() => {
      for (let i = 0; i < 1250; i++) {
        state.fileEvent(`${WS}/new/n${i}.litmus.json`, 'created');
        state.fileEvent(`${WS}/d${i % 100}/gone${i}.litmus.json`, 'deleted');
      }
    });
    assert.ok(work < 20 * 2500, `2,500 events iterated ${work} cached entries`);
  });

  it('still forgets everything at or under a deleted folder, and nothing beside it', async () => {
    const { fs, reads } = counting(memoryFileSystem(files));
    const state = createWorkspaceState(fs, { caching: () => true });
    state.setFolders([WS]);
    const inside = `${WS}/d7/c7.litmus.json`;
    const beside = `${WS}/d70/c70.litmus.json`;
    for (const uri of [inside, beside]) await state.fs.readFile(uri);
    state.fileEvent(`${WS}/d7`, 'deleted');
    for (const uri of [inside, beside]) await state.fs.readFile(uri);
    assert.equal(reads.get(inside), 2, 'read again: its folder was deleted');
    assert.equal(reads.get(beside), 1, 'd70 is not under d7');
    state.fileEvent(`${WS}/`, 'created');
    await state.fs.readFile(beside);
    assert.equal(reads.get(beside), 2, 'an event on the folder itself reaches everything in it');
  });
});
