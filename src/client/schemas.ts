import * as vscode from 'vscode';

/** Where the project's schemas say they live (their `$id`s); suite files name them in `$schema`. */
export const SCHEMA_BASE = 'https://litmus-lint.dev/schemas/';

interface SchemaSetting {
  url?: string;
  fileMatch?: string[];
  schema?: unknown;
}

/**
 * The `json.schemas` entries that answer each project schema URL with the schema bundled in the
 * extension: VS Code's JSON support takes an entry's inline `schema` as the content of its `url`,
 * so a `$schema` naming one of ours never goes to the network. The inline schema only points at
 * the bundled file, whose relative `$ref`s then resolve beside it.
 *
 * Nothing else can: `contributes.jsonValidation` (which gives files named by their kind the bundled
 * schemas) matches document names, a document's `$schema` wins over it, VS Code's JSON client
 * fetches http(s) schema URLs itself (no content provider is asked), and it reads `json.schemas`
 * from user and workspace settings only, not from `configurationDefaults`. User settings are the
 * user's: this is opt-in (`litmus.offlineSchemas`), written only when they differ.
 */
export function schemaEntries(extensionUri: vscode.Uri, files: string[]): SchemaSetting[] {
  return files.map((f) => ({ url: `${SCHEMA_BASE}${f}`, schema: { $ref: vscode.Uri.joinPath(extensionUri, 'schemas', f).toString() } }));
}

const ours = (e: unknown): boolean => typeof e === 'object' && e !== null && typeof (e as SchemaSetting).url === 'string' && (e as SchemaSetting).url!.startsWith(SCHEMA_BASE);

/**
 * Brings the user's `json.schemas` to hold exactly our entries for our URLs (their own entries
 * kept, in order) when `litmus.offlineSchemas` is on, or none of ours when it is off (the default).
 * Writes only when they differ: off, with none of ours there, it writes nothing. Returns whether it
 * wrote.
 */
export async function syncSchemaSettings(extensionUri: vscode.Uri, log: (text: string) => void): Promise<boolean> {
  let files: string[];
  try {
    files = (await vscode.workspace.fs.readDirectory(vscode.Uri.joinPath(extensionUri, 'schemas')))
      .filter(([name, type]) => type === vscode.FileType.File && name.endsWith('.schema.json'))
      .map(([name]) => name)
      .sort();
  } catch (e) {
    log(`bundled schemas not found: ${String(e)}`);
    return false;
  }
  const enabled = vscode.workspace.getConfiguration('litmus').get<boolean>('offlineSchemas', false);
  const json = vscode.workspace.getConfiguration('json');
  const current = json.inspect<unknown[]>('schemas')?.globalValue;
  const theirs = Array.isArray(current) ? current.filter((e) => !ours(e)) : [];
  const wanted = enabled ? [...theirs, ...schemaEntries(extensionUri, files)] : theirs;
  const before = Array.isArray(current) ? current : [];
  if (JSON.stringify(before) === JSON.stringify(wanted)) return false;
  try {
    await json.update('schemas', wanted.length ? wanted : undefined, vscode.ConfigurationTarget.Global);
    log(enabled ? `json.schemas: ${files.length} LITMUS schema URLs answered from the extension (${SCHEMA_BASE}*)` : 'json.schemas: LITMUS schema URL entries removed (litmus.offlineSchemas is off)');
    return true;
  } catch (e) {
    log(`could not update json.schemas: ${String(e)}`);
    return false;
  }
}
