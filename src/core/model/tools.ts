import { isJsonObject } from './canonical';
import type { JsonPath } from '../text/types';

export type ToolDialect = 'mcp' | 'openai' | 'anthropic';

/**
 * A tool entry of any dialect (FORMAT §2) in one shape. Paths are relative to the document root
 * the entry lives in, so every rule can point back at the exact source value.
 */
export interface ToolModel {
  name: string;
  dialect: ToolDialect;
  uri: string;
  /** Index of the parsed root (JSONL line) that holds the entry. */
  root: number;
  /** Path of the tool entry itself. */
  path: JsonPath;
  /** Path of the name string. */
  namePath: JsonPath;
  /** Path of the parameter schema, when the entry has one. */
  schemaPath?: JsonPath;
  /** The parameter schema's value (JSON Schema), when present. `null` counts as absent: a tool without parameters (FORMAT §2). */
  schema?: unknown;
  /** An MCP tool's `outputSchema` and its path: scanned for payloads like a parameter schema. */
  outputSchemaPath?: JsonPath;
  outputSchema?: unknown;
  description?: string;
  descriptionPath?: JsonPath;
  title?: string;
  titlePath?: JsonPath;
}

const toolIds = new WeakMap<ToolModel, number>();
let nextToolId = 0;

/** A number for a tool model, the same for the model's life: what keys a list of tools by identity. */
export function toolId(tool: ToolModel): number {
  let id = toolIds.get(tool);
  if (id === undefined) toolIds.set(tool, (id = nextToolId++));
  return id;
}

export function toolDialect(entry: Record<string, unknown>): ToolDialect {
  if (entry.type === 'function' && isJsonObject(entry.function)) return 'openai';
  if ('input_schema' in entry && !('inputSchema' in entry)) return 'anthropic';
  return 'mcp';
}

/** Normalises one entry; undefined when it has no usable name (the schema rule reports why). */
export function readTool(value: unknown, uri: string, root: number, path: JsonPath): ToolModel | undefined {
  if (!isJsonObject(value)) return undefined;
  const dialect = toolDialect(value);
  const body = dialect === 'openai' ? (value.function as Record<string, unknown>) : value;
  const bodyPath: JsonPath = dialect === 'openai' ? [...path, 'function'] : path;
  if (typeof body.name !== 'string') return undefined;
  const schemaKey = dialect === 'mcp' ? 'inputSchema' : dialect === 'anthropic' ? 'input_schema' : 'parameters';
  const tool: ToolModel = {
    name: body.name,
    dialect,
    uri,
    root,
    path,
    namePath: [...bodyPath, 'name'],
  };
  if (schemaKey in body && body[schemaKey] !== null) {
    tool.schemaPath = [...bodyPath, schemaKey];
    tool.schema = body[schemaKey];
  }
  if (dialect === 'mcp' && isJsonObject(body.outputSchema)) {
    tool.outputSchemaPath = [...bodyPath, 'outputSchema'];
    tool.outputSchema = body.outputSchema;
  }
  if (typeof body.description === 'string') {
    tool.description = body.description;
    tool.descriptionPath = [...bodyPath, 'description'];
  }
  if (typeof body.title === 'string') {
    tool.title = body.title;
    tool.titlePath = [...bodyPath, 'title'];
  }
  return tool;
}

/** A reference `path#name`; undefined when the string is not shaped like one. */
export function parseToolReference(ref: string): { path: string; name: string } | undefined {
  const hash = ref.lastIndexOf('#');
  if (hash <= 0 || hash === ref.length - 1) return undefined;
  return { path: ref.slice(0, hash), name: ref.slice(hash + 1) };
}
