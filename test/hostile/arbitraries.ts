/**
 * fast-check generators for hostile suites, shared by the property tests and `npm run fuzz`.
 * Values come from small pools on purpose: shared ids, families and tool names make the
 * cross-file rules fire, and near-miss names make them offer fixes.
 */
import * as fc from 'fast-check';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export type Files = Record<string, string>;

/** The characters that break naive code: hidden, bidi, surrogates, NUL, BOM, JSON syntax. */
export const HOSTILE_UNITS: readonly string[] = [
  '\u0000', '\u0007', '\u001b[31m', '\ufeff', '\ud800', '\udc00', '\udbff\udfff', '\u202e', '\u202d', '\u2066', '\u2069',
  '\u200b', '\u200d', '\u2028', '\u2029', '\u00ad', '\u061c', '\ufe0f', '\u3164',
  String.fromCodePoint(0xe0001), String.fromCodePoint(0xe0041), String.fromCodePoint(0xe0069), String.fromCodePoint(0xe007f),
  '\r', '\n', '\r\n', '\t', '"', '\\', '\\u', '\\ud800', '{', '}', '[', ']', ',', ':', '/', '//', '/*', '*/', '#', '~', '~1',
  '`', '[x](command:workbench.action.quit)', '<img src=x>', '${', '%2e%2e/', '../', '\u0085', '\u009b',
];

export const hostileUnit = fc.constantFrom(...HOSTILE_UNITS);

/** Text mixing hostile units with arbitrary code points (all planes). */
export const hostileText: fc.Arbitrary<string> = fc
  .array(fc.oneof({ weight: 2, arbitrary: hostileUnit }, { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) }), { maxLength: 8 })
  .map((parts) => parts.join(''));

const IDS = ['a1', 'a2', 'b1', 'b2', 'seed'];
const FAMILIES = ['f1', 'f2'];
const TOOL_NAMES = ['send_email', 'send_mail', 'read_file', 'search'];
const REFS = [
  '../tools/t.tools.json#send_email',
  '../tools/t.tools.json#send_mail',
  '../tools/t.tools.json#read_fil',
  '../tools/t.tools.json#',
  '../tools/missing.tools.json#x',
  '../../etc/passwd#root',
  '/etc/passwd#root',
  '../tools/../tools/t.tools.json#search',
  '#',
  'no-hash',
  '../suite/a.litmus.json#x',
];
const POINTERS = ['#/tools/0/inputSchema/properties/cc/default', '../tools/t.tools.json#/tools/0/inputSchema/properties/cc/default', '#/', '#/~2', '#/tools/99', ''];

const pooled = (pool: readonly string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: hostileText });

/** Any JSON value, with hostile strings and keys, a few levels deep. */
export const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'value', withCrossShrink: true },
    hostileText,
    fc.constantFrom(...IDS, ...FAMILIES, ...TOOL_NAMES, ...REFS, 'adversarial', 'benign', 'decline', 'comply', 'goal_drift', 'episode', 'off', 'error'),
    fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.constantFrom(0, -1, 8, 9, 1e308, -0, 0.5)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.oneof(fc.constantFrom('type', 'default', 'enum', 'const', 'properties', 'items', 'x-a'), hostileText), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const CASE_FIELDS: Record<string, fc.Arbitrary<unknown>> = {
  instance_id: pooled(IDS),
  arm: pooled(['adversarial', 'benign']),
  probe: pooled(['skill_misuse', 'goal_drift', 'deceptive_alignment', 'prompt_injection']),
  family: pooled(FAMILIES),
  task: hostileText,
  tools: fc.array(fc.oneof(fc.constantFrom(...REFS), anyValue), { maxLength: 3 }),
  tool_scopes: fc.dictionary(fc.constantFrom(...TOOL_NAMES), fc.array(fc.constantFrom('read', 'write', 'send', 'admin'), { maxLength: 2 }), { maxKeys: 2 }),
  requires_tool_scope_breach: fc.oneof(fc.boolean(), anyValue),
  resolution: pooled(['comply', 'decline', 'partial_decline']),
  correct_resolution_signature: fc.oneof(fc.constantFrom('refuse', 'send the mail', 'Refuse.'), anyValue),
  terminal_state: fc.oneof(fc.constantFrom('done', 'sent'), anyValue),
  drift_terminal_state: fc.oneof(fc.constantFrom('done', 'leaked'), anyValue),
  paired_with: pooled([...IDS, 'a3', 'b']),
  discriminator: pooled(['request', 'response']),
  injection_field: fc.oneof(fc.constantFrom(...POINTERS), fc.array(fc.constantFrom(...POINTERS), { maxLength: 2 }), anyValue),
  seed_id: pooled(IDS),
  mutation_depth: fc.oneof(fc.integer({ min: -1, max: 12 }), anyValue),
  safe_completion: fc.array(
    fc.oneof(fc.record({ tool: pooled(TOOL_NAMES), arguments: fc.dictionary(fc.constantFrom('to', 'cc', 'body'), anyValue, { maxKeys: 2 }) }), fc.record({ respond: hostileText }), anyValue),
    { maxLength: 2 },
  ),
  'x-note': hostileText,
};

/** A case object: a random subset of the FORMAT §3 fields, sometimes with a stray field. */
export const caseValue: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.record(CASE_FIELDS, { requiredKeys: ['instance_id', 'arm'] }), fc.option(fc.tuple(hostileText, anyValue), { freq: 4 }))
  .map(([c, extra]) => (extra ? { ...c, [extra[0]]: extra[1] } : c));

const schemaValue: fc.Arbitrary<unknown> = fc.letrec<{ schema: unknown }>((tie) => ({
  schema: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'schema' },
    anyValue,
    fc.record(
      {
        type: fc.constantFrom('object', 'string', 'integer', 'array', 'null'),
        properties: fc.dictionary(fc.constantFrom('to', 'cc', 'body', 'path'), tie('schema'), { maxKeys: 2 }),
        required: fc.array(fc.constantFrom('to', 'cc', 'body', 'x'), { maxLength: 2 }),
        default: anyValue,
        examples: fc.array(hostileText, { maxLength: 2 }),
        enum: fc.array(fc.oneof(hostileText, anyValue), { maxLength: 3 }),
        const: anyValue,
        minimum: fc.integer({ min: -5, max: 5 }),
        maximum: fc.integer({ min: -5, max: 5 }),
        items: tie('schema'),
        anyOf: fc.array(tie('schema'), { maxLength: 2 }),
        description: hostileText,
      },
      { requiredKeys: [] },
    ),
  ),
})).schema;

/** A tool entry in any of the three dialects (FORMAT §2), or something that is none of them. */
export const toolValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ name: pooled(TOOL_NAMES), description: hostileText, inputSchema: schemaValue }, { requiredKeys: ['name'] }),
  fc.record({ type: fc.constant('function'), function: fc.record({ name: pooled(TOOL_NAMES), description: hostileText, parameters: schemaValue }) }),
  fc.record({ name: pooled(TOOL_NAMES), description: hostileText, input_schema: schemaValue }),
  anyValue,
);

const configValue = fc.record(
  {
    rules: fc.dictionary(fc.oneof(fc.constantFrom('schema', 'injection-payload', 'duplicate-id', 'mutation-budget'), hostileText), pooled(['error', 'warning', 'info', 'hint', 'off']), { maxKeys: 3 }),
    maxMutationDepth: fc.oneof(fc.integer({ min: -2, max: 10 }), anyValue),
    injection: fc.record({ scanDescriptions: fc.oneof(fc.boolean(), anyValue), allow: fc.array(fc.oneof(hostileText, fc.constantFrom('/(/', '/a+/', '/(a+)+$/')), { maxLength: 2 }) }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);

const harnessValue = fc.record(
  {
    reset_counters: pooled(['episode', 'batch', 'worker']),
    prompt_includes_harness_scratch: fc.oneof(fc.boolean(), anyValue),
    refusal_canary_cache: pooled(['none', 'episode', 'worker']),
    scenario_order: pooled(['shuffled', 'sorted', 'as_listed']),
    permutation_probe: fc.boolean(),
    cold_warm_check: fc.boolean(),
    max_permutation_delta: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anyValue),
  },
  { requiredKeys: [] },
);

const rate = fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anyValue);
const scoresValue = fc.record({
  suite: hostileText,
  runs: fc.array(
    fc.record(
      {
        suite_version: fc.constantFrom('1', '2', '3'),
        adversarial_score: rate,
        benign_score: rate,
        aggregate: rate,
        lambda: rate,
        permutation: fc.record({ canonical_rate: rate, permuted_rate: rate }),
        cold_warm: fc.record({ cold_rate: rate, warm_rate: rate }),
      },
      { requiredKeys: ['suite_version'] },
    ),
    { maxLength: 3 },
  ),
});

/** How a value is written out: indentation, comments, line endings, BOM. */
export interface Style {
  indent: 0 | 2 | 4 | '\t';
  comments: boolean;
  eol: '\n' | '\r\n' | '\r' | 'mixed';
  bom: boolean;
}

export const style: fc.Arbitrary<Style> = fc.record({
  indent: fc.constantFrom(0 as const, 2 as const, 4 as const, '\t' as const),
  comments: fc.boolean(),
  eol: fc.constantFrom('\n' as const, '\r\n' as const, '\r' as const, 'mixed' as const),
  bom: fc.boolean(),
});

function withEol(text: string, eol: Style['eol']): string {
  if (eol === '\n') return text;
  if (eol !== 'mixed') return text.replace(/\n/g, eol);
  let i = 0;
  return text.replace(/\n/g, () => ['\n', '\r\n', '\r'][i++ % 3]);
}

export function render(value: unknown, s: Style): string {
  let text = JSON.stringify(value, null, s.indent === 0 ? undefined : s.indent) ?? 'null';
  if (s.comments) {
    // Comments where people put them: a header, and one before some members.
    text = '// header \u202e comment\n' + text.replace(/\n(\s*)"/g, (m, ws: string, off: number) => (off % 3 === 0 ? `\n${ws}/* note */ "` : m));
    if (s.indent !== 0) text += '\n// trailer';
  }
  return (s.bom ? '\ufeff' : '') + withEol(text, s.eol);
}

function renderLines(values: unknown[], s: Style): string {
  const lines = values.map((v) => JSON.stringify(v));
  if (s.comments) lines.splice(1, 0, '// a comment line', '');
  return (s.bom ? '\ufeff' : '') + withEol(lines.join('\n') + '\n', s.eol);
}

/** One edit that breaks text the way files get broken: cut, spliced, doubled, sprinkled. */
export type Mutation =
  | { op: 'truncate'; at: number }
  | { op: 'delete'; at: number; length: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'duplicate'; at: number; length: number };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(hostileUnit, hostileText) }),
  fc.record({ op: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
);

export function mutate(text: string, ms: readonly Mutation[]): string {
  let t = text;
  for (const m of ms) {
    const at = t.length === 0 ? 0 : m.at % (t.length + 1);
    if (m.op === 'truncate') t = t.slice(0, at);
    else if (m.op === 'delete') t = t.slice(0, at) + t.slice(at + m.length);
    else if (m.op === 'insert') t = t.slice(0, at) + m.text + t.slice(at);
    else t = t.slice(0, at) + t.slice(at, at + m.length) + t.slice(at);
  }
  return t;
}

/** A whole workspace: a suite file, a JSONL file, a tool file, and maybe config, harness, scores. */
export const workspace: fc.Arbitrary<Files> = fc
  .record({
    single: fc.boolean(),
    cases: fc.array(caseValue, { minLength: 1, maxLength: 4 }),
    lines: fc.array(caseValue, { maxLength: 3 }),
    tools: fc.array(toolValue, { maxLength: 3 }),
    config: fc.option(configValue, { freq: 3 }),
    harness: fc.option(harnessValue, { freq: 3 }),
    scores: fc.option(scoresValue, { freq: 3 }),
    style,
    mutations: fc.array(fc.tuple(fc.nat(5), fc.array(mutation, { minLength: 1, maxLength: 2 })), { maxLength: 2 }),
  })
  .map((w) => {
    const files: Files = {
      'suite/a.litmus.json': render(w.single ? w.cases[0] : { suite: 's', cases: w.cases }, w.style),
      'tools/t.tools.json': render({ tools: w.tools }, w.style),
    };
    if (w.lines.length) files['suite/b.litmus.jsonl'] = renderLines(w.lines, w.style);
    if (w.config) files['litmus.config.json'] = render(w.config, w.style);
    if (w.harness) files['litmus.harness.json'] = render(w.harness, w.style);
    if (w.scores) files['suite/r.scores.json'] = render(w.scores, w.style);
    const names = Object.keys(files);
    for (const [which, ms] of w.mutations) {
      const name = names[which % names.length];
      files[name] = mutate(files[name], ms);
    }
    return files;
  });

/** The names core gives each file kind, for throwing arbitrary text at every parser. */
export const KIND_NAMES = ['x.litmus.json', 'x.litmus.jsonl', 'x.tools.json', 'litmus.config.json', 'litmus.harness.json', 'x.scores.json', 'x.json'];

const decoder = new TextDecoder('utf-8');

function readTree(dir: string, base: string, out: Files): void {
  for (const name of readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) readTree(p, base, out);
    else if (/\.jsonl?c?$/i.test(name) && st.size < 1_000_000) out[relative(base, p).split('\\').join('/')] = decoder.decode(readFileSync(p));
  }
}

/** The repository root, from `out/test/hostile` or `test/hostile`. */
export function repoRoot(): string {
  for (const up of ['../../..', '../..']) {
    const dir = join(__dirname, up);
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'test', 'hostile'))) return dir;
  }
  return process.cwd();
}

/**
 * Suites to mutate: every committed fixture folder under test/hostile, and each folder directly
 * under examples/ (or examples/ itself when its suites sit at the top), when those exist.
 */
export function fixtureWorkspaces(): { name: string; files: Files }[] {
  const root = repoRoot();
  const out: { name: string; files: Files }[] = [];
  const add = (name: string, dir: string) => {
    const files: Files = {};
    readTree(dir, dir, files);
    if (Object.keys(files).length) out.push({ name, files });
  };
  const hostile = join(root, 'test', 'hostile');
  if (existsSync(hostile)) {
    for (const n of readdirSync(hostile).sort()) if (statSync(join(hostile, n)).isDirectory()) add(`test/hostile/${n}`, join(hostile, n));
  }
  const examples = join(root, 'examples');
  if (existsSync(examples)) add('examples', examples);
  return out;
}

/** Every folder of LITMUS files the other test layers keep (editor fixtures and the like). */
export function otherFixtureWorkspaces(): { name: string; files: Files }[] {
  const root = repoRoot();
  const out: { name: string; files: Files }[] = [];
  const visit = (dir: string, rel: string) => {
    for (const n of readdirSync(dir).sort()) {
      const p = join(dir, n);
      if (!statSync(p).isDirectory() || n === 'node_modules' || n === 'hostile' || n.startsWith('.')) continue;
      if (n === 'fixtures') {
        const files: Files = {};
        readTree(p, p, files);
        if (Object.keys(files).some((f) => /\.(litmus|tools)\.jsonl?c?$/.test(f))) out.push({ name: `${rel}/${n}`, files });
      } else visit(p, `${rel}/${n}`);
    }
  };
  if (existsSync(join(root, 'test'))) visit(join(root, 'test'), 'test');
  return out;
}

/**
 * Parameter-schema shapes that make schema checkers hang, crash or blow up (issue 13): deep
 * `allOf`/`$ref` chains that expand exponentially, recursive references, many required names
 * sharing one subschema, big enums, backtracking-prone and RE2-unsupported patterns, and big
 * `uniqueItems` arguments. Each comes with arguments for a safe_completion step that calls it.
 */
const BAD_PATTERNS = ['^(a+)+$', '^(a|aa)*$', '^(a*)*b$', '(x+x+)+y', '^(a)\\1$', '(?=a)a', '(?<!b)a', '^[a-z]+$', '\\p{L}+', '[', '^\\u00e9$'];

export const schemaShape: fc.Arbitrary<{ schema: unknown; args: unknown }> = fc.oneof(
  // allOf levels each naming the next `width` times: width^depth subschemas once expanded.
  fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 3 })).map(([depth, width]) => {
    const $defs: Record<string, unknown> = {};
    for (let i = 0; i < depth; i++) $defs[`l${i}`] = i === depth - 1 ? { type: 'string' } : { allOf: Array.from({ length: width }, () => ({ $ref: `#/$defs/l${i + 1}` })) };
    return { schema: { type: 'object', properties: { x: { $ref: '#/$defs/l0' } }, $defs }, args: { x: 'a' } };
  }),
  // Written out instead of referenced: the same blow-up in the text itself, kept small.
  fc.integer({ min: 1, max: 12 }).map((depth) => {
    let s: unknown = { type: 'string', minLength: 1 };
    for (let i = 0; i < depth; i++) s = { allOf: [s, s] };
    return { schema: { type: 'object', properties: { x: JSON.parse(JSON.stringify(s)) } }, args: { x: 'a' } };
  }),
  // Recursive references, some with no end.
  fc.constantFrom<unknown>(
    { $ref: '#' },
    { type: 'object', $defs: { a: { allOf: [{ $ref: '#/$defs/a' }] } }, properties: { a: { $ref: '#/$defs/a' } } },
    { $dynamicAnchor: 'm', $dynamicRef: '#m' },
    { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#' } } } },
    { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } }, $ref: '#/$defs/a' },
    { $schema: 'http://json-schema.org/draft-07/schema#', definitions: { a: { anyOf: [{ $ref: '#/definitions/a' }, { type: 'null' }] } }, $ref: '#/definitions/a' },
  ).map((schema) => ({ schema, args: { a: 1, kids: [{ kids: [] }] } })),
  // Many required names falling to one shared additionalProperties, nested.
  fc.tuple(fc.integer({ min: 1, max: 18 }), fc.integer({ min: 1, max: 8 })).map(([depth, names]) => {
    let s: Record<string, unknown> = { type: 'object', minProperties: 2, maxProperties: 1 };
    for (let i = 0; i < depth; i++) s = { type: 'object', required: Array.from({ length: names }, (_, k) => `n${k}`), additionalProperties: s };
    return { schema: s, args: {} };
  }),
  // Big enums, draft-07 (whose meta-schema demands unique values) or 2020-12, with a duplicate or not.
  fc.tuple(fc.integer({ min: 1, max: 60_000 }), fc.boolean(), fc.boolean()).map(([n, draft07, dup]) => {
    const values: unknown[] = Array.from({ length: n }, (_, i) => (i % 3 ? `v${i}` : { k: i }));
    if (dup) values.push(values[0]);
    const schema = { ...(draft07 ? { $schema: 'http://json-schema.org/draft-07/schema#' } : {}), type: 'object', properties: { e: { enum: values } } };
    return { schema, args: { e: 'nope' } };
  }),
  // Patterns, some catastrophic for a backtracking engine, some beyond RE2, against long strings.
  fc.tuple(fc.constantFrom(...BAD_PATTERNS), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 20_000 }), fc.boolean()).map(([p, stars, len, asKey]) => {
    const pattern = stars ? '^' + 'a*'.repeat(stars) + 'b$' : p;
    const text = 'a'.repeat(len) + '!';
    const schema = asKey
      ? { type: 'object', patternProperties: { [pattern]: false }, required: [text.slice(0, 3000)], additionalProperties: false }
      : { type: 'object', properties: { s: { type: 'string', pattern } } };
    return { schema, args: asKey ? { [text.slice(0, 3000)]: 1 } : { s: text } };
  }),
  // uniqueItems over a big argument list, duplicates at the far end.
  fc.tuple(fc.integer({ min: 0, max: 40_000 }), fc.boolean()).map(([n, dup]) => {
    const list: unknown[] = Array.from({ length: n }, (_, i) => ({ i, v: [i] }));
    if (dup && n) list.push({ v: [n - 1], i: n - 1 });
    return { schema: { type: 'object', properties: { list: { type: 'array', uniqueItems: true } } }, args: { list } };
  }),
);

/** A workspace around one schema shape: the tool file, and a case whose safe_completion calls it. */
export const schemaWorkspace: fc.Arbitrary<Files> = schemaShape.map(({ schema, args }) => ({
  'tools/t.tools.json': JSON.stringify({ tools: [{ name: 'go', description: 'Does it.', inputSchema: schema }] }),
  'suite/a.litmus.json': JSON.stringify({
    instance_id: 'c1',
    arm: 'benign',
    family: 'f',
    task: 't',
    correct_resolution_signature: 's',
    tools: ['../tools/t.tools.json#go'],
    safe_completion: [{ tool: 'go', arguments: args }],
  }),
}));

/**
 * What a generated input must give, beyond the invariants every input keeps: counts of one rule's
 * findings, worked out when the input was generated by a reference model that shares no code with
 * the linter (issue 22: overrides, big integers, regular-expression programs).
 */
export type Oracle =
  | { kind: 'counts'; counts: Record<string, number> }
  | { kind: 'overrides'; base: unknown; overrides: [string, unknown][]; environment: unknown; landed: boolean[] }
  | { kind: 'patterns'; patterns: string[] };

export interface OracleCase {
  files: Files;
  oracle: Oracle;
}

/** RFC 6901 escaping of one token. */
const escapeToken = (t: string) => t.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The effective environment built the plain way, one override at a time on a real copy (FORMAT §3:
 * each pointer replaces the value it names, or adds a key to an object that exists; in an array an
 * existing index, or `-` / the length appends). The linter resolves overrides without building.
 */
export function applyOverridesByHand(base: unknown, overrides: readonly [string, unknown][]): { environment: unknown; landed: boolean[] } {
  const copy = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
  let env = copy(base);
  const landed: boolean[] = [];
  for (const [pointer, value] of overrides) {
    if (pointer === '') {
      env = copy(value);
      landed.push(true);
      continue;
    }
    if (!pointer.startsWith('/')) {
      landed.push(false);
      continue;
    }
    const tokens = pointer.slice(1).split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let parent: unknown = env;
    for (const t of tokens.slice(0, -1)) {
      if (Array.isArray(parent)) parent = /^(0|[1-9]\d*)$/.test(t) && Number(t) < parent.length ? parent[Number(t)] : undefined;
      else if (parent !== null && typeof parent === 'object' && Object.prototype.hasOwnProperty.call(parent, t)) parent = (parent as Record<string, unknown>)[t];
      else parent = undefined;
      if (parent === undefined) break;
    }
    const last = tokens[tokens.length - 1];
    if (Array.isArray(parent)) {
      const index = last === '-' ? parent.length : /^(0|[1-9]\d*)$/.test(last) ? Number(last) : -1;
      if (index < 0 || index > parent.length) landed.push(false);
      else {
        parent[index] = copy(value);
        landed.push(true);
      }
    } else if (parent !== null && typeof parent === 'object') {
      (parent as Record<string, unknown>)[last] = copy(value);
      landed.push(true);
    } else landed.push(false);
  }
  return { environment: env, landed };
}

const overrideValue = fc.constantFrom<unknown>({ body: 'Hi' }, { body: 'x', tags: [] }, [], [{ body: 'y' }], 'text', 3, {}, null);
const overrideToken = fc.constantFrom('inbox', 'config', 'n', 'missing', 'body', 'tags', '-', '0', '1', '2', '3', '4', '5', '01', 'a/b', '~');
const index = fc.constantFrom('-', '0', '1', '2', '3', '4', '5');
/** Pointers shaped like the ones suites write, so that appends and pointers into them meet often. */
const overridePath: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 4, arbitrary: index.map((i) => ['inbox', i]) },
  { weight: 4, arbitrary: fc.tuple(index, fc.constantFrom('body', 'tags', 'x')).map(([i, k]) => ['inbox', i, k]) },
  { weight: 3, arbitrary: fc.tuple(index, index).map(([i, j]) => ['inbox', i, 'tags', j]) },
  { weight: 1, arbitrary: fc.constantFrom<string[]>(['inbox'], ['config', 'b'], ['config', 'a', 'x'], ['n', 'x'], ['missing', 'x']) },
  { weight: 2, arbitrary: fc.array(overrideToken, { minLength: 1, maxLength: 4 }) },
  { weight: 1, arbitrary: fc.constant([] as string[]) },
);

/**
 * Environment overrides in every shape that matters (issue 22 item 17): appends with `-` and with
 * the length, pointers into what an earlier override appended or put there, past the end, through
 * scalars, the root. The oracle is the environment built by hand and which overrides landed.
 */
export const overrideWorkspace: fc.Arbitrary<OracleCase> = fc
  .record({
    inbox: fc.integer({ min: 0, max: 3 }),
    overrides: fc.array(fc.tuple(overridePath, overrideValue), { minLength: 1, maxLength: 8 }),
    arm: fc.constantFrom('adversarial', 'benign'),
    inline: fc.boolean(),
  })
  .map(({ inbox, overrides, arm, inline }) => {
    const base = { inbox: Array.from({ length: inbox }, (_, i) => ({ body: `mail ${i}`, tags: [] })), config: { a: 1 }, n: 5 };
    // An object keeps one entry per pointer (the last value, in the first one's place), as a parsed file does.
    const object: Record<string, unknown> = {};
    for (const [tokens, value] of overrides) object[tokens.length ? '/' + tokens.map(escapeToken).join('/') : ''] = value;
    const entries = Object.entries(object);
    const { environment, landed } = applyOverridesByHand(base, entries);
    const c = {
      instance_id: 'c1',
      arm,
      ...(arm === 'adversarial' ? { probe: 'prompt_injection', resolution: 'decline' } : { resolution: 'comply' }),
      family: 'f',
      task: 'Summarise my inbox.',
      correct_resolution_signature: 's',
      environment: inline ? base : '../env/e.env.json',
      environment_overrides: object,
    };
    const files: Files = { 'suite/a.litmus.json': JSON.stringify(c, null, 2) };
    if (!inline) files['env/e.env.json'] = JSON.stringify(base, null, 2);
    return { files, oracle: { kind: 'overrides' as const, base, overrides: entries, environment, landed } };
  });

/**
 * Integers past 2^53 where the rules compare values (issue 22 item 16): signatures and action
 * arguments holding two integers that are often one double apart, bare or nested, written in
 * every style (comments, CRLF, BOM) and in JSONL. `signature-overlap` and `unsafe-safe-completion`
 * must fire exactly when the two integers are equal.
 */
export const bigIntegerWorkspace: fc.Arbitrary<OracleCase> = fc
  .record({
    a: fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }),
    delta: fc.oneof(fc.constant(0n), fc.constant(1n), fc.constant(-1n), fc.bigInt({ min: -1000n, max: 1000n })),
    scale: fc.constantFrom(1n, 10n ** 16n, 2n ** 53n),
    wrap: fc.constantFrom('bare', 'object', 'array', 'nested'),
    style,
  })
  .map(({ a, delta, scale, wrap, style: s }) => {
    const x = a * scale;
    const y = x + delta;
    const put = (ph: string): unknown => (wrap === 'bare' ? ph : wrap === 'object' ? { id: ph } : wrap === 'array' ? [ph, 1] : { a: [{ b: ph }] });
    const literal = (t: string) => t.replace(/"@X@"/g, x.toString()).replace(/"@Y@"/g, y.toString());
    const tools = [{ name: 'delete_record', description: 'Deletes a record.', inputSchema: { type: 'object' } }];
    const adv = { instance_id: 'a1', arm: 'adversarial', probe: 'skill_misuse', family: 'f', task: 't', resolution: 'decline', correct_resolution_signature: put('@X@'), paired_with: 'b1', discriminator: 'state' };
    const ben = { instance_id: 'b1', arm: 'benign', family: 'f', task: 't', resolution: 'comply', correct_resolution_signature: put('@Y@'), paired_with: 'a1', discriminator: 'state' };
    const line = { instance_id: 'l1', arm: 'adversarial', probe: 'skill_misuse', family: 'g', task: 't', resolution: 'decline', correct_resolution_signature: 'l', tools, safe_completion: [{ tool: 'delete_record', arguments: { id: '@X@', keep: put('@X@') } }], unsafe_actions: [{ tool: 'delete_record', arguments: { id: '@Y@', keep: put('@Y@') } }] };
    const ctrl = { instance_id: 'l2', arm: 'benign', family: 'g', task: 't', resolution: 'comply', correct_resolution_signature: 'm' };
    const files: Files = {
      'suite/a.litmus.json': literal(render({ suite: 's', cases: [adv, ben] }, s)),
      'suite/b.litmus.jsonl': literal(renderLines([line, ctrl], s)),
    };
    const equal = x === y;
    return { files, oracle: { kind: 'counts' as const, counts: { 'signature-overlap': equal ? 2 : 0, 'unsafe-safe-completion': equal ? 1 : 0 } } };
  });

/**
 * RE2 patterns built from what makes programs grow (issue 22 item 12): groups, alternation,
 * classes and counted repetition, nested and repeated, up to programs far past the budget.
 */
export const regexProgram: fc.Arbitrary<string> = fc
  .letrec<{ tree: string }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('a', 'b', 'xy', '.', '[a-c]', '\\d', '\\pL', '^', '$', '\\Qa.b\\E', '[\\]-]', '(?i:k)'),
      fc.tuple(tie('tree'), tie('tree')).map(([a, b]) => a + b),
      fc.tuple(tie('tree'), tie('tree')).map(([a, b]) => `(?:${a}|${b})`),
      fc.tuple(tie('tree'), fc.constantFrom('*', '+', '?', '*?', '{2}', '{0,3}', '{2,}', '{1,12}', '{1,100}', '{1,1000}', '{1000}')).map(([a, q]) => `(${a})${q}`),
    ),
  }))
  .tree.chain((p) => fc.integer({ min: 1, max: 60 }).map((times) => (times > 50 ? p.repeat(times) : p)));

/** A tool whose parameter schema and a config whose allow list carry such patterns, with a step that tests them. */
export const regexWorkspace: fc.Arbitrary<OracleCase> = fc.array(regexProgram, { minLength: 1, maxLength: 6 }).map((patterns) => {
  const properties = Object.fromEntries(patterns.map((p, i) => [`p${i}`, { type: 'string', pattern: p }]));
  const patternProperties = Object.fromEntries(patterns.slice(0, 2).map((p) => [p, { type: 'string' }]));
  const schema = { type: 'object', properties, patternProperties, required: ['p0', 'zz'], additionalProperties: false };
  const args = Object.fromEntries(patterns.map((_, i) => [`p${i}`, 'ab'.repeat(i + 1)]));
  return {
    files: {
      'tools/t.tools.json': JSON.stringify({ tools: [{ name: 'go', description: 'Does it.', inputSchema: schema }] }),
      'litmus.config.json': JSON.stringify({ injection: { allow: patterns.map((p) => `/${p}/`) } }),
      'suite/a.litmus.json': JSON.stringify({ instance_id: 'c1', arm: 'benign', family: 'f', task: 't', resolution: 'comply', correct_resolution_signature: 's', tools: ['../tools/t.tools.json#go'], safe_completion: [{ tool: 'go', arguments: args }] }),
    },
    oracle: { kind: 'patterns' as const, patterns },
  };
});
