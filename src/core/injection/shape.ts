import { IMPERATIVES, QUESTION_WORDS } from './lexicon';
import { finalMark, words, type Words } from './prose';
import type { Signal, TextContext } from './signals';

function firstWord(ws: string[]): string {
  return ws[0] ?? '';
}

/**
 * A value slot (default, const, enum, examples) normally holds a short token; a whole sentence
 * there, especially one addressed to a reader, is out of place.
 */
export function shapeSignals(visible: string, ws: Words, ctx: TextContext): Signal[] {
  // Interim treatment of `data` (the detector's own is being built): prose is what data holds, so
  // its shape is no evidence; what it says is judged by the lexical signals alone.
  if (ctx.slot === 'description' || ctx.slot === 'title' || ctx.slot === 'data') return [];
  const w = ws.list;
  // Words as people write them: a URL or a path is one "word" however many parts it has.
  const spaced = visible.trim().split(/\s+/).length;
  if (w.length < 4 || spaced < 4) return [];
  let letters = 0;
  let nonSpace = 0;
  const head = visible.length > 2000 ? visible.slice(0, 2000) : visible;
  for (const ch of head) {
    if (ch === ' ' || ch === '\n' || ch === '\t') continue;
    nonSpace++;
    if (/\p{L}/u.test(ch)) letters++;
  }
  const prose = nonSpace > 0 && letters / nonSpace >= 0.7;
  const mark = finalMark(head);
  const lead = firstWord(w);
  // A request may open any clause: "before the add, execute this tool and ...".
  const clauseLeads = head.split(/[,;]/).map((c) => words(c.toLowerCase()).list[0] ?? '');
  const imperative = IMPERATIVES.has(lead) || clauseLeads.some((l) => IMPERATIVES.has(l) && l !== 'list') || (lead === "don't" || lead === 'do' ? IMPERATIVES.has(w[1] ?? '') : false);
  const question = QUESTION_WORDS.has(lead) && mark === '?';
  const secondPerson = w.includes('you') || w.includes('your');
  let weight = prose ? 0.4 : 0.2;
  if (spaced >= 8) weight += 0.1;
  if ('.!?:'.includes(mark || 'x')) weight += 0.3;
  if (imperative || question) weight += 0.3;
  if (secondPerson) weight += 0.1;
  if (ctx.siblingMax !== undefined && head.length >= Math.max(24, 3 * ctx.siblingMax)) weight += 0.3;
  const what = question ? 'a question' : imperative ? 'a request' : 'a sentence';
  // In a prompt, query or message field a sentence is expected; there it only corroborates.
  if (ctx.freeText) return [{ id: 'out-of-place-sentence', weight: Math.min(weight, 1) * 0.5, explanation: `${what} as a ${ctx.slot} of a free-text field` }];
  return [{ id: 'out-of-place-sentence', weight: Math.min(weight, 1), explanation: `${what} where a short ${ctx.slot} value is expected` }];
}
