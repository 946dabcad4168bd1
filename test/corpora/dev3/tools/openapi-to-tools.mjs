// node openapi-to-tools.mjs <openapi.json> <out prefix> <source> <license> [max operations]
// Each OpenAPI operation becomes an MCP tool: named by its operationId, described by its summary and
// description, one property per parameter (its description, type, enum, default, example as
// examples) and one `body` property holding the JSON request body's schema (top level only: its
// properties' descriptions, types, enums, defaults). Operations are taken in SHA-1 order of
// `method path`, up to the maximum, and written at most 100 per file.
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

const [specPath, outPrefix, source, license, maxArg] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specPath, 'utf8'));
const max = Number(maxArg ?? 300);
const KEEP = ['type', 'description', 'enum', 'default', 'format', 'minimum', 'maximum', 'pattern', 'items'];

function slim(schema, depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 2) return {};
  const out = {};
  for (const k of KEEP) if (schema[k] !== undefined) out[k] = k === 'items' ? slim(schema.items, depth + 1) : schema[k];
  if (schema.example !== undefined && typeof schema.example !== 'object') out.examples = [schema.example];
  if (schema.properties && depth < 2) {
    out.properties = {};
    for (const [name, p] of Object.entries(schema.properties)) out.properties[name] = slim(p, depth + 1);
  }
  return out;
}

const ops = [];
for (const [path, item] of Object.entries(spec.paths ?? {})) {
  for (const method of ['get', 'put', 'post', 'delete', 'patch']) {
    const op = item[method];
    if (!op || !op.operationId) continue;
    const properties = {};
    for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
      if (!p || !p.name) continue;
      const prop = slim(p.schema ?? {});
      if (p.description) prop.description = p.description;
      if (p.example !== undefined && typeof p.example !== 'object') prop.examples = [p.example];
      properties[p.name] = prop;
    }
    const body = op.requestBody?.content?.['application/json']?.schema;
    if (body) properties.body = slim(body);
    const description = [op.summary, op.description].filter(Boolean).join('\n\n');
    const key = createHash('sha1').update(`${method} ${path}`).digest('hex');
    ops.push({ key, tool: { name: op.operationId.replace(/[^A-Za-z0-9_-]/g, '_'), description, inputSchema: { type: 'object', properties } } });
  }
}
ops.sort((a, b) => (a.key < b.key ? -1 : 1));
const taken = ops.slice(0, max).map((o) => o.tool);
for (let i = 0; i * 100 < taken.length; i++) {
  const file = `${outPrefix}-${String(i + 1).padStart(2, '0')}.tools.json`;
  writeFileSync(file, JSON.stringify({ _meta: { source, license }, tools: taken.slice(i * 100, i * 100 + 100) }, null, 2) + '\n');
}
console.log(`${taken.length} of ${ops.length} operations`);
