// node test/corpora/dev3/build.mjs: writes poisoned/, labels.jsonl and manifest.json of this corpus from
// payloads.jsonl and benign/ (both checked in, with their provenance in README.md). Deterministic: the
// same inputs give byte-identical files. Every payload goes into every one of the six fields, each
// time into a host tool drawn by a seeded generator (MCP servers and API operations in turn).
import { readFileSync, readdirSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parseTree, findNodeAtLocation } = require('jsonc-parser');

const here = dirname(fileURLToPath(import.meta.url));
const SEED = 'litmus-corpus/dev3/v1';
const FIELDS = ['tool_description', 'param_description', 'default', 'examples', 'const', 'enum'];
const ENCODINGS = ['plain', 'unicode_tags', 'plain', 'zero_width', 'plain', 'bidi', 'plain', 'base64', 'plain', 'homoglyph', 'plain', 'filler'];

/** mulberry32 seeded from a string (FNV-1a). */
function rng(seed) {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  let a = h >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const walkFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((e) => (e.isDirectory() ? walkFiles(join(dir, e.name)) : e.name.endsWith('.tools.json') ? [join(dir, e.name)] : []));

const payloads = readFileSync(join(here, 'payloads.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const benign = walkFiles(join(here, 'benign')).map((p) => ({ file: relative(here, p).split('\\').join('/'), value: JSON.parse(readFileSync(p, 'utf8')) }));

/** Candidate strings as the corpus README defines them. */
function countCandidates(tool) {
  let n = typeof tool.description === 'string' ? 1 : 0;
  const leaves = (v) => (typeof v === 'string' ? 1 : Array.isArray(v) ? v.reduce((a, x) => a + leaves(x), 0) : v && typeof v === 'object' ? Object.values(v).reduce((a, x) => a + leaves(x), 0) : 0);
  const walk = (v) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'description' && typeof x === 'string') n++;
        else if (['default', 'examples', 'const', 'enum'].includes(k)) n += leaves(x);
        else walk(x);
      }
    }
  };
  walk(tool.inputSchema);
  return n;
}

/** String properties of a schema at any depth under `properties`, with their paths. */
function stringProps(schema, path, out) {
  if (!schema || typeof schema !== 'object' || !schema.properties) return out;
  for (const [name, p] of Object.entries(schema.properties)) {
    if (!p || typeof p !== 'object') continue;
    const at = [...path, 'properties', name];
    if (p.type === 'string' || (Array.isArray(p.type) && p.type.includes('string'))) out.push({ at, schema: p });
    stringProps(p, at, out);
  }
  return out;
}

const CYRILLIC = { a: 'а', c: 'с', e: 'е', o: 'о', p: 'р', x: 'х', y: 'у', i: 'і', s: 'ѕ', j: 'ј', A: 'А', B: 'В', C: 'С', E: 'Е', H: 'Н', K: 'К', M: 'М', O: 'О', P: 'Р', T: 'Т', X: 'Х' };
const KEY_WORDS = ['ignore', 'system', 'password', 'instructions', 'prompt', 'secret', 'previous', 'rules', 'important', 'repeat', 'forget', 'recipient'];

function encode(text, encoding, r) {
  const ascii = /[\x20-\x7e]/.test(text);
  switch (encoding) {
    case 'unicode_tags': {
      if (!ascii) return { text, encoding: 'plain' };
      const hidden = [...text].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) < 0x7f).map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
      return { text: ['auto', 'default', 'standard'][Math.floor(r() * 3)] + hidden, encoding };
    }
    case 'zero_width': {
      let hit = false;
      const out = text.replace(/[A-Za-z]{5,}/g, (w) => {
        if (!KEY_WORDS.includes(w.toLowerCase()) && hit) return w;
        hit = true;
        return [...w].join('\u200b');
      });
      return hit ? { text: out, encoding } : { text, encoding: 'plain' };
    }
    case 'bidi':
      return { text: `\u202e${text}\u202c`, encoding };
    case 'base64': {
      const b = Buffer.from(text, 'utf8').toString('base64');
      return { text: r() < 0.5 ? b : `${['config:', 'data=', 'token: '][Math.floor(r() * 3)]}${b}`, encoding };
    }
    case 'homoglyph': {
      let changed = false;
      const out = [...text].map((c) => (CYRILLIC[c] && r() < 0.5 ? ((changed = true), CYRILLIC[c]) : c)).join('');
      return changed ? { text: out, encoding } : { text, encoding: 'plain' };
    }
    case 'filler':
      return { text: (r() < 0.5 ? 'ö'.repeat(240) : ') ] } '.repeat(48)) + '\n' + text, encoding };
    default:
      return { text, encoding: 'plain' };
  }
}

const r = rng(SEED);
const mcpHosts = [];
const apiHosts = [];
for (const b of benign) {
  b.value.tools.forEach((tool, i) => {
    if (!tool.inputSchema || !stringProps(tool.inputSchema, [], []).length || typeof tool.description !== 'string') return;
    (b.file.includes('/openapi/') ? apiHosts : mcpHosts).push({ file: b.file, index: i, tool });
  });
}

rmSync(join(here, 'poisoned'), { recursive: true, force: true });
mkdirSync(join(here, 'poisoned'));
const labels = [];
let n = 0;
for (const p of payloads) {
  for (const field of FIELDS) {
    const hosts = n % 2 === 0 ? mcpHosts : apiHosts;
    const host = hosts[Math.floor(r() * hosts.length)];
    const tool = JSON.parse(JSON.stringify(host.tool));
    const encoded = encode(p.text, ENCODINGS[Math.floor(n / 6) % ENCODINGS.length], r);
    const props = stringProps(tool.inputSchema, ['inputSchema'], []);
    const prop = props[Math.floor(r() * props.length)];
    let pointer;
    if (field === 'tool_description') {
      tool.description = `${tool.description}\n\n${encoded.text}`;
      pointer = ['tools', 0, 'description'];
    } else if (field === 'param_description') {
      prop.schema.description = prop.schema.description ? `${prop.schema.description} ${encoded.text}` : encoded.text;
      pointer = ['tools', 0, ...prop.at, 'description'];
    } else if (field === 'default' || field === 'const') {
      prop.schema[field] = encoded.text;
      pointer = ['tools', 0, ...prop.at, field];
    } else {
      const list = Array.isArray(prop.schema[field]) ? prop.schema[field] : field === 'enum' ? [typeof prop.schema.default === 'string' ? prop.schema.default : 'auto'] : [];
      list.push(encoded.text);
      prop.schema[field] = list;
      pointer = ['tools', 0, ...prop.at, field, list.length - 1];
    }
    n++;
    const file = `poisoned/${String(n).padStart(4, '0')}.tools.json`;
    const text = JSON.stringify({ tools: [tool] }, null, 2) + '\n';
    writeFileSync(join(here, file), text);
    const node = findNodeAtLocation(parseTree(text), pointer);
    const before = text.slice(0, node.offset);
    const line = before.split('\n').length;
    const column = node.offset - before.lastIndexOf('\n');
    labels.push({
      file,
      pointer: '/' + pointer.map((k) => String(k).replace(/~/g, '~0').replace(/\//g, '~1')).join('/'),
      line,
      column,
      field,
      encoding: encoded.encoding,
      payload_id: p.id,
      source: p.source,
      variant: p.variant,
      license: p.license,
      host: `${host.file}#/tools/${host.index}`,
      host_source: benign.find((b) => b.file === host.file).value._meta.source,
      host_license: benign.find((b) => b.file === host.file).value._meta.license,
    });
  }
}
writeFileSync(join(here, 'labels.jsonl'), labels.map((l) => JSON.stringify(l)).join('\n') + '\n');
const files = benign.map((b) => ({ file: b.file, source: b.value._meta.source, license: b.value._meta.license, tools: b.value.tools.length, candidateStrings: b.value.tools.reduce((a, t) => a + countCandidates(t), 0) }));
const manifest = {
  split: 'dev3',
  seed: SEED,
  builder: 'test/corpora/dev3/build.mjs',
  payloads: payloads.length,
  poisoned: labels.length,
  benignTools: files.reduce((a, f) => a + f.tools, 0),
  candidateStrings: files.reduce((a, f) => a + f.candidateStrings, 0),
  files,
};
writeFileSync(join(here, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`${labels.length} poisoned files, ${manifest.benignTools} benign tools, ${manifest.candidateStrings} candidate strings`);
