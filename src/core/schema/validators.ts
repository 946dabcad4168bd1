import type { ErrorObject, ValidateFunction } from 'ajv';
import caseFileSchema from '../../../schemas/case-file.schema.json';
import caseLineSchema from '../../../schemas/case-line.schema.json';
import caseSchema from '../../../schemas/case.schema.json';
import configSchema from '../../../schemas/config.schema.json';
import environmentSchema from '../../../schemas/environment.schema.json';
import harnessSchema from '../../../schemas/harness.schema.json';
import scoresSchema from '../../../schemas/scores.schema.json';
import toolSchema from '../../../schemas/tool.schema.json';
import toolsSchema from '../../../schemas/tools.schema.json';
import type { FileKind } from '../model/kinds';
import * as compiled from './generated/project';

/** Every schema the project ships (for hover titles and tests; validation uses the compiled code below). */
export const SCHEMAS: readonly Record<string, unknown>[] = [
  toolSchema,
  toolsSchema,
  caseSchema,
  caseFileSchema,
  caseLineSchema,
  configSchema,
  harnessSchema,
  scoresSchema,
  environmentSchema,
];

export type Validator = ValidateFunction;
export type SchemaError = ErrorObject;

/**
 * One validation function per file kind, compiled from the schemas above when the project is
 * built (scripts/gen-validators.mjs, which also holds the Ajv options), so no lint pays for
 * compiling them.
 */
const BY_KIND: Record<FileKind, Validator> = {
  cases: compiled.caseFile as Validator,
  caseLines: compiled.caseLine as Validator,
  tools: compiled.tools as Validator,
  config: compiled.config as Validator,
  harness: compiled.harness as Validator,
  scores: compiled.scores as Validator,
  environment: compiled.environment as Validator,
};

export function validatorFor(kind: FileKind): Validator {
  const fn = BY_KIND[kind];
  if (!fn) throw new Error(`no schema for kind ${kind}`);
  return fn;
}
