import { setValue } from '../text/edit';
import { code } from '../text/escape';
import { closest } from '../text/similar';
import { displayPath, relativePath } from '../model/uri';
import type { CaseModel, ToolUse, WorkspaceIndex } from '../model/workspace';
import type { FixSpec } from '../text/fix';
import type { Rule, RuleContext, RuleMeta } from './types';

function toolMessage(use: ToolUse, index: WorkspaceIndex, caseUri: string): string {
  const ref = code(use.ref ?? '');
  // Paths as the author wrote them, relative to the case file: the same on every machine.
  const file = use.targetUri ? code(use.problem === 'outside-workspace' ? displayPath(use.targetUri) : relativePath(caseUri, use.targetUri)) : '';
  switch (use.problem) {
    case 'malformed':
      return `tool reference ${ref} is not "<path>#<tool name>"; write the tool file's path, then # and the tool's name`;
    case 'missing-file':
      return `tool file ${file} does not exist; fix the path (it is relative to this case file's folder)`;
    case 'unreadable':
      return `tool file ${file} cannot be read (${index.readErrors.get(use.targetUri ?? '') ?? 'unknown error'})`;
    case 'outside-workspace':
      return `tool reference ${ref} leads outside the workspace, to ${file}, which is not read; move the tool file into the workspace, or add its folder to the workspace`;
    case 'not-a-tool-file':
      return `${file} is not a tool-schema file ({"tools": [...]}); point the reference at one`;
    default:
      return `${file} has no tool named ${code(use.targetName ?? '')}; use one of its tool names`;
  }
}

function referenceFixes(c: CaseModel, use: ToolUse, index: WorkspaceIndex): FixSpec[] {
  if (use.problem !== 'missing-tool' || !use.targetUri || !use.ref || !use.targetName) return [];
  const file = index.toolFiles.get(use.targetUri);
  if (!file) return [];
  const names = closest(use.targetName, file.byName.keys());
  const base = use.ref.slice(0, use.ref.lastIndexOf('#') + 1);
  return names.map((n) => ({
    title: `Change to ${code(base + n)}`,
    unambiguous: names.length === 1,
    changes: [{ uri: c.doc.uri, version: c.doc.version, changes: setValue(c.doc, c.root, use.path, base + n) }],
  }));
}

function caseLinks(ctx: RuleContext, field: 'paired_with' | 'seed_id'): void {
  const { index } = ctx;
  for (const c of index.cases) {
    const target = c.value[field];
    if (typeof target !== 'string' || index.casesById.has(target)) continue;
    const names = closest(target, index.casesById.keys());
    ctx.report({
      at: { uri: c.doc.uri, root: c.root, path: index.casePath(c, field) },
      message: `${field} ${code(target)} names no case in the workspace; use an existing instance_id`,
      fixes: names.slice(0, 3).map((n) => ({
        title: `Change to ${code(n)}`,
        unambiguous: names.length === 1,
        changes: [{ uri: c.doc.uri, version: c.doc.version, changes: setValue(c.doc, c.root, index.casePath(c, field), n) }],
      })),
    });
  }
}

export const meta: RuleMeta = {
  id: 'unresolved-reference',
  defaultSeverity: 'error',
  from: '—',
  description: 'A tool reference, paired_with or seed_id that resolves to nothing.',
};

export const unresolvedReference: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    for (const c of index.cases) {
      for (const use of c.tools) {
        if (use.inline || !use.problem) continue;
        ctx.report({
          at: { uri: c.doc.uri, root: c.root, path: use.path },
          message: toolMessage(use, index, c.doc.uri),
          fixes: referenceFixes(c, use, index),
          data: { reference: use.ref, problem: use.problem },
        });
      }
    }
    caseLinks(ctx, 'paired_with');
    caseLinks(ctx, 'seed_id');
  },
};
