import Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, ValidateFunction } from 'ajv';
import caseFileSchema from '../../../schemas/case-file.schema.json';
import caseLineSchema from '../../../schemas/case-line.schema.json';
import caseSchema from '../../../schemas/case.schema.json';
import configSchema from '../../../schemas/config.schema.json';
import harnessSchema from '../../../schemas/harness.schema.json';
import scoresSchema from '../../../schemas/scores.schema.json';
import toolSchema from '../../../schemas/tool.schema.json';
import toolsSchema from '../../../schemas/tools.schema.json';
import { SCHEMA_BASE_URI, SCHEMA_FILE, type FileKind } from '../kinds';

/** Every schema the project ships, in the order ajv needs none of them before another. */
export const SCHEMAS: readonly Record<string, unknown>[] = [
  toolSchema,
  toolsSchema,
  caseSchema,
  caseFileSchema,
  caseLineSchema,
  configSchema,
  harnessSchema,
  scoresSchema,
];

/**
 * Keywords VS Code's JSON support reads for hover and completion. ajv's strict mode refuses
 * unknown keywords (a typo such as `requried` would otherwise be silently ignored), so these are
 * declared as plain annotations.
 */
const EDITOR_KEYWORDS = [
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'defaultSnippets',
  'deprecationMessage',
  'errorMessage',
  'patternErrorMessage',
  'doNotSuggest',
  'suggestSortText',
  'allowComments',
  'allowTrailingCommas',
];

export type Validator = ValidateFunction;
export type SchemaError = ErrorObject;

let compiled: Map<FileKind, Validator> | undefined;

/** One ajv instance and one compiled function per file kind, built on first use and kept. */
export function validatorFor(kind: FileKind): Validator {
  if (!compiled) {
    const ajv = new Ajv2020({
      allErrors: true,
      // Errors carry the schema that failed: titles and allowed names for the messages come from it.
      verbose: true,
      strict: true,
      // `required` inside `if` names properties declared elsewhere, and applicators inside
      // if/then/else carry no `type` of their own: both are intended.
      strictRequired: false,
      strictTypes: false,
      allowUnionTypes: true,
      // Ajv's optimiser shortens generated code that runs a few thousand times per lint; it costs
      // more at start-up than it saves.
      code: { optimize: false },
    });
    ajv.addVocabulary(EDITOR_KEYWORDS);
    for (const schema of SCHEMAS) ajv.addSchema(schema);
    const map = new Map<FileKind, Validator>();
    for (const [kind, file] of Object.entries(SCHEMA_FILE) as [FileKind, string][]) {
      const fn = ajv.getSchema(SCHEMA_BASE_URI + file);
      if (!fn) throw new Error(`schema ${file} is not bundled`);
      map.set(kind, fn);
    }
    compiled = map;
  }
  const fn = compiled.get(kind);
  if (!fn) throw new Error(`no schema for kind ${kind}`);
  return fn;
}
