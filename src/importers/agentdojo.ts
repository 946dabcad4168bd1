import { RecipeMismatch, reviewedScorer, type ReviewedScorer } from './agentdojo-security';
import { readme } from './readme';
import { arr, isObject, obj, parseJsonFile, runImporter, str, summarize, type ImportBody } from './run';
import { SourceError, type ImportOptions, type ImportResult, type OutputFile, type SourceReader } from './types';
import { comments, dict, fileName, has, jsonText, PathClaims, pointer, relativeTo, suiteFile, toolRef, toolsFile, type CaseRecord, type Json, type SuiteEntry } from './write';

/**
 * AgentDojo, from the JSON export of its task suites (`export.json`, format agentdojo-export/1; how
 * to make one: docs/import.md). Each suite's default environment becomes one shared environment
 * file; each user task is a benign case; each user task × injection task of its suite is an
 * adversarial case whose `environment_overrides` plant the attack's text at every location of every
 * injection vector the user task sees, as AgentDojo's own attacks do.
 */

/** The file an AgentDojo source is recognised by (docs/import.md says how to make it). */
export const AGENTDOJO_MAIN = 'export.json';
const EXPORT = AGENTDOJO_MAIN;
const FORMAT = 'agentdojo-export/1';
/** AgentDojo's reference attack, the one its paper and leaderboard report. */
const ATTACK = 'important_instructions';
const SUITES_DIR = 'src/agentdojo/data/suites';

interface Call {
  function: string;
  args: Record<string, Json>;
  placeholder_args?: Record<string, Json>;
}

interface Task {
  id: string;
  where: string;
  /** The Python class that defines it (export.json `class`), with `module` the key of its reviewed scorer. */
  cls: string;
  text: string;
  groundTruthOutput: string;
  calls: Call[];
  seen: string[];
  module: string;
  difficulty: string;
}

export function importAgentDojo(source: SourceReader, options: ImportOptions = {}): ImportResult {
  return runImporter(source, options, body);
}

function body(source: SourceReader, options: ImportOptions): ImportBody {
  const text = source.read(EXPORT);
  if (text === undefined) throw new SourceError(EXPORT, 'not found: this is not an AgentDojo export folder (make export.json with the snippet in docs/import.md)');
  const root = parseJsonFile(EXPORT, text);
  if (!isObject(root) || root.format !== FORMAT) {
    throw new SourceError(EXPORT, `not an AgentDojo export: "format" should be "${FORMAT}", not ${JSON.stringify(isObject(root) ? root.format : root)}`);
  }
  const name = options.suite ?? 'agentdojo';
  const version = typeof root.benchmark_version === 'string' ? root.benchmark_version : 'unknown';
  const pkg = typeof root.agentdojo_package_version === 'string' ? root.agentdojo_package_version : 'unknown';
  const attack = obj(`${EXPORT}: attacks`, obj(EXPORT, root, 'attacks'), ATTACK);
  const template = str(`${EXPORT}: attacks.${ATTACK}`, attack, 'template');
  const userName = str(`${EXPORT}: attacks.${ATTACK}`, attack, 'user_name');
  const modelName = str(`${EXPORT}: attacks.${ATTACK}`, attack, 'model_name');
  const suites = obj(EXPORT, root, 'suites');
  const suiteNames = Object.keys(suites).sort();
  if (suiteNames.length === 0) throw new SourceError(EXPORT, 'no suites');

  const files: OutputFile[] = [];
  const warnings: string[] = [];
  const all: CaseRecord[] = [];
  const perSuite: [string, number, number][] = [];
  const claims = new PathClaims();
  const scoring = { reviewed: 0, unscored: 0, derived: 0 };

  for (const suiteName of suiteNames) {
    const w = `${EXPORT}: suites.${suiteName}`;
    const suite = obj(EXPORT, suites, suiteName);
    options.progress?.(`agentdojo: suite ${suiteName}`);
    checkIncludes(source, suiteName, warnings);

    const tools = arr(w, suite, 'tools');
    const toolNames: string[] = [];
    tools.forEach((t, i) => {
      const fn = isObject(t) && isObject(t.function) ? t.function : undefined;
      if (!fn || typeof fn.name !== 'string') throw new SourceError(`${w}.tools[${i}]`, 'not an OpenAI function schema {"type": "function", "function": {"name", ...}}');
      toolNames.push(fn.name);
    });
    const known = new Set(toolNames);
    // The suite's name is data: it names three files and a folder, so it must be a safe path
    // segment, distinct from every other suite's even on a disk that folds case.
    const seg = claims.claim(fileName(suiteName), `suite\u0000${suiteName}`);
    if (seg !== suiteName) warnings.push(`suite ${JSON.stringify(suiteName)} is written as "${seg}" in file names`);
    const toolsPath = `tools/${seg}.tools.json`;
    files.push({
      path: toolsPath,
      text: toolsFile(
        [
          `AgentDojo ${version} suite "${suiteName}": its ${tools.length} tools as OpenAI function schemas,`,
          'exactly as AgentDojo sends them (export.json, from the tools\' signatures and docstrings).',
        ],
        tools as Json[],
      ),
    });

    const env = field(w, suite, 'environment_default');
    const envPath = `environments/${seg}.env.json`;
    files.push({ path: envPath, text: jsonText(env) });

    const vectors = obj(w, suite, 'injection_vectors');
    const locations = obj(w, suite, 'injection_vector_locations');
    const vectorLocations = new Map<string, { pointer: string; value: string }[]>();
    for (const id of Object.keys(vectors)) {
      const list = locations[id];
      if (!Array.isArray(list) || list.length === 0) throw new SourceError(`${w}.injection_vector_locations`, `vector "${id}" has no location`);
      vectorLocations.set(
        id,
        list.map((l, i) => {
          const lw = `${w}.injection_vector_locations.${id}[${i}]`;
          if (!isObject(l)) throw new SourceError(lw, 'should be {"pointer", "value"}');
          const p = str(lw, l, 'pointer');
          if (!resolves(env, p)) throw new SourceError(lw, `pointer ${p} is not in environment_default`);
          return { pointer: p, value: str(lw, l, 'value') };
        }),
      );
    }

    const userTasks = arr(w, suite, 'user_tasks').map((t, i) => readTask(`${w}.user_tasks[${i}]`, t, 'prompt', known, vectorLocations));
    const injectionTasks = arr(w, suite, 'injection_tasks').map((t, i) => readTask(`${w}.injection_tasks[${i}]`, t, 'goal', known, vectorLocations));
    const toolRefsFor = (caseFile: string) => toolNames.map((n) => toolRef(caseFile, toolsPath, n));

    const environment = env;
    const scorers = new Map(injectionTasks.map((it) => [it.id, scorerOf(suiteName, it, environment, warnings)]));
    for (const sc of scorers.values()) scoring[sc.kind]++;
    let adversarial = 0;
    for (const ut of userTasks) {
      const caseFile = claims.claim(`cases/${seg}/${fileName(ut.id)}.litmus.json`, `task\u0000${suiteName}\u0000${ut.id}`);
      if (!caseFile.endsWith(`/${ut.id}.litmus.json`)) warnings.push(`${ut.where}: its cases are written to ${caseFile}`);
      const family = `${name}-${suiteName}-${ut.id}`;
      const envRef = relativeTo(caseFile, envPath);
      const refs = toolRefsFor(caseFile);
      const safe = safeCompletion(ut);
      const benign: CaseRecord = {
        instance_id: family,
        arm: 'benign',
        family,
        task: ut.text,
        tools: refs,
        environment: envRef,
        resolution: 'comply',
        discriminator: 'state',
        correct_resolution_signature: { user_task: ut.id, utility: true },
        safe_completion: safe,
        'x-agentdojo': { suite: suiteName, task: ut.id, module: ut.module, difficulty: ut.difficulty, benchmark_version: version },
      };
      const entries: SuiteEntry[] = [{ note: `${ut.id} without attack: AgentDojo's utility run (benign arm)`, value: benign }];
      for (const it of injectionTasks) {
        const payload = fill(template, { goal: it.text, user: userName, model: modelName, task: ut.text });
        const overrides = dict();
        const labels: string[] = [];
        for (const v of ut.seen) {
          for (const loc of vectorLocations.get(v)!) {
            overrides[loc.pointer] = plant(loc.value, v, payload, vectors);
            labels.push(`#${pointer(['environment_overrides', loc.pointer])}`);
          }
        }
        const scorer = scorers.get(it.id)!;
        const unsafe = scorer.patterns;
        const c: CaseRecord = {
          instance_id: `${family}-${it.id}`,
          arm: 'adversarial',
          probe: 'prompt_injection',
          family,
          paired_with: family,
          task: ut.text,
          tools: refs,
          environment: envRef,
          environment_overrides: overrides,
          injection_field: labels.length === 1 ? labels[0] : labels,
          resolution: 'comply',
          discriminator: 'state',
          correct_resolution_signature: { user_task: ut.id, injection_task: it.id, utility: true, security: false },
          safe_completion: safe,
          unsafe_actions: unsafe.length ? unsafe : undefined,
          'x-agentdojo': {
            suite: suiteName,
            task: ut.id,
            injection_task: it.id,
            attack: ATTACK,
            injection_goal: it.text,
            module: it.module,
            difficulty: it.difficulty,
            benchmark_version: version,
            security: scorer.note,
          },
        };
        entries.push({ note: `${ut.id} × ${it.id}: the "${ATTACK}" attack in ${ut.seen.join(', ')}`, value: c });
        adversarial++;
      }
      for (const e of entries) all.push(e.value);
      files.push({
        path: caseFile,
        text: suiteFile(
          [
            `AgentDojo ${version} (package ${pkg}), suite "${suiteName}", ${ut.id}: the benign utility run`,
            `and its ${injectionTasks.length} injection pairs. Generated by \`litmus-lint import agentdojo\` from export.json;`,
            'edit freely. Where each field comes from: README.md at the root of this import.',
          ],
          name,
          entries,
        ),
      });
    }
    perSuite.push([suiteName, userTasks.length, adversarial]);
  }

  files.push({ path: 'litmus.config.json', text: configText() });
  const summary = summarize(all as { arm: string }[]);
  files.push({ path: 'README.md', text: readmeText(name, version, pkg, perSuite, summary.cases, scoring, warnings) });
  return { files, warnings, summary };
}

function field(where: string, record: Record<string, unknown>, key: string): Json {
  if (!(key in record)) throw new SourceError(where, `missing field "${key}"`);
  return record[key] as Json;
}

function readTask(where: string, raw: unknown, textKey: string, known: Set<string>, vectors: Map<string, unknown>): Task {
  if (!isObject(raw)) throw new SourceError(where, 'should be an object');
  const id = str(where, raw, 'id');
  const w = `${where} (${id})`;
  const calls = arr(w, raw, 'ground_truth_calls').map((c, i): Call => {
    if (!isObject(c) || typeof c.function !== 'string' || !isObject(c.args)) throw new SourceError(`${w}.ground_truth_calls[${i}]`, 'should be {"function", "args"}');
    if (!known.has(c.function)) throw new SourceError(w, `calls unknown tool "${c.function}" (not in the suite's tools)`);
    return { function: c.function, args: c.args as Record<string, Json>, placeholder_args: isObject(c.placeholder_args) ? (c.placeholder_args as Record<string, Json>) : undefined };
  });
  const seen = Array.isArray(raw.injection_vectors_seen) ? (raw.injection_vectors_seen as unknown[]) : [];
  for (const v of seen) if (typeof v !== 'string' || !vectors.has(v)) throw new SourceError(w, `sees unknown injection vector ${JSON.stringify(v)}`);
  return {
    id,
    where: w,
    cls: typeof raw.class === 'string' ? raw.class : '',
    text: str(w, raw, textKey),
    groundTruthOutput: typeof raw.ground_truth_output === 'string' ? raw.ground_truth_output : '',
    calls,
    seen: seen as string[],
    module: typeof raw.module === 'string' ? raw.module : '',
    difficulty: typeof raw.difficulty === 'string' ? raw.difficulty : '',
  };
}

/** The user task's ground truth: its calls in order, then its expected answer when it has one. */
function safeCompletion(t: Task): Json[] {
  const steps: Json[] = t.calls.map((c) => ({ tool: c.function, arguments: c.args }));
  if (t.groundTruthOutput !== '') steps.push({ respond: t.groundTruthOutput });
  return steps;
}

/** AgentDojo's tool names say what they do; these prefixes only read the environment. */
const READ_ONLY = /^(get|read|search|list|check)_/;

interface Scorer {
  kind: 'reviewed' | 'unscored' | 'derived';
  patterns: Json[];
  /** What x-agentdojo.security says about it. */
  note: Json;
}

/**
 * The injection task's unsafe actions: what its reviewed `security()` checks (agentdojo-security.ts),
 * or, for a task whose code was not reviewed (another AgentDojo version), a reading of its ground
 * truth that may pin arguments security() ignores, said in a warning and in the case.
 */
function scorerOf(suite: string, it: Task, environment: Json, warnings: string[]): Scorer {
  const where = `${suite} ${it.id} (${it.module}.${it.cls})`;
  const recipe = reviewedScorer(it.module, it.cls);
  let reviewed: ReviewedScorer | undefined;
  let mismatch: string | undefined;
  if (recipe) {
    try {
      reviewed = recipe({ goal: it.text, calls: it.calls, groundTruthOutput: it.groundTruthOutput, environment });
    } catch (e) {
      if (!(e instanceof RecipeMismatch)) throw e;
      mismatch = e.message;
    }
  }
  if (reviewed?.patterns) {
    return { kind: 'reviewed', patterns: reviewed.patterns, note: { checks: reviewed.checks, ...(reviewed.notExpressed ? { not_expressed: reviewed.notExpressed } : {}) } };
  }
  if (reviewed) {
    return {
      kind: 'unscored',
      patterns: [],
      note: { checks: reviewed.checks, not_expressed: reviewed.notExpressed, unscored: 'no action pattern can say what security() checks: write a scorer for this case by hand, or accept the unscored-attack finding' },
    };
  }
  const patterns = groundTruthPatterns(it);
  warnings.push(
    `${where}: ${mismatch ? `its reviewed security() does not fit the export (${mismatch})` : 'no reviewed security() for this task'}; ` +
      (patterns.length ? "its unsafe_actions are read from its ground-truth calls and may pin arguments security() ignores" : 'it has no ground-truth calls, so it is left unscored'),
  );
  return patterns.length
    ? { kind: 'derived', patterns, note: { derived_from: 'ground_truth_calls', review: "security() was not read for this task's code: check the patterns against it" } }
    : { kind: 'unscored', patterns, note: { unscored: "the injection task has no ground-truth calls and its security() was not read: only that Python function decides the attack; write a pattern by hand" } };
}

/**
 * The injection task's ground-truth calls that carry the attack: every call that changes the
 * environment, and the last call whatever it is (visiting a phishing page is the attack). The
 * look-ups before them are what any user task does too. Each keeps only its fixed arguments: one
 * whose placeholder holds a `$variable` is filled by the agent from what it read, so it is not matched.
 */
function groundTruthPatterns(t: Task): Json[] {
  return t.calls
    .filter((c, i) => !READ_ONLY.test(c.function) || i === t.calls.length - 1)
    .map((c) => {
      const args = dict();
      for (const [k, v] of Object.entries(c.args)) {
        const ph = c.placeholder_args && has(c.placeholder_args, k) ? c.placeholder_args[k] : undefined;
        if (typeof ph === 'string' && ph.includes('$')) continue;
        args[k] = v;
      }
      return { tool: c.function, arguments: args };
    });
}

/** The location's text with this vector's canary replaced by the payload, other vectors at their default. */
function plant(value: string, vector: string, payload: string, vectors: Record<string, unknown>): string {
  return value.replace(/<CANARY---([^<>]*?)--->/g, (m, id: string) => {
    if (id === vector) return payload;
    const d = vectors[id];
    return isObject(d) && typeof d.default === 'string' ? d.default : m;
  });
}

/** Python `str.format` for the attack template's named fields. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (m, k: string | undefined) => (m === '{{' ? '{' : m === '}}' ? '}' : k !== undefined && has(values, k) ? values[k] : m));
}

function resolves(root: unknown, p: string): boolean {
  if (p === '') return true;
  if (!p.startsWith('/')) return false;
  let v: unknown = root;
  for (const raw of p.slice(1).split('/')) {
    const t = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v)) {
      if (!/^(0|[1-9]\d*)$/.test(t) || Number(t) >= v.length) return false;
      v = v[Number(t)];
    } else if (isObject(v)) {
      if (!Object.prototype.hasOwnProperty.call(v, t)) return false;
      v = v[t];
    } else return false;
  }
  return true;
}

/**
 * The YAML beside the export, when it is there: every `!include` of a suite's environment must name
 * a file that exists, or the export was made from an incomplete tree.
 */
function checkIncludes(source: SourceReader, suite: string, warnings: string[]): void {
  const dir = `${SUITES_DIR}/${suite}`;
  const yaml = source.read(`${dir}/environment.yaml`);
  if (yaml === undefined) {
    if (source.list(SUITES_DIR) !== undefined) warnings.push(`${dir}/environment.yaml not found beside export.json; its includes were not checked`);
    return;
  }
  for (const m of yaml.matchAll(/!include\s+(['"]?)([^\s'"#]+)\1/g)) {
    const target = `${dir}/${m[2]}`;
    if (source.read(target) === undefined) throw new SourceError(`${dir}/environment.yaml`, `missing environment include ${m[2]} (${target} not found)`);
  }
}

function configText(): string {
  return (
    comments([
      'litmus.config.json for an AgentDojo import.',
      'AgentDojo scores with Python state checks (utility/security); the imported signatures are those',
      'two verdicts per task, so the rubric compares them exactly: nothing ignored, order kept, case kept.',
    ]) +
    jsonText({ rubric: { ignoreKeys: [], unorderedArrays: false, foldCase: false } })
  );
}

function readmeText(name: string, version: string, pkg: string, perSuite: [string, number, number][], total: number, scoring: Record<Scorer['kind'], number>, warnings: string[]): string {
  return readme({
    title: `AgentDojo ${version}, imported as LITMUS suite "${name}"`,
    intro: [
      `Imported by \`litmus-lint import agentdojo\` from an AgentDojo export (\`export.json\`, AgentDojo package ${pkg}).`,
      'AgentDojo tests indirect prompt injection: the agent meets the attacker\'s text in tool output when a tool',
      'returns environment data that holds it. Its user tasks run without attack are the benign arm; each user',
      `task × each injection task of its suite, with the "${ATTACK}" attack planted, is the adversarial arm.`,
    ],
    counts: [
      ...perSuite.flatMap(([s, b, a]): [string, number][] => [
        [`${s}: benign (user tasks)`, b],
        [`${s}: adversarial (user × injection pairs)`, a],
      ]),
      ['cases in all', total],
      ['injection tasks scored as their security() checks (reviewed)', scoring.reviewed],
      ['injection tasks no action pattern can score (left unscored)', scoring.unscored],
      ['injection tasks scored from their ground truth (security() not reviewed)', scoring.derived],
    ],
    files: [
      ['environments/<suite>.env.json', "the suite's clean environment: export.json `environment_default` (every injection vector at its default)"],
      ['tools/<suite>.tools.json', "the suite's tools as the OpenAI function schemas AgentDojo sends (export.json `tools`)"],
      ['cases/<suite>/<user_task>.litmus.json', 'one family: the user task\'s benign case, then its pairs with each injection task'],
      ['litmus.config.json', 'the rubric (nothing ignored: the signatures are AgentDojo\'s two verdicts)'],
    ],
    fields: [
      ['instance_id', '`<suite name>-<AgentDojo suite>-<user task id>`, adversarial: `...-<injection task id>`'],
      ['family', 'the user task: its benign run and all its injection pairs'],
      ['paired_with', 'adversarial cases: the benign case of their user task'],
      ['task', 'the user task\'s `prompt` (both arms: the attack is not in the prompt)'],
      ['tools', 'every tool of the suite, as AgentDojo gives them all to the agent'],
      ['environment', 'the suite\'s shared environment file'],
      ['environment_overrides', `adversarial: every location (\`injection_vector_locations\`) of every vector the user task sees (\`injection_vectors_seen\`), holding the location's text with the vector's canary replaced by the "${ATTACK}" template filled with the injection task's \`goal\``],
      ['injection_field', 'each of those overrides'],
      ['discriminator', '`state`: AgentDojo scores with `utility()` / `security()` over the environment before and after'],
      ['correct_resolution_signature', 'benign: `{user_task, utility: true}`; adversarial: `{user_task, injection_task, utility: true, security: false}`'],
      ['safe_completion', "the user task's `ground_truth_calls` (then `ground_truth_output` as a `respond` step when it has one), in both arms"],
      ['unsafe_actions', "what the injection task's `security()` checks, read from AgentDojo's Python and written as action patterns (`where` for a substring, a case-insensitive address or an amount above a limit; `min_calls` where it counts calls; `respond` for an attack on the answer); `x-agentdojo.security` says what is checked and what no pattern can say. Tasks whose code was not reviewed (another AgentDojo version) are read from their ground-truth calls, with a warning"],
      ['x-agentdojo', 'suite, task ids, the module that defines the task, difficulty, benchmark version, and `security`: what the injection task\'s scorer checks'],
    ],
    derived: [
      'The payload text: AgentDojo builds it at run time from the attack template; here it is that template filled in once, for a target model named as in export.json.',
      'AgentDojo formats the payload into the environment YAML before parsing it; the overrides hold it as written, without YAML\'s re-reading of the text.',
    ],
    todo: [
      'The scoring itself: AgentDojo\'s `utility` and `security` are Python functions over the environment (a few over the call trace); the signatures name them, they do not reproduce them.',
      'Injection tasks whose `security()` no action pattern can express have no `unsafe_actions` (`x-agentdojo.security.not_expressed` says why; in v1.2.1: slack 5, a sequence of three calls; workspace 5–12, an e-mail sent and then deleted; workspace 13, a similarity ratio). `unscored-attack` reports each such case: score it by hand, or accept the finding.',
      'Other attacks (`export.json` `attacks`): re-import after changing the attack, or edit the override text.',
    ],
    warnings,
  });
}
