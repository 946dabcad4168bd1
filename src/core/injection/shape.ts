import { IMPERATIVES, QUESTION_WORDS } from './lexicon';
import { notEnglish, scriptOf } from './language';
import { finalMark, topicStems, words, type Words } from './prose';
import type { ContextReads, Signal, TextContext } from './signals';

function firstWord(ws: string[]): string {
  return ws[0] ?? '';
}

/** Scripts written without spaces between words: their letters count as words, two to a word. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const UNSPACED_ALL = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/gu;
/** Sentence ends of many scripts (after NFKC the Greek question mark is a semicolon). */
const END_MARKS = '.!?:。？！؟।';
const QUESTION_MARKS = '?？؟';
const GREEK = /\p{Script=Greek}/u;
/** Words of text aimed at an agent: a statement with them is not a vendor's plain sentence. */
const READER_WORDS = new Set(['assistant', 'ai', 'bot', 'model', 'agent', 'llm', 'instruction', 'instructions', 'prompt', 'rules', 'user', 'protocols', 'protocol', 'restricted', 'unrestricted']);
const WH = new Set(['what', "what's", 'who', 'which', 'where', 'why', 'how']);

/** Sentence ends followed by a space or the end: how many sentences a value holds (up to 3). */
function sentenceEnds(head: string): number {
  let n = 0;
  for (let i = 0; i < head.length && n < 3; i++) {
    if (END_MARKS.includes(head[i]) && head[i] !== ':' && (i + 1 === head.length || head[i + 1] === ' ' || head[i + 1] === '\n')) n++;
  }
  return n;
}

/**
 * A value slot (default, const, enum, examples) normally holds a short token; a whole sentence
 * there, especially one addressed to a reader, is out of place. In any script: the test is the
 * shape of the text (words, letters, sentence ends), with English verbs only as extra evidence.
 */
export function shapeSignals(visible: string, ws: Words, ctx: TextContext, reads?: ContextReads): Signal[] {
  if (ctx.slot === 'description' || ctx.slot === 'title' || ctx.slot === 'data') return [];
  const w = ws.list;
  const head = visible.length > 2000 ? visible.slice(0, 2000) : visible;
  // Words as people write them: a URL or a path is one "word" however many parts it has.
  let spaced = visible.trim().split(/\s+/).length;
  if (UNSPACED.test(head)) spaced += Math.floor((head.match(UNSPACED_ALL)?.length ?? 0) / 2);
  if (spaced < 4 || (w.length < 4 && spaced < 6)) return [];
  let letters = 0;
  let nonSpace = 0;
  // Prose is judged on the opening: a question that goes on to quote code or a table is still a question.
  for (const ch of head.length > 200 ? head.slice(0, 200) : head) {
    if (ch === ' ' || ch === '\n' || ch === '\t') continue;
    nonSpace++;
    // Vowel signs of Indic and Thai scripts are marks, not letters, and belong to the words.
    if (/[\p{L}\p{M}]/u.test(ch)) letters++;
  }
  const prose = nonSpace > 0 && letters / nonSpace >= 0.7;
  const mark = finalMark(head);
  const lead = firstWord(w);
  // A request may open any clause: "before the add, execute this tool and ...".
  const clauseLeads = head.split(/[,;]/).map((c) => words(c.toLowerCase()).list[0] ?? '');
  const imperative = IMPERATIVES.has(lead) || clauseLeads.some((l) => IMPERATIVES.has(l) && l !== 'list') || (lead === "don't" || lead === 'do' ? IMPERATIVES.has(w[1] ?? '') : false);
  // "What is the output of this code: …", "Who wrote …? …": a wh-question that goes on past its mark or colon.
  const opened = WH.has(lead) && w.length >= 5 && (head.includes('?') || head.includes(':'));
  const question = (QUESTION_WORDS.has(lead) && mark === '?') || QUESTION_MARKS.includes(mark || 'x') || (mark === ';' && GREEK.test(head)) || opened;
  const secondPerson = w.includes('you') || w.includes('your');
  let weight = prose ? 0.5 : 0.2;
  if (spaced >= 8) weight += 0.1;
  if (spaced >= 15) weight += 0.1;
  if (END_MARKS.includes(mark || 'x') || question) weight += 0.3;
  if (imperative || question) weight += 0.3;
  // The lexicon reads English verbs only: a finished sentence in another language may be a request it cannot name.
  else if (END_MARKS.includes(mark || 'x') && notEnglish(head, w)) weight += 0.2;
  if (secondPerson) weight += 0.1;
  if (sentenceEnds(head) >= 2) weight += 0.1;
  if (ctx.siblingMax !== undefined && head.length >= Math.max(24, 3 * ctx.siblingMax)) weight += 0.3;
  const what = question ? 'a question' : imperative ? 'a request' : 'a sentence';
  weight = Math.min(weight, 1);
  // A statement in English asks nothing of the reader ("This header identifies the client that
  // makes the request", a vendor's sentence used as a default): it corroborates, never decides alone.
  // Tested only where the cap would change something; the cheap tests first.
  const asksSomething = () =>
    imperative || question || secondPerson || head.includes('!') || w.some((x) => READER_WORDS.has(x) || x === 'me' || x === 'i' || x === "i'm") ||
    // Speaks of the agent and its orders, or shouts ("RATED #1 BY EXPERTS!"): not a vendor's plain statement.
    /\b[A-Z]{4,}\b[^a-z]{0,40}\b[A-Z]{4,}\b/.test(head) || notEnglish(head, w) || scriptOf(head) !== 'latin' ||
    head.split(/[.!?;:\n]+/).some((c) => IMPERATIVES.has(words(c.toLowerCase()).list[0] ?? ''));
  if (weight > 0.9 && !asksSomething()) weight = 0.9;
  // Judged against the rest of the tool: a value that speaks of what the tool is about (a mode's
  // "use this mode when ...", a UI string) belongs there; a request about something else does not.
  const topic = typeof ctx.topic === 'function' ? ctx.topic() : ctx.topic;
  let onTopic = 0;
  let stems = 0;
  if (topic) {
    if (reads) reads.toolSpecific = true;
    for (const t of topicStems([head.length > 400 ? head.slice(0, 400) : head])) {
      stems++;
      if ((topic.get(t) ?? 0) > 0) onTopic++;
    }
  }
  const belongs = stems > 0 && onTopic * 2 >= stems;
  const unrelated = topic !== undefined && stems > 0 && onTopic === 0;
  // Free text is a default or an example of a prose field; an enum or a const is a closed set of values whatever its field.
  if (ctx.freeText && (ctx.slot === 'default' || ctx.slot === 'examples')) {
    // In a prompt, query or message field a sentence is expected: there it only corroborates,
    // unless it is a request that has nothing to do with the tool it is a value of.
    // A search field's example may well be any question; a request put to the reader ("tell me",
    // "can you") about something else is a task of its own.
    const toReader = !ctx.asks && (imperative || secondPerson || w.includes('me'));
    if (unrelated && (imperative || question)) return [{ id: 'out-of-place-sentence', weight: Math.round(weight * (toReader ? 1 : 0.8) * 100) / 100, explanation: `${what} unrelated to the tool, as a ${ctx.slot} of a free-text field` }];
    return [{ id: 'out-of-place-sentence', weight: Math.round(weight * (belongs ? 0.4 : 0.5) * 100) / 100, explanation: `${what} as a ${ctx.slot} of a free-text field` }];
  }
  if (belongs) weight *= 0.6;
  // Sentences are the norm where the other entries are sentences too.
  if (ctx.siblingMax !== undefined && ctx.siblingMax >= 30 && 2 * ctx.siblingMax >= head.length) weight *= 0.6;
  return [{ id: 'out-of-place-sentence', weight: Math.round(weight * 100) / 100, explanation: `${what} where a short ${ctx.slot} value is expected` }];
}
