import { SCHEMAS } from './validators';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Follows a `#/$defs/...` reference inside the schema file that holds it. */
function local(root: Json, schema: Json): Json {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) node = isObject(node) ? node[token] : undefined;
  return isObject(node) ? { ...node, ...schema } : schema;
}

let titles: Map<string, string> | undefined;

/**
 * A property's `title` from the schemas, for "missing required property" messages. The schemas'
 * titles are written as a short gloss of the field, so one text serves hover and diagnostics.
 */
function allTitles(): Map<string, string> {
  if (titles) return titles;
  const out = new Map<string, string>();
  const visit = (root: Json, node: unknown, depth: number): void => {
    if (depth > 32) return;
    if (Array.isArray(node)) {
      for (const n of node) visit(root, n, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    const props = node.properties;
    if (isObject(props)) {
      for (const [name, sub] of Object.entries(props)) {
        if (!isObject(sub) || out.has(name)) continue;
        const title = local(root, sub).title;
        if (typeof title === 'string') out.set(name, title);
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'defaultSnippets' && key !== 'enum' && key !== 'const' && key !== 'default') visit(root, value, depth + 1);
    }
  };
  for (const schema of SCHEMAS) visit(schema, schema, 0);
  titles = out;
  return out;
}

/** The title of `name`: from the schema that failed when it declares it, else from any schema. */
export function propertyTitle(name: string, parentSchema: unknown): string | undefined {
  if (isObject(parentSchema) && isObject(parentSchema.properties)) {
    const sub = parentSchema.properties[name];
    if (isObject(sub) && typeof sub.title === 'string') return sub.title;
  }
  return allTitles().get(name);
}

/** Property names the failing object schema declares (for "did you mean" suggestions). */
export function declaredProperties(parentSchema: unknown): string[] {
  return isObject(parentSchema) && isObject(parentSchema.properties) ? Object.keys(parentSchema.properties).filter((k) => k !== '$schema') : [];
}

/** True when the object schema admits custom fields with the `x-` prefix. */
export function allowsCustomFields(parentSchema: unknown): boolean {
  return isObject(parentSchema) && isObject(parentSchema.patternProperties) && '^x-' in parentSchema.patternProperties;
}
