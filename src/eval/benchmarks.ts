/**
 * The data-surface measurement (FORMAT v2 §3a): the detector's `data` slot over the text that real
 * benchmarks put in front of an agent as tool output or environment. Clean data (every string of
 * AgentDojo's default environments, InjecAgent's user-tool responses without the attacker
 * instruction, ASB's normal tools' outputs) must raise nothing; the attacked versions (the same
 * data with each benchmark's own attack text in it) measure recall. Files are read at run time
 * from a benchmarks folder laid out as its README says; nothing of them is kept in the project.
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';

export interface SurfaceString {
  /** Where it comes from (suite, vector, template), for grouping; never printed with the text. */
  group: string;
  text: string;
  /** The tools a case holding the text would have (tool affinity): the suite's, or the attacker's. */
  tools?: { name: string; description?: string }[];
}

export interface SurfaceSet {
  benchmark: string;
  clean: SurfaceString[];
  attacked: SurfaceString[];
  /** What could not be read, said plainly rather than skipped silently. */
  notes: string[];
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

async function readJson(path: string): Promise<Json | undefined> {
  try {
    return JSON.parse(await fsp.readFile(path, 'utf8')) as Json;
  } catch {
    return undefined;
  }
}

async function readJsonl(path: string): Promise<Record<string, Json>[] | undefined> {
  try {
    const text = await fsp.readFile(path, 'utf8');
    return text
      .split(/\r?\n/)
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, Json>);
  } catch {
    return undefined;
  }
}

const isObject = (v: Json | undefined): v is { [k: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

function stringLeaves(v: Json, out: string[]): void {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringLeaves(x, out);
  else if (isObject(v)) for (const x of Object.values(v)) stringLeaves(x, out);
}

/** `{name}` placeholders filled from `values`; unknown ones are left as they are. */
function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([a-z_]+)\}/g, (m, k: string) => (k in values ? values[k] : m));
}

async function agentDojo(dir: string): Promise<SurfaceSet | undefined> {
  const exported = await readJson(join(dir, 'agentdojo', 'export.json'));
  if (!isObject(exported)) return undefined;
  const set: SurfaceSet = { benchmark: 'agentdojo', clean: [], attacked: [], notes: [] };
  const attacks = isObject(exported.attacks) ? exported.attacks : {};
  const suites = isObject(exported.suites) ? exported.suites : {};
  for (const [suiteName, suite] of Object.entries(suites)) {
    if (!isObject(suite)) continue;
    const env: string[] = [];
    stringLeaves(suite.environment_default ?? null, env);
    // Every case of a suite has the suite's tools.
    const suiteTools = (Array.isArray(suite.tools) ? suite.tools : []).filter(isObject).map((t) => {
      const f = isObject(t.function) ? t.function : t;
      return { name: str(f.name), description: str(f.description) };
    });
    for (const text of env) set.clean.push({ group: suiteName, text, tools: suiteTools });
    const tasks = Array.isArray(suite.injection_tasks) ? suite.injection_tasks.filter(isObject) : [];
    const locations = isObject(suite.injection_vector_locations) ? suite.injection_vector_locations : {};
    for (const [vector, where] of Object.entries(locations)) {
      if (!Array.isArray(where)) continue;
      for (const loc of where.filter(isObject)) {
        const canary = `<CANARY---${vector}--->`;
        const value = str(loc.value);
        if (!value.includes(canary)) continue;
        for (const [attackName, attack] of Object.entries(attacks)) {
          if (!isObject(attack)) continue;
          for (const task of tasks) {
            // The tool-knowledge attack lists the calls to make; the task's ground truth says which.
            const calls = Array.isArray(task.ground_truth_calls) ? task.ground_truth_calls.filter(isObject) : [];
            const tools = calls.map((c) => `You should use the tool \`${str(c.function)}\` with the following arguments: ${JSON.stringify(c.args ?? {})}.`).join('\n');
            const payload = fill(str(attack.template), { goal: str(task.goal), user: str(attack.user_name), model: str(attack.model_name), tools });
            set.attacked.push({ group: attackName, text: value.split(canary).join(payload), tools: suiteTools });
          }
        }
      }
    }
  }
  return set;
}

async function injecAgent(dir: string): Promise<SurfaceSet | undefined> {
  const data = join(dir, 'injecagent', 'data');
  const users = await readJsonl(join(data, 'user_cases.jsonl'));
  if (!users) return undefined;
  const set: SurfaceSet = { benchmark: 'injecagent', clean: [], attacked: [], notes: [] };
  const PLACEHOLDER = '<Attacker Instruction>';
  for (const u of users) set.clean.push({ group: 'user tool response', text: str(u['Tool Response Template']).split(PLACEHOLDER).join('') });
  for (const kind of ['dh', 'ds']) {
    for (const variant of ['base', 'enhanced']) {
      const cases = await readJson(join(data, `test_cases_${kind}_${variant}.json`));
      if (!Array.isArray(cases)) {
        set.notes.push(`test_cases_${kind}_${variant}.json: not found or not JSON`);
        continue;
      }
      // What the enhanced files put before the instruction, read from a case that decodes.
      let prefix: string | undefined;
      let rebuilt = 0;
      const decoded: (string | undefined)[] = cases.filter(isObject).map((c) => {
        try {
          const inner = JSON.parse(str(c['Tool Response'])) as unknown;
          return typeof inner === 'string' ? inner : undefined;
        } catch {
          return undefined;
        }
      });
      const objects = cases.filter(isObject);
      objects.forEach((c, i) => {
        const template = str(c['Tool Response Template']);
        const instruction = str(c['Attacker Instruction']);
        const d = decoded[i];
        if (prefix === undefined && d !== undefined && variant === 'enhanced') {
          const start = template.indexOf(PLACEHOLDER);
          const at = d.indexOf(instruction, start);
          if (start >= 0 && at >= start) prefix = d.slice(start, at);
        }
      });
      objects.forEach((c, i) => {
        let text = decoded[i];
        if (text === undefined) {
          // The outer string does not parse (unescaped quotes upstream): rebuild it as it decodes elsewhere.
          text = str(c['Tool Response Template']).split(PLACEHOLDER).join((variant === 'enhanced' ? (prefix ?? '') : '') + str(c['Attacker Instruction']));
          rebuilt++;
        }
        set.attacked.push({ group: `${kind} ${variant}`, text });
      });
      if (rebuilt) set.notes.push(`${kind} ${variant}: ${rebuilt} responses rebuilt from the template and the instruction`);
    }
  }
  return set;
}

async function asb(dir: string): Promise<SurfaceSet | undefined> {
  const data = join(dir, 'asb', 'data');
  const normal = await readJsonl(join(data, 'all_normal_tools.jsonl'));
  const attackers = await readJsonl(join(data, 'all_attack_tools.jsonl'));
  const prompts = await readJson(join(dir, 'asb', 'derived', 'attack_prompts.json'));
  if (!normal) return undefined;
  const set: SurfaceSet = { benchmark: 'asb', clean: [], attacked: [], notes: [] };
  const outputOf = new Map<string, string>();
  for (const t of normal) {
    const out = str(t['Expected Achievements']);
    set.clean.push({ group: 'normal tool output', text: out });
    const agent = str(t['Corresponding Agent']);
    if (!outputOf.has(agent)) outputOf.set(agent, out);
  }
  if (!attackers || !isObject(prompts)) {
    set.notes.push('attacker tools or attack prompt templates not found: recall not measured');
    return set;
  }
  const section = (k: string) => (isObject(prompts[k]) ? (prompts[k] as { [k: string]: Json }) : {});
  const templates = isObject(section('attack_prompts').templates) ? (section('attack_prompts').templates as { [k: string]: Json }) : {};
  const injected = str(section('injected_prompt').template);
  const suffix = str(section('observation_injection_suffix').template) || ' {attack_prompt}';
  for (const a of attackers) {
    const injectedPrompt = fill(injected, { attack_instru: str(a['Attacker Instruction']), tool_name: str(a['Attacker Tool']) });
    const host = outputOf.get(str(a['Corresponding Agent'])) ?? '';
    for (const [name, template] of Object.entries(templates)) {
      const attackPrompt = fill(str(template), { injected_prompt: injectedPrompt });
      set.attacked.push({ group: name, text: host + fill(suffix, { attack_prompt: attackPrompt }) });
    }
  }
  return set;
}

/** Every benchmark found under `dir`; a missing one is named in the result, not an error. */
export async function loadBenchmarks(dir: string): Promise<{ sets: SurfaceSet[]; missing: string[] }> {
  const sets: SurfaceSet[] = [];
  const missing: string[] = [];
  for (const [name, load] of [['agentdojo', agentDojo], ['injecagent', injecAgent], ['asb', asb]] as const) {
    const s = await load(dir);
    if (s) sets.push(s);
    else missing.push(name);
  }
  return { sets, missing };
}
