import { getLanguageService, type CompletionList, type Hover, type LanguageService } from 'vscode-json-languageservice';
import type { Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import caseFile from '../../schemas/case-file.schema.json';
import caseLine from '../../schemas/case-line.schema.json';
import caseSchema from '../../schemas/case.schema.json';
import config from '../../schemas/config.schema.json';
import environment from '../../schemas/environment.schema.json';
import harness from '../../schemas/harness.schema.json';
import scores from '../../schemas/scores.schema.json';
import tool from '../../schemas/tool.schema.json';
import tools from '../../schemas/tools.schema.json';
import { kindFromName, kindFromSchemaUri, SCHEMA_BASE_URI, topLevelSchema } from '../core';

/** The bundled schemas by their `$id`s, which suite files name in `$schema`. */
const BUNDLED: Record<string, unknown> = {
  'case-file.schema.json': caseFile,
  'case-line.schema.json': caseLine,
  'case.schema.json': caseSchema,
  'config.schema.json': config,
  'environment.schema.json': environment,
  'harness.schema.json': harness,
  'scores.schema.json': scores,
  'tool.schema.json': tool,
  'tools.schema.json': tools,
};

/** File names by kind, as package.json's `jsonValidation` gives them to VS Code (JSON Lines: none). */
const BY_NAME: Record<string, string[]> = {
  'case-file.schema.json': ['**/*.litmus.json', '**/*.litmus.jsonc'],
  'tools.schema.json': ['**/*.tools.json', '**/*.tools.jsonc'],
  'config.schema.json': ['**/litmus.config.json'],
  'harness.schema.json': ['**/litmus.harness.json'],
  'scores.schema.json': ['**/*.scores.json'],
  'environment.schema.json': ['**/*.env.json', '**/*.env.jsonc'],
};

export interface SchemaFeatures {
  complete(doc: TextDocument, position: Position): Promise<CompletionList | null>;
  hover(doc: TextDocument, position: Position): Promise<Hover | null>;
}

/**
 * Completion and hover from the bundled JSON Schemas, for documents whose top-level `$schema` names
 * one of them, and (unless the editor has its own JSON support for them: `byName` false, as in VS
 * Code, whose `contributes.jsonValidation` covers them) for LITMUS files named by their kind.
 *
 * VS Code's JSON support answers a `$schema` URL by downloading it, and reads a mapping to local
 * files only from the user's settings: the server answers these documents itself, from schemas
 * compiled into it, and never goes to the network. Every relative `$ref` between the schemas
 * resolves to another bundled `$id`.
 */
export function createSchemaFeatures(options: { byName: boolean }): SchemaFeatures {
  const ls: LanguageService = getLanguageService({
    // Nothing is fetched: a `$ref` outside the bundled set resolves to nothing.
    schemaRequestService: (uri) => Promise.reject(new Error(`not bundled: ${uri}`)),
    // `"$ref": "case.schema.json"` resolves beside the schema that holds it: another bundled `$id`.
    workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).toString() },
  });
  ls.configure({
    validate: false,
    allowComments: true,
    schemas: Object.entries(BUNDLED).map(([file, schema]) => ({
      uri: SCHEMA_BASE_URI + file,
      schema: schema as object,
      ...(options.byName && BY_NAME[file] ? { fileMatch: BY_NAME[file] } : {}),
    })),
  });

  /** Whether the document gets the features: `$schema` naming ours, else (if asked) its name. */
  const applies = (doc: TextDocument): boolean => {
    // JSON Lines hold one case per line, not one JSON document.
    if (/\.jsonl$/i.test(doc.uri)) return false;
    const declared = topLevelSchema(doc.getText());
    if (declared !== undefined) return declared.startsWith(SCHEMA_BASE_URI) && kindFromSchemaUri(declared) !== undefined;
    return options.byName && kindFromName(doc.uri) !== undefined;
  };

  return {
    async complete(doc, position) {
      return applies(doc) ? ls.doComplete(doc, position, ls.parseJSONDocument(doc)) : null;
    },
    async hover(doc, position) {
      return applies(doc) ? ls.doHover(doc, position, ls.parseJSONDocument(doc)) : null;
    },
  };
}
