import { createScanner, SyntaxKind } from 'jsonc-parser';

export type FileKind = 'cases' | 'caseLines' | 'tools' | 'config' | 'harness' | 'scores' | 'environment';

/** The file name each kind's JSON Schema has under `schemas/`; `$schema` values are matched on it. */
export const SCHEMA_FILE: Record<FileKind, string> = {
  cases: 'case-file.schema.json',
  caseLines: 'case-line.schema.json',
  tools: 'tools.schema.json',
  config: 'config.schema.json',
  harness: 'harness.schema.json',
  scores: 'scores.schema.json',
  environment: 'environment.schema.json',
};

export const SCHEMA_BASE_URI = 'https://litmus-lint.dev/schemas/';

function baseName(uriOrPath: string): string {
  const clean = uriOrPath.replace(/[?#].*$/, '');
  return clean.slice(clean.lastIndexOf('/') + 1);
}

/** Kind by file name alone (FORMAT §1). */
export function kindFromName(uriOrPath: string): FileKind | undefined {
  const name = baseName(uriOrPath).toLowerCase();
  if (name.endsWith('.litmus.json') || name.endsWith('.litmus.jsonc')) return 'cases';
  if (name.endsWith('.litmus.jsonl')) return 'caseLines';
  if (name.endsWith('.tools.json') || name.endsWith('.tools.jsonc')) return 'tools';
  if (name === 'litmus.config.json') return 'config';
  if (name === 'litmus.harness.json') return 'harness';
  if (name.endsWith('.scores.json')) return 'scores';
  if (name.endsWith('.env.json') || name.endsWith('.env.jsonc')) return 'environment';
  return undefined;
}

export function kindFromSchemaUri(schema: string): FileKind | undefined {
  const name = baseName(schema).toLowerCase();
  for (const [kind, file] of Object.entries(SCHEMA_FILE) as [FileKind, string][]) {
    if (name === file) return kind;
  }
  // `case.schema.json` names a single case: still a case file.
  if (name === 'case.schema.json') return 'cases';
  return undefined;
}

/**
 * Reads a top-level `"$schema": "..."` without parsing the whole text: the scanner stops at the
 * first nested value, so this is cheap on any file.
 */
export function topLevelSchema(text: string): string | undefined {
  const scanner = createScanner(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, true);
  if (scanner.scan() !== SyntaxKind.OpenBraceToken) return undefined;
  let depth = 1;
  let expectKey = true;
  for (let kind = scanner.scan(); kind !== SyntaxKind.EOF && depth > 0; kind = scanner.scan()) {
    if (kind === SyntaxKind.OpenBraceToken || kind === SyntaxKind.OpenBracketToken) depth++;
    else if (kind === SyntaxKind.CloseBraceToken || kind === SyntaxKind.CloseBracketToken) depth--;
    else if (depth === 1 && kind === SyntaxKind.CommaToken) expectKey = true;
    else if (depth === 1 && expectKey && kind === SyntaxKind.StringLiteral) {
      expectKey = false;
      if (scanner.getTokenValue() !== '$schema') continue;
      if (scanner.scan() !== SyntaxKind.ColonToken) return undefined;
      return scanner.scan() === SyntaxKind.StringLiteral ? scanner.getTokenValue() : undefined;
    }
  }
  return undefined;
}

/** Kind by name, else by a top-level `$schema` that names one of the project's schemas. */
export function detectKind(uriOrPath: string, text?: string): FileKind | undefined {
  const byName = kindFromName(uriOrPath);
  if (byName) return byName;
  if (text === undefined || !/\.jsonc?$/i.test(baseName(uriOrPath))) return undefined;
  const schema = topLevelSchema(text);
  return schema ? kindFromSchemaUri(schema) : undefined;
}
