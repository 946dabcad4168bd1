import { setValueFix } from '../text/edit';
import { code } from '../text/escape';
import { closest, nameIndex, type NameIndex } from '../text/similar';
import { relativePath } from '../model/uri';
import type { CaseModel, EnvironmentUse, ToolFile, ToolUse, WorkspaceIndex } from '../model/workspace';
import type { JsonPath } from '../text/types';
import { overrideProblem, overridesOf } from '../model/environment';
import { formatPointer } from '../text/pointer';
import type { FixSpec } from '../text/fix';
import { caseField } from './case-fields';
import type { Rule, RuleContext, RuleMeta } from './types';

/** What a tool and an environment reference say alike when the file they name cannot be used. */
function fileProblem(kind: 'tool' | 'environment', problem: string | undefined, ref: string, file: string, readError: string | undefined): string | undefined {
  switch (problem) {
    case 'missing-file':
      return `${kind} file ${file} does not exist; fix the path (it is relative to this case file's folder)`;
    case 'unreadable':
      return `${kind} file ${file} cannot be read (${readError ?? 'unknown error'})`;
    case 'outside-workspace':
      return `${kind} reference ${ref} leads outside the workspace, to ${file}, which is not read; move the ${kind} file into the workspace, or add its folder to the workspace`;
    default:
      return undefined;
  }
}

function toolMessage(use: ToolUse, index: WorkspaceIndex, caseUri: string): string {
  const ref = code(use.ref ?? '');
  // Paths as the author wrote them, relative to the case file: the same on every machine.
  const file = use.targetUri ? code(relativePath(caseUri, use.targetUri)) : '';
  const shared = fileProblem('tool', use.problem, ref, file, index.readErrors.get(use.targetUri ?? ''));
  if (shared) return shared;
  switch (use.problem) {
    case 'malformed':
      return `tool reference ${ref} is not "<path>#<tool name>"; write the tool file's path, then # and the tool's name`;
    case 'not-a-tool-file':
      return `${file} is not a tool-schema file ({"tools": [...]}); point the reference at one`;
    default:
      return `${file} has no tool named ${code(use.targetName ?? '')}; use one of its tool names`;
  }
}

/**
 * The tool names nearest each missing name, per tool file: a tool renamed or a file's names
 * prefixed breaks the same reference in every case that uses the tool (twenty cases a tool in the
 * generated suites), and each was compared with every name of the file again. A file's names
 * never change while its model lives (model/workspace.ts keeps one per document).
 */
const nearestTools = new WeakMap<ToolFile, Map<string, string[]>>();

function nearestToolNames(file: ToolFile, name: string): string[] {
  let byName = nearestTools.get(file);
  if (!byName) nearestTools.set(file, (byName = new Map()));
  let names = byName.get(name);
  if (!names) byName.set(name, (names = closest(name, file.byName.keys())));
  return names;
}

function referenceFixes(c: CaseModel, use: ToolUse, path: JsonPath, index: WorkspaceIndex): FixSpec[] {
  if (use.problem !== 'missing-tool' || !use.targetUri || !use.ref || !use.targetName) return [];
  const file = index.toolFiles.get(use.targetUri);
  if (!file) return [];
  const names = nearestToolNames(file, use.targetName);
  const base = use.ref.slice(0, use.ref.lastIndexOf('#') + 1);
  return names.map((n) => setValueFix(`Change to ${code(base + n)}`, names.length === 1, c.doc, c.root, path, base + n));
}

/**
 * The ids to suggest from, built when a reference first names no case and kept with the map of
 * ids: the server lints again on every edit, and sorting 10,000 ids each time cost more than the
 * edit. A map's keys and their order never change once an index holds it (model/grouped.ts: an
 * update that adds, drops or reorders keys makes a new map), so what is kept stays true. The map
 * is the whole workspace's in every scope this rule runs in (lint/incremental.ts: `lookup`).
 */
const idIndexes = new WeakMap<ReadonlyMap<string, unknown>, NameIndex>();

function idIndex(ids: ReadonlyMap<string, unknown>): NameIndex {
  let found = idIndexes.get(ids);
  if (!found) idIndexes.set(ids, (found = nameIndex(ids.keys())));
  return found;
}

/**
 * A guessed id picks which twin a case is paired with or which seed it descends from: a claim
 * (FORMAT §10), so a quick fix, never --fix, however close the one guess is.
 */
function claimed(fix: FixSpec): FixSpec {
  fix.changesClaim = true;
  return fix;
}

function caseLinks(ctx: RuleContext, field: 'paired_with' | 'seed_id'): void {
  const { index } = ctx;
  for (const c of index.cases) {
    const target = c.value[field];
    if (typeof target !== 'string' || index.casesById.has(target)) continue;
    const names = idIndex(index.casesById).closest(target);
    const path = index.casePath(c, field);
    ctx.report({
      at: { uri: c.doc.uri, root: c.root, path },
      message: `${field} ${code(target)} names no case in the workspace; use an existing instance_id`,
      // Hosts that read only part of a suite hold back the rename: the id may be a case they did not read.
      data: { field, target, problem: 'missing-case' },
      // Computed when read: each edit parses the lines around its case, and most reports show titles only.
      fixes: names.slice(0, 3).map((n) => claimed(setValueFix(`Change to ${code(n)}`, names.length === 1, c.doc, c.root, path, n))),
    });
  }
}

function environmentMessage(env: EnvironmentUse, index: WorkspaceIndex, caseUri: string): string | undefined {
  const ref = code(env.ref ?? '', 80);
  const file = env.targetUri ? code(relativePath(caseUri, env.targetUri)) : '';
  const shared = fileProblem('environment', env.problem, ref, file, index.readErrors.get(env.targetUri ?? ''));
  if (shared) return shared;
  switch (env.problem) {
    case 'malformed':
      return `environment reference ${ref} is not a relative file path; write the environment file's path (relative to this case file), or put the environment inline as an object`;
    case 'not-an-environment-file':
      return `${file} is not an environment file; name it *.env.json (or give it a "$schema" naming environment.schema.json)`;
    default:
      // broken-file: parse-error reports the file itself.
      return undefined;
  }
}

/** Override pointers whose parent is nowhere in the case's environment (FORMAT §3: an override replaces a value or adds a key to an object that exists). */
function overrideFindings(ctx: RuleContext, c: CaseModel): void {
  const overrides = overridesOf(c.value, c.path);
  if (!overrides.length) return;
  const env = c.environment;
  // A reference that does not resolve is reported once, on itself; its overrides cannot be judged.
  if (env && !env.inline && (env.problem || !env.file)) return;
  const hasBase = env !== undefined;
  const base = env?.inline ? c.value.environment : env?.file?.value;
  overrides.forEach((o, i) => {
    // Not a pointer at all: the schema rule reports the key.
    const problem = overrideProblem(base, hasBase, overrides, i);
    if (!o.tokens || problem === undefined || problem === 'not-a-pointer') return;
    const parent = formatPointer(o.tokens.slice(0, -1));
    const at = code(parent || '(the root)', 80);
    const why =
      problem === 'bad-index'
        ? `${code(o.tokens[o.tokens.length - 1], 40)} is not an index of the array at ${at} (an existing index, its length, or "-" to append)`
        : problem === 'scalar-parent'
          ? `the value at ${at} is not an object or array, so it has nothing to set`
          : `the environment has nothing at ${at}`;
    // An earlier override of the root ("") gives a case without `environment` one to land in.
    const landsIn = hasBase || overrides.slice(0, i).some((earlier) => earlier.tokens?.length === 0);
    ctx.report({
      at: { uri: c.doc.uri, root: c.root, path: o.path, part: 'key' },
      message: landsIn
        ? `environment_overrides pointer ${code(o.key, 80)} lands nowhere: ${why}; point it at an existing value, or at a new key of an existing object`
        : `environment_overrides pointer ${code(o.key, 80)} overrides an environment this case does not have; add "environment", or point the override at the root ("")`,
      data: { pointer: o.key, problem: 'missing-parent', reason: problem, parent },
    });
  });
}

export const meta: RuleMeta = {
  id: 'unresolved-reference',
  defaultSeverity: 'error',
  from: '—',
  description: 'A tool reference, paired_with, seed_id, environment file reference or environment_overrides pointer that resolves to nothing.',
};

export const unresolvedReference: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      for (const [i, use] of c.tools.entries()) {
        if (use.inline || !use.problem) continue;
        const path = index.casePath(c, 'tools', i);
        ctx.report({
          at: { uri: c.doc.uri, root: c.root, path },
          message: toolMessage(use, index, c.doc.uri),
          fixes: referenceFixes(c, use, path, index),
          data: { reference: use.ref, problem: use.problem },
        });
      }
    }
    for (const c of index.cases) {
      const env = c.environment;
      const message = env && !env.inline && env.problem ? environmentMessage(env, index, c.doc.uri) : undefined;
      if (env && message) ctx.report({ at: caseField(index, c, 'environment'), message, data: { reference: env.ref, problem: env.problem } });
      overrideFindings(ctx, c);
    }
    caseLinks(ctx, 'paired_with');
    caseLinks(ctx, 'seed_id');
  },
};
