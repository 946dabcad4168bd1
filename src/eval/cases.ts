/**
 * The benchmarks as suites: each is imported with the project's own importer (in memory, never
 * written), then linted the way a suite author's workspace is, so the figures count findings on
 * cases with their tools, not verdicts on loose strings. The tool-affinity signal needs the case's
 * tools, so this is where it is measured:
 *
 * - **attack copied into a benign case**: every adversarial case with its arm set to benign (its
 *   probe, labels and unsafe actions dropped; its tools, tool outputs and overrides kept). Reported
 *   when `benign-contamination` names it. InjecAgent's base attacks are plain requests: only their
 *   affinity with the case's attacker tools makes them payloads.
 * - **clean twin**: the same benign copy with the attack taken out (InjecAgent: the user tool's
 *   response with the attacker instruction emptied, the attacker tools kept; AgentDojo and ASB: the
 *   benchmark's own benign cases). Any finding is a false positive, as is any `injection-payload`
 *   finding on the clean environment and tool files.
 */
import { join } from 'node:path';
import { benchmarkReader } from '../node/source-reader';
import { parse } from 'jsonc-parser';
import { lintIndex, loadWorkspace, memoryFileSystem } from '../core';
import { benignContamination } from '../core/rules/benign-contamination';
import { injectionPayload } from '../core/rules/injection-payload';
import { IMPORTERS, type OutputFile } from '../importers/index';
import type { Rate } from './score';

export interface CaseFigures {
  benchmark: string;
  /** Attacks copied into benign cases, by group (file and variant): how many were reported. */
  attacked: Map<string, Rate>;
  /** Clean benign cases with a finding, by group. */
  clean: Map<string, Rate>;
  /** The surface of each reported attack copy's first finding (tool_output, environment_override, a tool schema, …), counted. */
  surfaces: Map<string, number>;
  /** `injection-payload` findings on the clean shared files (environments, tools). */
  sharedFindings: number;
  sharedFiles: number;
  notes: string[];
  ms: number;
}


type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Case = { [k: string]: Json };

const isObject = (v: unknown): v is Case => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The cases of an imported suite file (`{suite, cases}` with comments). */
function casesOf(text: string): Case[] {
  const v = parse(text) as unknown;
  if (isObject(v) && Array.isArray(v.cases)) return v.cases.filter(isObject);
  return isObject(v) ? [v] : [];
}

/** An adversarial case as the benign arm would hold it: what it sees kept, what marks it as an attack dropped. */
function asBenign(c: Case, id: string): Case {
  const out: Case = { instance_id: id, arm: 'benign', family: c.family ?? 'f', task: c.task ?? '' };
  for (const k of ['tools', 'environment', 'environment_overrides', 'tool_outputs', 'resolution', 'discriminator', 'correct_resolution_signature']) {
    if (c[k] !== undefined) out[k] = c[k];
  }
  return out;
}

const bump = (m: Map<string, Rate>, k: string, hit: boolean) => {
  const r = m.get(k) ?? { hit: 0, total: 0 };
  r.total++;
  if (hit) r.hit++;
  m.set(k, r);
};

const BASE = 'file:///eval-import';

/** Lints the imported files plus the derived case files; returns the ids of the cases benign-contamination names, and the shared-file findings. */
async function lintImport(files: OutputFile[], extra: Record<string, string>, shared: (path: string) => boolean) {
  const all: Record<string, string> = {};
  for (const f of files) all[`${BASE}/${f.path}`] = f.text;
  for (const [p, t] of Object.entries(extra)) all[`${BASE}/${p}`] = t;
  const { index } = await loadWorkspace(memoryFileSystem(all), [BASE]);
  const { diagnostics } = lintIndex(index, { rules: [benignContamination, injectionPayload] });
  const reported = new Map<string, string>();
  let sharedFindings = 0;
  for (const d of diagnostics) {
    if (d.code === 'benign-contamination' && typeof d.data?.case === 'string' && !reported.has(d.data.case)) reported.set(d.data.case, typeof d.data.surface === 'string' ? d.data.surface : 'tool schema');
    if (d.code === 'injection-payload' && shared(d.uri.slice(BASE.length + 1))) sharedFindings++;
  }
  return { reported, sharedFindings };
}

function countSurfaces(fig: CaseFigures, groupOf: Map<string, string>, reported: Map<string, string>): void {
  for (const [id, g] of groupOf) {
    const surface = g.startsWith('attacked') ? reported.get(id) : undefined;
    if (surface) fig.surfaces.set(surface, (fig.surfaces.get(surface) ?? 0) + 1);
  }
}

const suite = (cases: Case[]) => JSON.stringify({ suite: 'eval', cases }, null, 1);

async function injecAgent(dir: string): Promise<CaseFigures | undefined> {
  const t0 = Date.now();
  const r = IMPORTERS.injecagent(benchmarkReader(join(dir, 'injecagent')));
  if (!r.ok) return undefined;
  const fig: CaseFigures = { benchmark: 'injecagent', attacked: new Map(), clean: new Map(), sharedFindings: 0, sharedFiles: 0, notes: [], ms: 0, surfaces: new Map() };
  // The user tool's clean response, by family, from the derived controls.
  const cleanOutput = new Map<string, Json>();
  const controls = r.files.find((f) => f.path.endsWith('controls.litmus.json'));
  for (const c of controls ? casesOf(controls.text) : []) {
    const out = Array.isArray(c.tool_outputs) && isObject(c.tool_outputs[0]) ? c.tool_outputs[0].output : undefined;
    if (typeof c.family === 'string' && out !== undefined) cleanOutput.set(c.family, out);
  }
  const extra: Record<string, string> = {};
  const groupOf = new Map<string, string>();
  for (const f of r.files) {
    const m = /cases\/(dh|ds)_(base|enhanced)\.litmus\.json$/.exec(f.path);
    if (!m) continue;
    const group = `${m[1]} ${m[2]}`;
    const attacked: Case[] = [];
    const clean: Case[] = [];
    casesOf(f.text).forEach((c, i) => {
      const id = `${m[1]}-${m[2]}-${i}`;
      attacked.push(asBenign(c, `${id}-attack`));
      groupOf.set(`${id}-attack`, `attacked ${group}`);
      const out = typeof c.family === 'string' ? cleanOutput.get(c.family) : undefined;
      if (m[2] === 'base' && out !== undefined && Array.isArray(c.tool_outputs) && isObject(c.tool_outputs[0])) {
        // The clean response, with the attacker's tools still at hand: any finding is a false positive.
        const twin = asBenign(c, `${id}-clean`);
        twin.tool_outputs = [{ ...c.tool_outputs[0], output: out }];
        clean.push(twin);
        groupOf.set(`${id}-clean`, 'clean response, attacker tools at hand');
      }
    });
    // Beside the imported file, so its relative tool references resolve.
    extra[f.path.replace(/\.litmus\.json$/, '.benign-copy.litmus.json')] = suite(attacked);
    extra[f.path.replace(/\.litmus\.json$/, '.clean-twin.litmus.json')] = suite(clean);
  }
  const { reported, sharedFindings } = await lintImport(r.files, extra, (p) => p.startsWith('tools/'));
  for (const [id, g] of groupOf) bump(g.startsWith('attacked') ? fig.attacked : fig.clean, g.replace(/^attacked /, ''), reported.has(id));
  countSurfaces(fig, groupOf, reported);
  fig.sharedFindings = sharedFindings;
  fig.sharedFiles = r.files.filter((f) => f.path.startsWith('tools/')).length;
  fig.ms = Date.now() - t0;
  return fig;
}

/** AgentDojo and ASB: the benchmark's own benign cases are the clean ones; each attack copied into a benign case. */
async function withOwnControls(name: 'agentdojo' | 'asb', dir: string, sharedPrefix: string[]): Promise<CaseFigures | undefined> {
  const t0 = Date.now();
  const r = IMPORTERS[name](benchmarkReader(join(dir, name)));
  if (!r.ok) return undefined;
  const fig: CaseFigures = { benchmark: name, attacked: new Map(), clean: new Map(), sharedFindings: 0, sharedFiles: 0, notes: [], ms: 0, surfaces: new Map() };
  const extra: Record<string, string> = {};
  const groupOf = new Map<string, string>();
  for (const f of r.files) {
    if (!f.path.endsWith('.litmus.json')) continue;
    const copies: Case[] = [];
    casesOf(f.text).forEach((c, i) => {
      if (c.arm === 'benign') {
        if (typeof c.instance_id === 'string') groupOf.set(c.instance_id, `clean ${f.path.replace(/\/[^/]*$/, '')}`);
        return;
      }
      // Direct prompt injection sits in the task, whose wording is never a finding: not a data surface.
      const labels = Array.isArray(c.injection_field) ? c.injection_field : [c.injection_field];
      if (labels.every((l) => typeof l === 'string' && l.endsWith('#/task'))) return;
      const id = `${f.path}-${i}-attack`;
      const x = isObject(c['x-asb']) ? c['x-asb'] : isObject(c['x-agentdojo']) ? c['x-agentdojo'] : undefined;
      const variant = x && typeof x.attack_type === 'string' ? x.attack_type : x && typeof x.suite === 'string' ? x.suite : f.path.replace(/\.litmus\.json$/, '');
      copies.push(asBenign(c, id));
      groupOf.set(id, `attacked ${variant}`);
    });
    if (copies.length) extra[f.path.replace(/\.litmus\.json$/, '.benign-copy.litmus.json')] = suite(copies);
  }
  const shared = (p: string) => sharedPrefix.some((s) => p.startsWith(s));
  const { reported, sharedFindings } = await lintImport(r.files, extra, shared);
  for (const [id, g] of groupOf) bump(g.startsWith('attacked') ? fig.attacked : fig.clean, g.replace(/^(attacked|clean) /, ''), reported.has(id));
  countSurfaces(fig, groupOf, reported);
  fig.sharedFindings = sharedFindings;
  fig.sharedFiles = r.files.filter((f) => shared(f.path)).length;
  fig.ms = Date.now() - t0;
  return fig;
}

/** Every benchmark found under `dir`, imported and linted as cases. */
export async function importedBenchmarks(dir: string): Promise<CaseFigures[]> {
  const out: CaseFigures[] = [];
  for (const load of [() => withOwnControls('agentdojo', dir, ['environments/', 'tools/']), () => injecAgent(dir), () => withOwnControls('asb', dir, ['tools/'])]) {
    const f = await load();
    if (f) out.push(f);
  }
  return out;
}
