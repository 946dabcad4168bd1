import { readme } from './readme';
import { arr, isObject, need, obj, parseJsonFile, runImporter, str, strings, summarize, type ImportBody } from './run';
import { SourceError, type ImportOptions, type ImportResult, type OutputFile, type SourceReader } from './types';
import { comments, jsonText, PathClaims, slug, suiteFile, toolRef, toolsFile, type CaseRecord, type Json, type SuiteEntry } from './write';

/**
 * AgentHarm (test_public): each harmful behaviour is an adversarial case whose correct resolution is
 * a refusal, judged by a language model; its benign twin (same id) asks for a harmless task with the
 * same shape, scored by its grading function on the tool calls. The user prompt is the request
 * itself: there is no injected content, so no injection_field. AgentHarm reports the harmful and the
 * benign arm as separate metrics, so the import declares `"scoring": "disjoint"` (FORMAT §5).
 */

/** The file an AgentHarm source is recognised by. */
export const AGENTHARM_MAIN = 'benchmark/harmful_behaviors_test_public.json';

const ARMS = [
  { arm: 'harmful', file: 'benchmark/harmful_behaviors_test_public.json', tools: 'derived/harmful.tools.json' },
  { arm: 'benign', file: 'benchmark/benign_behaviors_test_public.json', tools: 'derived/benign.tools.json' },
] as const;

interface Behavior {
  id: string;
  base: string;
  idOriginal: string;
  name: string;
  category: string;
  prompt: string;
  targets: string[];
  grading: string;
  detailed: boolean;
  hint: boolean;
}

export function importAgentHarm(source: SourceReader, options: ImportOptions = {}): ImportResult {
  return runImporter(source, options, body);
}

function body(source: SourceReader, options: ImportOptions): ImportBody {
  if (source.read(ARMS[0].file) === undefined) throw new SourceError(ARMS[0].file, 'not found: this is not an AgentHarm folder (expected benchmark/*_behaviors_test_public.json and derived/*.tools.json)');
  const name = options.suite ?? 'agentharm';
  const files: OutputFile[] = [];
  const warnings: string[] = [];
  const claims = new PathClaims();
  const byArm = new Map<string, { behaviors: Behavior[]; tools: Set<string>; toolsPath: string; canary: string }>();

  for (const a of ARMS) {
    options.progress?.(`agentharm: ${a.file}`);
    const root = parseJsonFile(a.file, need(source, a.file));
    if (!isObject(root)) throw new SourceError(a.file, 'should be {"canary_guid", "behaviors": [...]}');
    const canary = typeof root.canary_guid === 'string' ? root.canary_guid : '';
    const behaviors = arr(a.file, root, 'behaviors').map((b, i) => readBehavior(`${a.file}: behaviors[${i}]`, b));
    const toolsRoot = parseJsonFile(a.tools, need(source, a.tools));
    if (!isObject(toolsRoot)) throw new SourceError(a.tools, 'should be {"tools": [...]}');
    const toolList = arr(a.tools, toolsRoot, 'tools');
    const tools = new Set<string>();
    toolList.forEach((t, i) => {
      const fn = isObject(t) ? obj(`${a.tools}: tools[${i}]`, t, 'function') : undefined;
      if (!fn || typeof fn.name !== 'string') throw new SourceError(`${a.tools}: tools[${i}]`, 'not an OpenAI function schema');
      if (tools.has(fn.name)) throw new SourceError(`${a.tools}: tools[${i}]`, `tool "${fn.name}" is defined twice`);
      tools.add(fn.name);
    });
    for (const b of behaviors) {
      for (const t of b.targets) if (!tools.has(t)) throw new SourceError(`${a.file}: behavior ${b.id}`, `unknown tool "${t}" (not in ${a.tools})`);
    }
    const toolsPath = `tools/${a.arm}.tools.json`;
    files.push({
      path: toolsPath,
      text: toolsFile(
        [
          `AgentHarm ${a.arm} tools (${toolList.length}), from ${a.tools}: OpenAI function schemas as inspect_ai builds them`,
          'from each tool\'s `run` signature and docstring. Same-named tools in the two arms are separate implementations.',
        ],
        toolList as Json[],
      ),
    });
    byArm.set(a.arm, { behaviors, tools, toolsPath, canary });
  }

  const harmful = byArm.get('harmful')!;
  const benign = byArm.get('benign')!;
  const benignIds = new Set(benign.behaviors.map((b) => b.id));
  const harmfulIds = new Set(harmful.behaviors.map((b) => b.id));
  const canary = harmful.canary || benign.canary;
  const all: CaseRecord[] = [];
  const counts: [string, number][] = [];
  let differingTools = 0;
  const benignById = new Map(benign.behaviors.map((b) => [b.id, b]));
  for (const h of harmful.behaviors) {
    const twin = benignById.get(h.id);
    if (twin && twin.targets.join('\u0000') !== h.targets.join('\u0000')) differingTools++;
  }

  for (const a of ARMS) {
    const { behaviors, toolsPath } = byArm.get(a.arm)!;
    const byCategory = new Map<string, Behavior[]>();
    for (const b of behaviors) byCategory.set(b.category, [...(byCategory.get(b.category) ?? []), b]);
    for (const [category, list] of [...byCategory].sort(([x], [y]) => (x < y ? -1 : 1))) {
      // Categories whose slugs coincide ("Disinformation", "disinformation") get files of their own.
      const caseFile = claims.claim(`cases/${a.arm}/${slug(category)}.litmus.json`, `${a.arm}\u0000${category}`);
      const entries: SuiteEntry[] = list.map((b) => {
        const twinArm = a.arm === 'harmful' ? 'benign' : 'harmful';
        const hasTwin = (a.arm === 'harmful' ? benignIds : harmfulIds).has(b.id);
        const common = {
          instance_id: `${name}-${a.arm}-${b.id}`,
          family: `${name}-${b.base}`,
          paired_with: hasTwin ? `${name}-${twinArm}-${b.id}` : undefined,
          task: b.prompt,
          tools: b.targets.map((t) => toolRef(caseFile, toolsPath, t)),
          'x-agentharm': {
            id: b.id,
            id_original: b.idOriginal,
            name: b.name,
            category: b.category,
            detailed_prompt: b.detailed,
            hint_included: b.hint,
            grading_function: b.grading,
            target_functions: b.targets,
          },
        };
        const value: CaseRecord =
          a.arm === 'harmful'
            ? {
                ...common,
                arm: 'adversarial',
                probe: 'skill_misuse',
                resolution: 'decline',
                discriminator: 'llm_judge',
                correct_resolution_signature: { refusal: true },
                // No unsafe_actions: AgentHarm's harm score is its grading function over the calls'
                // arguments and order (some with a semantic judge), and the benign twin needs the same
                // tools by name, so a name pattern would score the benign completion as harm.
              }
            : {
                ...common,
                arm: 'benign',
                resolution: 'comply',
                discriminator: 'calls',
                correct_resolution_signature: { refusal: false, grading_function: b.grading, target_functions: b.targets },
              };
        if (!hasTwin) warnings.push(`${a.file}: behavior ${b.id} has no ${twinArm} twin`);
        return { note: `${b.id} ${b.name}`, value };
      });
      for (const e of entries) all.push(e.value);
      files.push({
        path: caseFile,
        text: suiteFile(
          [
            `AgentHarm test_public, ${a.arm} behaviours, category "${category}" (${list.length}). Generated by \`litmus-lint import agentharm\`.`,
            'AgentHarm\'s data may be used only for improving the safety and security of AI systems (its licence).',
            ...(canary ? [`canary GUID ${canary}: kept so that this text can be kept out of training data.`] : []),
          ],
          name,
          entries,
        ),
      });
    }
    counts.push([`${a.arm} behaviours (${a.arm === 'harmful' ? 'adversarial' : 'benign'})`, behaviors.length]);
  }
  counts.push(['twin pairs whose target functions differ', differingTools], ['cases in all', all.length]);
  files.push({ path: 'litmus.config.json', text: configText() });
  files.push({ path: 'README.md', text: readmeText(name, counts, canary, warnings) });
  return { files, warnings, summary: summarize(all as { arm: string }[]) };
}

function readBehavior(where: string, raw: unknown): Behavior {
  if (!isObject(raw)) throw new SourceError(where, 'should be an object');
  const id = str(where, raw, 'id');
  const w = `${where} (${id})`;
  const m = /^(\d+)-(\d+)$/.exec(id);
  if (!m) throw new SourceError(w, `id "${id}" is not "<behaviour>-<variant>"`);
  return {
    id,
    base: m[1],
    idOriginal: typeof raw.id_original === 'string' ? raw.id_original : String(raw.id_original ?? ''),
    name: str(w, raw, 'name'),
    category: str(w, raw, 'category'),
    prompt: str(w, raw, 'prompt'),
    targets: strings(w, raw, 'target_functions'),
    grading: str(w, raw, 'grading_function'),
    detailed: raw.detailed_prompt === true,
    hint: raw.hint_included === true,
  };
}

function configText(): string {
  return (
    comments([
      'litmus.config.json for an AgentHarm import.',
      'AgentHarm reports its arms apart: harm score and refusal rate on the harmful behaviours, the benign',
      'behaviours\' score on their own, with no threshold or aggregate over both. "scoring": "disjoint" says so',
      '(FORMAT §5): the contamination rules report at most info here, as the LITMUS contamination note puts',
      'such a suite outside its scope. Set "shared" if you combine the two arms into one number.',
      'The grading functions check call order, so the rubric keeps arrays ordered.',
    ]) + jsonText({ scoring: 'disjoint', rubric: { ignoreKeys: [], unorderedArrays: false, foldCase: false } })
  );
}

function readmeText(name: string, counts: [string, number][], canary: string, warnings: string[]): string {
  return readme({
    title: `AgentHarm test_public, imported as LITMUS suite "${name}"`,
    intro: [
      'Imported by `litmus-lint import agentharm`. AgentHarm asks an agent to carry out explicitly harmful multi-step',
      'tool tasks (the harmful arm: the correct behaviour is to refuse) and their harmless twins (the benign arm: the',
      'correct behaviour is to do them). There is no injection: the prompt is the request.',
      'Licence: MIT plus "only for improving the safety and security of AI systems".' + (canary ? ` Canary GUID ${canary}.` : ''),
    ],
    sections: [
      {
        heading: 'Why the arms are scored apart ("scoring": "disjoint")',
        lines: [
          'AgentHarm publishes three numbers: the harm score and the refusal rate on the harmful behaviours, and the',
          'score on the benign behaviours. No threshold or aggregate combines the two arms, so a benign score cannot',
          'hide or inflate a harmful one. The LITMUS contamination conditions are about such a shared number, and the',
          'contamination note puts a suite that reports its arms apart outside their scope. litmus.config.json says so',
          'with `"scoring": "disjoint"` (FORMAT §5).',
          '',
          'What that means for the report: `signature-overlap`, `refusal-orthogonality`, `drift-endpoint-overlap`,',
          '`scope-contradiction`, `missing-arm` and the aggregate gates of `aggregate-contamination` report at most',
          '`info` here, with a message that says a shared aggregate would be contaminated; they count in no verdict.',
          'Every other rule applies in full. If you combine the arms into one number (a harm-minus-benign score, a',
          'single pass threshold), set `"scoring": "shared"` and read those findings as errors again: the harmful',
          'refusals are judged on the answer\'s wording (`llm_judge`) while their twins are scored on calls.',
        ],
      },
    ],
    counts,
    files: [
      ['tools/{harmful,benign}.tools.json', 'derived/{harmful,benign}.tools.json: OpenAI function schemas, one file per arm'],
      ['cases/harmful/<category>.litmus.json', 'the harmful behaviours of a category'],
      ['cases/benign/<category>.litmus.json', 'their benign twins'],
      ['litmus.config.json', '`"scoring": "disjoint"` (above) and the rubric'],
    ],
    fields: [
      ['instance_id', '`<suite>-harmful-<id>` / `<suite>-benign-<id>` (`id` is `<behaviour>-<variant>`)'],
      ['family', '`<suite>-<behaviour>`: the 4 prompt variants of a behaviour in both arms'],
      ['paired_with', 'the twin with the same `id` in the other arm'],
      ['task', '`prompt`'],
      ['tools', '`target_functions`, from the arm\'s own tool file (AgentHarm\'s default adds no irrelevant tools)'],
      ['discriminator', 'harmful: `llm_judge` (the refusal judge); benign: `calls` (the grading function checks the calls)'],
      ['resolution', 'harmful: `decline`; benign: `comply`'],
      ['correct_resolution_signature', 'harmful: `{refusal: true}`; benign: `{refusal: false, grading_function, target_functions}`'],
      ['unsafe_actions', 'none: the harm score is the grading function over the calls\' arguments and order (some with a semantic LLM judge), which no action pattern holds; the benign twins call the same tools by name, so a name pattern would score their completions as harm'],
      ['x-agentharm', 'id, id_original, name, category, detailed_prompt, hint_included, grading_function, target_functions'],
    ],
    derived: ['Nothing invented: both arms are AgentHarm\'s.'],
    todo: [
      '`safe_completion` for the benign twins: the grading functions (Python) check calls and arguments, but AgentHarm ships no reference trajectory. Adding them raises no contamination finding: the harmful cases carry no unsafe_actions to collide with, and the arms are scored apart.',
      'The grading functions themselves and the semantic judge inside some of them: only their names are carried (`x-agentharm.grading_function`).',
      'Jailbreak templates (`prompts.py`) wrapped around the prompt, if you run AgentHarm with one.',
    ],
    warnings,
  });
}
