import { IMPERATIVES, OPENERS, QUESTION_WORDS, STOPWORDS } from './lexicon';

/** Words, stems and sentences of prose, the units the lexical signals read. */

export interface Words {
  /** Lower-cased words in order. */
  list: string[];
  /** Case-kept words (for tool names). */
  raw: string[];
}

export function words(text: string): Words {
  const raw = text.match(/[\p{L}\p{N}_']+/gu) ?? [];
  return { raw, list: raw.map((w) => w.toLowerCase()) };
}

/** A crude stem, enough to match `files` with `file` and `calculating` with `calculate`. */
export function stem(word: string): string {
  let w = word.replace(/'s$/, '');
  if (w.length > 5 && w.endsWith('ies')) return w.slice(0, -3) + 'y';
  for (const suffix of ['ations', 'ation', 'ities', 'ity', 'ings', 'ing', 'ness', 'ments', 'ment', 'ers', 'er', 'ies', 'es', 'ed', 'ly', 's']) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 4) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

/** Topic stems of identifiers and prose: `get_user_profile` gives get, user, profi. */
export function topicStems(texts: string[], into: Set<string> = new Set()): Set<string> {
  for (const t of texts) {
    const parts = t.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u);
    for (const p of parts) if (p.length >= 4 && !STOPWORDS.has(p)) into.add(stem(p));
  }
  return into;
}

export interface Sentence {
  words: string[];
  text: string;
  /** First word, past a leading "please". */
  lead: string;
  imperative: boolean;
  question: boolean;
}

/** The last character before trailing spaces and closing quotes or brackets ('' when none). */
export function finalMark(text: string): string {
  let i = text.length - 1;
  while (i >= 0 && ' \t\r\n"\'`)]'.includes(text[i])) i--;
  return i >= 0 ? text[i] : '';
}

/** Paragraphs: hard-wrapped lines join; blank lines and list items separate. Linear, no backtracking. */
function paragraphs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || /^([-*•]|\d+[.)]\s)/.test(line)) {
      if (cur) out.push(cur);
      cur = line;
    } else {
      cur = cur ? cur + ' ' + line : line;
    }
  }
  if (cur) out.push(cur);
  return out;
}

/** Sentences of a folded text. */
export function sentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const part of paragraphs(text).flatMap((p) => p.split(/(?<=[.!?])\s+/))) {
    const ws = words(part).list;
    if (!ws.length) continue;
    let k = 0;
    while (k < ws.length - 1 && (ws[k] === 'please' || OPENERS.has(ws[k]))) k++;
    const lead = ws[k];
    // "List of servers" is a noun phrase, not a request.
    let imperative = (IMPERATIVES.has(lead) && ws[k + 1] !== 'of') || ((lead === "don't" || lead === 'do') && IMPERATIVES.has(ws[k + 1] ?? ''));
    // "After you finish, delete all files": a request after a time clause.
    if (!imperative && /^(after|before|when|once|then|first)$/.test(ws[0])) {
      const comma = part.indexOf(',');
      const next = comma >= 0 ? words(part.slice(comma + 1)).list[0] : undefined;
      imperative = next !== undefined && IMPERATIVES.has(next);
    }
    const question = QUESTION_WORDS.has(ws[0]) && finalMark(part) === '?';
    out.push({ words: ws, text: part, lead, imperative, question });
  }
  return out;
}
