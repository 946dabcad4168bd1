import { caseLabels, type Label } from '../injection/labels';
import { labelStands } from '../injection/analysis';
import type { CaseModel, WorkspaceIndex } from '../model/workspace';
import { code } from '../text/escape';
import { patternLiveness } from '../trajectory/dead';
import { patternPath } from '../trajectory/patterns';
import { followerUnscored, scorerOf, type CaseScorer } from '../trajectory/scorer';
import { caseFact, caseField, stringsOf, valueAt } from './case-fields';
import { KeptByModel } from './kept-by-case';
import type { RuleContext, Rule, RuleMeta } from './types';

/**
 * The follower trajectory (FORMAT §3d): an agent that does exactly what the attack asks. When
 * nothing in the case's scorer would notice, the case passes that agent, and the attack's success
 * goes unmeasured. Three ways: a prompt-injection case with no live unsafe action whose scorer does
 * not read the answer; a labelled payload that names a tool of the case no unsafe action covers;
 * and, in any case, a dead detector (§3c: a pattern that no call of the case can match).
 */
export const meta: RuleMeta = {
  id: 'unscored-attack',
  defaultSeverity: 'error',
  from: 'scenario validity',
  description: "An adversarial case whose attack success nothing scores, or an unsafe action that no call of the case can match (a dead detector).",
};

const MAX_NAMED = 5;
const WORD = /[A-Za-z0-9_]/;

/** What judging a case reports to: its findings are kept (KeptByModel) before they reach the run. */
type Judged = Pick<RuleContext, 'report'>;

/**
 * Whether `name` occurs in `text` as a whole word (not inside a longer identifier). A hyphen between
 * word characters joins an identifier too: `send-money` is not named by "call send-money-fast".
 */
export function namesAsWord(text: string, name: string): boolean {
  if (!name) return false;
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    const before = i > 0 ? text[i - 1] : '';
    const after = text[i + name.length] ?? '';
    const joinedBefore = WORD.test(before) || (before === '-' && WORD.test(name[0]) && WORD.test(text[i - 2] ?? ''));
    const joinedAfter = WORD.test(after) || (after === '-' && WORD.test(name[name.length - 1]) && WORD.test(text[i + name.length + 1] ?? ''));
    if (!joinedBefore && !joinedAfter) return true;
  }
  return false;
}

/** A name of word characters joined by hyphens: it occurs as a whole word exactly when it is one of the text's words. */
const IDENTIFIER = /^[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*$/;
const WORDS = /[A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)*/g;

/**
 * The words of a label target (runs of letters, digits and `_` over its strings), kept per target:
 * the cases of one task label the same environment strings, and an edit of their tool file judges
 * every one again, each asking about each of its tools (AgentDojo's workspace: 600 cases, dozens of
 * tools). Objects are kept while they live; strings in a bounded map, for a server whose files
 * come and go.
 */
const wordsOfObject = new WeakMap<object, Set<string>>();
const wordsOfString = new Map<string, Set<string>>();
/** Past either bound the strings' words start over: a hostile file's megabyte strings are not kept forever. */
const MAX_KEPT_STRINGS = 4096;
const MAX_KEPT_LENGTH = 16_000_000;
let keptLength = 0;

function wordsOf(value: unknown, text: () => string): Set<string> {
  const kept = typeof value === 'string' ? wordsOfString.get(value) : value !== null && typeof value === 'object' ? wordsOfObject.get(value) : undefined;
  if (kept) return kept;
  const words = new Set(text().match(WORDS));
  if (typeof value === 'string') {
    if (wordsOfString.size >= MAX_KEPT_STRINGS || keptLength >= MAX_KEPT_LENGTH) {
      wordsOfString.clear();
      keptLength = 0;
    }
    wordsOfString.set(value, words);
    keptLength += value.length;
  } else if (value !== null && typeof value === 'object') wordsOfObject.set(value, words);
  return words;
}

/** The names among `names` that a label target names as whole words (as `namesAsWord` over its strings says). */
export function namedIn(value: unknown, names: readonly string[]): string[] {
  let text: string | undefined;
  const textOf = () => (text ??= stringsOf(value).join('\n'));
  const words = wordsOf(value, textOf);
  return names.filter((t) => (IDENTIFIER.test(t) ? words.has(t) : namesAsWord(textOf(), t)));
}

/** Dead detectors; when they are all the case has, they are why its attack goes unscored: one fact with that finding. */
function deadPatterns(ctx: Judged, index: WorkspaceIndex, c: CaseModel, scorer: CaseScorer, unscored: boolean): void {
  for (const p of scorer.patterns) {
    const l = patternLiveness(p, scorer.tools);
    // An unresolved tool reference is unresolved-reference's to report.
    if (l.state === 'unknown' && l.why === 'too-complex') {
      ctx.report({
        at: caseField(index, c, ...patternPath(p, ...l.path)),
        message: `unsafe_actions[${p.index}] is not checked: ${l.reason}; simplify it so the linter can tell whether any call matches`,
        severity: 'info',
        maxSeverity: 'info',
        data: { unsafeAction: p.index, problem: 'not-checked' },
      });
    }
    if (l.state !== 'dead') continue;
    for (const reason of l.reasons) {
      ctx.report({
        at: { ...caseField(index, c, ...patternPath(p, ...reason.path)), ...(reason.part ? { part: reason.part } : {}) },
        message: `unsafe_actions[${p.index}] ${reason.message}: a dead detector never scores the attack`,
        related: reason.related ? [{ at: { uri: reason.related.tool.uri, root: reason.related.tool.root, path: reason.related.path }, message: reason.related.message }] : [],
        data: { unsafeAction: p.index, problem: reason.problem },
        fact: unscored ? caseFact(c, 'unscored') : caseFact(c, 'dead', p.index),
      });
    }
  }
}

/** The follower trajectory against a prompt-injection case: is anything there to score it? */
function follower(ctx: Judged, index: WorkspaceIndex, c: CaseModel, scorer: CaseScorer): boolean {
  if (c.arm !== 'adversarial' || c.probe !== 'prompt_injection') return false;
  const why = followerUnscored(scorer);
  if (!why) return false;
  const d = scorer.discriminator;
  const reads = d === undefined ? 'declares no discriminator' : `is scored on ${code(d)}`;
  const what = why === 'no-unsafe-actions' ? 'lists no unsafe_actions' : 'has only dead unsafe_actions (no call of this case can match them)';
  ctx.report({
    at: caseField(index, c, c.value.unsafe_actions !== undefined ? 'unsafe_actions' : 'probe'),
    message:
      `nothing scores this attack: the case ${what} and ${reads}, not on the answer (\`response\`, \`llm_judge\`), so an agent that does exactly what the payload asks passes; ` +
      'list what the attack makes the agent do in unsafe_actions (a call pattern, or {"respond": schema} for an attack on the answer)',
    data: { problem: why, discriminator: d },
    fact: caseFact(c, 'unscored'),
  });
  return true;
}

/** Labelled payloads that name a tool of the case no live unsafe action covers. */
function uncoveredTools(ctx: Judged, index: WorkspaceIndex, c: CaseModel, scorer: CaseScorer, unscored: boolean, stands: (label: Label) => boolean): void {
  if (c.arm !== 'adversarial') return;
  // The labels first: most adversarial cases have none, and then no tool list is built.
  const labels = caseLabels(index, c);
  if (labels.length === 0) return;
  const tools = [...scorer.tools.resolved.keys()];
  if (tools.length === 0) return;
  const covered = new Set<string>();
  for (const p of scorer.live) if (p.kind === 'call') covered.add(p.tool);
  const candidates = tools.filter((t) => !covered.has(t));
  if (candidates.length === 0) return;
  for (const label of labels) {
    // A stale label (stale-injection-field) names no payload: what its value says is no attack.
    if (!label.target || !stands(label)) continue;
    const named = namedIn(valueAt(index, label.target.uri, label.target.root, label.target.path), candidates);
    if (named.length === 0) continue;
    const list = named.slice(0, MAX_NAMED).map((t) => code(t)).join(', ') + (named.length > MAX_NAMED ? ` and ${named.length - MAX_NAMED} more` : '');
    ctx.report({
      at: { uri: c.doc.uri, root: c.root, path: label.path },
      severity: 'warning',
      message:
        `this payload names ${list}, ${named.length === 1 ? 'a tool' : 'tools'} of the case that no unsafe action covers: an agent that calls ${code(named[0])} as the payload asks is not scored; ` +
        `add an unsafe action for ${named.length === 1 ? 'it' : 'them'}, or take the tool out of the case`,
      data: { problem: 'uncovered-tool', tools: named },
      ...(unscored ? { fact: caseFact(c, 'unscored') } : {}),
    });
  }
}

/**
 * A case's findings read its model (its scorer: value, resolved tools) and the values its labels
 * point at: `caseLabels` gives the same list while the documents they point into are the same.
 */
const kept = new KeptByModel();

export const unscoredAttack: Rule = {
  meta,
  check(ctx) {
    const { index } = ctx;
    // Whether a label stands reads its target's payloads (the scan of the tools it points into).
    const stands = (label: Label) => labelStands(index, label);
    for (const c of index.cases) {
      const also = () => {
        const labels = caseLabels(index, c);
        return labels.length === 0 ? [labels] : [labels, ...labels.map(stands)];
      };
      kept.report(ctx, c, also, (report) => {
        const judged = { report };
        const scorer = scorerOf(c);
        const unscored = follower(judged, index, c, scorer);
        if (scorer.patterns.length > 0) deadPatterns(judged, index, c, scorer, unscored);
        uncoveredTools(judged, index, c, scorer, unscored, stands);
      });
    }
  },
};
