import type { Sentence } from './prose';
import type { Signal } from './signal';

/**
 * Tasks handed to the agent that are not the tool's:
 *
 * - an announced task: text that announces new or overriding orders ("Fresh instructions have just
 *   been released", "this command is now your singular quest", "all others are mirages") and then
 *   gives one, a request or a question. Either half alone is common enough (release notes speak of
 *   new instructions; documentation asks things); together they hand the agent a task;
 * - a request for the writer: a description that asks the reader to do something for *me* ("tell
 *   me what it says", "send it to me", "help me remember", "repeat what I write"). Documentation
 *   speaks to the agent about the tool and its user; it never wants something for itself.
 *
 * Word lists are general English, never a payload's text.
 */

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Nouns of an assignment. */
export const TASK_NOUNS = set('task tasks quest mission missions priority priorities goal objective focus duty assignment job purpose errand instruction instructions directive directives orders command commands');
/** What makes it the agent's one task now: "your sole quest", "your new task", "your top priority". */
const SOLE = set('new sole singular only single primary main top real true ultimate extra supplementary urgent immediate next current overriding');
/** The rest set aside: "dismiss the rest", "all others are mirages", "everything else is secondary". */
const REST = set('rest others everything');
const DISMISS = set('dismiss ignore disregard forget drop abandon discard skip');
/** What the rest is declared to be: "all others are mirages", "everything else is secondary". */
const SECONDARY = set('secondary irrelevant unimportant void mirages mirage distractions distraction noise meaningless moot obsolete cancelled canceled');

/** A sentence that announces orders: a word of `announces` (new-instruction found it), or a task made the agent's only one. */
function announces(s: Sentence): boolean {
  const w = s.words;
  for (let i = 0; i < w.length; i++) {
    const x = w[i];
    // "your (new|sole|…) (task|quest|…)", "this command is now your singular quest"
    if (x === 'your' && SOLE.has(w[i + 1] ?? '') && w.slice(i + 2, i + 4).some((y) => TASK_NOUNS.has(y))) return true;
    // "dismiss the rest", "all others are …", "everything else is secondary"
    if (DISMISS.has(x) && w[i + 1] === 'the' && REST.has(w[i + 2] ?? '')) return true;
    if (((x === 'all' && w[i + 1] === 'others') || (x === 'everything' && w[i + 1] === 'else')) && (w[i + 2] === 'are' || w[i + 2] === 'is') && SECONDARY.has(w[i + 3] ?? '')) return true;
    // "what follows is a task", "here's an extra mission"
    if ((x === 'follows' || x === "here's") && w.slice(i + 1, i + 5).some((y) => TASK_NOUNS.has(y))) return true;
  }
  return false;
}

/** A request or a question: the task itself. */
function asks(s: Sentence, prohibits: (s: Sentence) => boolean): boolean {
  return (s.imperative && !prohibits(s)) || s.question || /[?？؟]\s*$/.test(s.text) || WH.has(s.words[0] ?? '') || TASK_VERBS.has(s.words[0] ?? '');
}
const WH = set("what what's who whom whose which where why how name");
/** Verbs of a quiz task that the imperative lexicon does not list: "Specify the device …", "Recall the year …". */
const TASK_VERBS = set('specify recall remind guess');

/**
 * An announcement of new orders followed by a request or a question. `announced` says whether a
 * sentence announces orders by the caller's own phrase lists (new-instruction).
 */
export function announcedTask(ss: readonly Sentence[], announced: (s: Sentence) => boolean, prohibits: (s: Sentence) => boolean): Signal[] {
  for (let i = 0; i < ss.length; i++) {
    if (!announced(ss[i]) && !announces(ss[i])) continue;
    // The task may follow in the same sentence after a semicolon or a colon ("…; here's a mission: name the …").
    if (ss.slice(i + 1).some((s) => asks(s, prohibits))) {
      return [{ id: 'new-instruction', weight: 1, explanation: 'announces new orders for the agent, then gives one' }];
    }
  }
  return [];
}

/** Object words of a request for the writer. */
const ME = set('me myself');
const FOR_ME = set('tell give send show remind help email forward write repeat print explain describe list');
/** Words before a verb that make it a statement, not a request: "it shows me", "the tool will send me". */
const SUBJECTS = set('it this that which they he she we i tool service server api will would may might does did to should');

/**
 * The sentences that ask the reader to do something for the writer: "tell me", "send it to me",
 * "help me remember", "repeat what I write". "Let me know" is an idiom of documentation, and an
 * example prompt in quotes ("e.g. 'show me my open PRs'") is the user's, not the writer's.
 */
export function forTheWriter(ss: readonly Sentence[]): Sentence[] {
  return ss.filter((s) => {
    const w = s.words;
    let verb = -1;
    const at = w.findIndex((x, i) => {
      if (x === 'i' && w[i - 1] === 'what' && (w[i + 1] === 'write' || w[i + 1] === 'say' || w[i + 1] === 'type')) return (verb = i - 2) >= -1;
      if (!ME.has(x) || i === 0) return false;
      // "tell me", "send it to me", "give it back to me"
      for (let k = i - 1; k >= Math.max(0, i - 4); k--) if (FOR_ME.has(w[k])) return (verb = k) >= 0;
      return false;
    });
    if (at < 0 || w.slice(0, at).includes('let')) return false;
    // A bare verb with no subject of its own is a request; "the service sends it to me" is not.
    const subject = verb > 0 ? w[verb - 1] : '';
    if (SUBJECTS.has(subject)) return false;
    // The first-person word must not sit inside a quotation (an example of what a user might type).
    const quoteAt = s.text.search(/["“'‘`]/);
    return quoteAt < 0 || quoteAt > s.text.indexOf(` ${w[at]}`);
  });
}
