import type { LintDiagnostic } from './lint';

/**
 * The diagnostic as a host that read only part of a suite must offer it. A `paired_with` or
 * `seed_id` that names no case read may name a case that was not read (a file linted alone, with no
 * `litmus.config.json` or `.git` to show where its suite ends): renaming it to the nearest id read
 * would turn a correct link into a wrong one. Its fixes stay on offer as quick fixes, for a person
 * to choose, and are never applied without asking (`--fix`, fix-all on save).
 */
export function holdGuessedRenames(d: LintDiagnostic): LintDiagnostic {
  if (d.code !== 'unresolved-reference' || d.data?.problem !== 'missing-case' || !d.fixes.some((f) => f.unambiguous)) return d;
  return { ...d, fixes: d.fixes.map((f) => ({ ...f, unambiguous: false })) };
}
