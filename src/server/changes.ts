/**
 * Which files changed since each group last finished a lint. Every event gets a stamp; a lint notes
 * the stamp it started at and, once finished, that its group has seen everything up to there, so
 * an edit made while it ran is still pending for the next one.
 */
export interface ChangeLog {
  /** A file's text may have changed (an edit, a save on disk, a buffer opened or closed). */
  file(uri: string): void;
  /** Files came or went, or groups moved: the next lint of every group walks its folder again. */
  reloadAll(): void;
  /** The stamp to hand to `done` when the lint that starts now finishes. */
  mark(): number;
  /** The files changed since the group's last finished lint; undefined when it must walk its folder. */
  since(group: string): string[] | undefined;
  done(group: string, stamp: number): void;
  forget(group: string): void;
}

export function createChangeLog(): ChangeLog {
  let stamp = 0;
  let reloadAt = 0;
  const files = new Map<string, number>();
  const synced = new Map<string, number>();

  // Entries every group has seen are dropped; one per file at most is kept either way.
  const prune = () => {
    const oldest = Math.min(...synced.values());
    for (const [uri, at] of files) if (at <= oldest) files.delete(uri);
  };

  return {
    file(uri) {
      files.set(uri, ++stamp);
    },
    reloadAll() {
      reloadAt = ++stamp;
    },
    mark: () => stamp,
    since(group) {
      const at = synced.get(group);
      if (at === undefined || reloadAt > at) return undefined;
      const out: string[] = [];
      for (const [uri, when] of files) if (when > at) out.push(uri);
      return out;
    },
    done(group, at) {
      synced.set(group, Math.max(at, synced.get(group) ?? 0));
      prune();
    },
    forget(group) {
      synced.delete(group);
    },
  };
}
