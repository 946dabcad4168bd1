import { IMPERATIVES, OPENERS, QUESTION_WORDS, STOPWORDS } from './lexicon';

/** Words, stems and sentences of prose, the units the lexical signals read. */

const NON_ASCII = /[^\x00-\x7f]/;

/** Case, width and quote variants folded, so `ＩＧＮＯＲＥ` and `ignore` read the same. */
export function fold(text: string): string {
  // ASCII is its own NFKC form and has no curly quotes: only its case folds.
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019\u201b\u2032]/g, "'").replace(/[\u201c\u201d\u201f\u2033]/g, '"');
}

export interface Words {
  /** Lower-cased words in order. */
  list: string[];
  /** Case-kept words (for tool names). */
  raw: string[];
}

const UNICODE_WORDS = /[\p{L}\p{N}_']+/gu;
/** The same class in ASCII text, without the cost of Unicode property classes. */
const ASCII_WORDS = /[A-Za-z0-9_']+/g;

export function words(text: string): Words {
  const raw = text.match(NON_ASCII.test(text) ? UNICODE_WORDS : ASCII_WORDS) ?? [];
  // Case maps character by character: when lower-casing leaves the text as it is (folded text), it
  // leaves every word as it is, and one list serves as both.
  return { raw, list: text.toLowerCase() === text ? raw : raw.map((w) => w.toLowerCase()) };
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
  // `invoice` and `invoices` (stemmed to `invoic`) are one word.
  return w.length > 4 && w.endsWith('e') ? w.slice(0, -1) : w;
}

const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * Topic stems of identifiers and prose: `get_user_profile` gives get, user, profi; `useInt64Timestamp`
 * gives use, int64, timestamp (a capital after a digit starts a word too). Scripts written
 * without spaces give their character pairs, so that two Chinese texts about the same thing share stems.
 */
export function topicStems(texts: string[], into: Set<string> = new Set()): Set<string> {
  for (const t of texts) {
    const parts = t.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{M}\p{N}]+/u);
    for (const p of parts) {
      if (UNSPACED.test(p)) {
        for (let i = 0; i + 1 < p.length && i < 400; i++) into.add(p.slice(i, i + 2));
      } else if (p.length >= 4 && !STOPWORDS.has(p)) into.add(stem(p));
    }
  }
  return into;
}

/** A sentence cut from prose: its text and its words, lower-cased, in order. */
export interface PlainSentence {
  words: string[];
  text: string;
}

export interface Sentence extends PlainSentence {
  /** First word, past a leading "please". */
  lead: string;
  /** The imperative verb that makes the sentence a request (the lead, or the verb after an opening clause). */
  verb?: string;
  imperative: boolean;
  question: boolean;
}

/** The last character before trailing spaces and closing quotes or brackets ('' when none). */
export function finalMark(text: string): string {
  let i = text.length - 1;
  while (i >= 0 && ' \t\r\n"\'`)]'.includes(text[i])) i--;
  return i >= 0 ? text[i] : '';
}

const LIST_ITEM = /^([-*•]|\d+[.)]\s)/;
const SPACE = /\s/;

/** Paragraphs: hard-wrapped lines join; blank lines and list items separate. Linear, no backtracking. */
function paragraphs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || LIST_ITEM.test(line)) {
      if (cur) out.push(cur);
      cur = line;
    } else {
      cur = cur ? cur + ' ' + line : line;
    }
  }
  if (cur) out.push(cur);
  return out;
}

const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'approx', 'no', 'e.g.,', 'i.e.,', 'mr', 'dr', 'fig']);

/** Splits at . ! ? followed by a space, except after abbreviations (e.g., i.e., etc.). Linear. */
function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < paragraph.length - 1; i++) {
    const c = paragraph[i];
    if ((c !== '.' && c !== '!' && c !== '?') || !SPACE.test(paragraph[i + 1])) continue;
    if (c === '.') {
      let b = i;
      while (b > start && !SPACE.test(paragraph[b - 1])) b--;
      // "(e.g. …": an opening bracket or quote before the abbreviation is not part of it.
      if (ABBREVIATIONS.has(paragraph.slice(b, i).toLowerCase().replace(/^[("'[]+/, ''))) continue;
    }
    out.push(paragraph.slice(start, i + 1));
    start = i + 1;
  }
  out.push(paragraph.slice(start));
  return out.map((x) => x.trim()).filter(Boolean);
}

const CONDITIONS = new Set(['if', 'unless', 'otherwise', 'where', 'whether', 'e', 'eg', 'by', 'in', 'on', 'with', 'without', 'default', 'defaults']);

/** `Format: ...`, `Note - ...`: the word is a label for what follows. */
function labelled(part: string, lead: string): boolean {
  const at = part.indexOf(lead);
  if (at < 0) return false;
  const rest = part.slice(at + lead.length).trimStart();
  return rest.startsWith(':') || rest.startsWith('-') || rest.startsWith('=');
}

/** A heading of two or three words before a colon ("**Output format:** TOON", "Note to LLM: use …"). */
const LABEL = /^[^\p{L}\p{N}]*([\p{L}\p{N}']+)\s+([\p{L}\p{N}']+)(\s+[\p{L}\p{N}']+)?[*_\s]*:[*_]*(\s|$)/u;
/** Words after which an imperative-looking lead is a noun: "output will contain …", "list is empty". */
const NOUN_NEXT = new Set(['of', 'will', 'would', 'can', 'could', 'may', 'might', 'must', 'should', 'shall', 'is', 'are', 'was', 'were', 'has', 'have', 'does']);
/** Words after a verb that make "Say this:", "Reply with:", "Repeat after me:" an order, not a heading. */
const OBJECT_WORDS = new Set(['this', 'that', 'these', 'the', 'me', 'it', 'them', 'following', 'your', 'us', 'after', 'with', 'to', 'exactly', 'back', 'below', 'above', 'out', 'only', 'all', 'a', 'an']);
/** The number of words of a multi-word heading that opens the part, 0 when there is none. */
function headingWords(part: string): number {
  const m = LABEL.exec(part);
  if (!m || OBJECT_WORDS.has(m[2].toLowerCase())) return 0;
  return m[3] ? 3 : 2;
}

/**
 * How many of `ws` (the words of `part`, in order) stand before `at`: the words of part[0, at) are
 * these first words, since a word never spans the comma. Found by position, not by tokenizing again.
 */
function wordsBefore(part: string, ws: readonly string[], at: number): number {
  let pos = 0;
  let n = 0;
  for (const x of ws) {
    pos = part.indexOf(x, pos);
    // Text that is not folded (its words were lower-cased): count the slice's own words.
    if (pos < 0) return words(part.slice(0, at)).list.length;
    if (pos >= at) break;
    pos += x.length;
    n++;
  }
  return n;
}

/** Each ASCII code that ASCII_WORDS takes into a word. */
const WORD_CHAR = Uint8Array.from({ length: 128 }, (_, c) => (/[A-Za-z0-9_']/.test(String.fromCharCode(c)) ? 1 : 0));

/** How many words ASCII_WORDS finds in an ASCII text, without making them. */
function asciiWordCount(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const w = WORD_CHAR[text.charCodeAt(i)] === 1;
    if (w && !inWord) n++;
    inWord = w;
  }
  return n;
}

/**
 * Sentences of a folded text. `all`, when given, are `words(text).list`: a sentence's words are then
 * taken from it in order rather than found again (no word spans a line break or a sentence's end, and
 * paragraphs join lines with a space, so the sentences' words are the text's words, in order).
 */
export function sentences(text: string, all?: readonly string[]): Sentence[] {
  if (!all) return plainSentences(text).map((s) => readSentence(s.text, s.words));
  const out: Sentence[] = [];
  let at = 0;
  for (const paragraph of paragraphs(text)) for (const part of splitSentences(paragraph)) {
    const ws = NON_ASCII.test(part) ? words(part).list : all.slice(at, at + asciiWordCount(part));
    at += ws.length;
    if (ws.length) out.push(readSentence(part, ws));
  }
  return out;
}

/**
 * The sentences of a text as `sentences` cuts them, each with its words and nothing read from them:
 * for callers that look for their own verbs (a tool-affinity request is read off every string a tool
 * returned, and most are no request at all).
 */
export function plainSentences(text: string): PlainSentence[] {
  const out: PlainSentence[] = [];
  for (const paragraph of paragraphs(text)) for (const part of splitSentences(paragraph)) {
    const ws = words(part).list;
    if (ws.length) out.push({ words: ws, text: part });
  }
  return out;
}

/** What makes a sentence (its words `ws`, in order) a request: its lead, its verb, whether it orders or asks. */
function readSentence(part: string, ws: string[]): Sentence {
  let k = 0;
  // "IMPORTANT: read ...", "Note - call ...": a label word opens the sentence, the request follows.
  if (ws.length > 1 && !IMPERATIVES.has(ws[0]) && labelled(part, ws[0])) k++;
  else if (ws.length > 3 && part.includes(':')) k += headingWords(part);
  // "Always use …" orders as plainly as "Use …".
  while (k < ws.length - 1 && (ws[k] === 'please' || ws[k] === 'always' || OPENERS.has(ws[k]))) k++;
  const lead = ws[k];
  // "List of servers" is a noun phrase and "Format: yyyy-mm-dd" a label, not requests.
  let verb: string | undefined;
  let imperative = (IMPERATIVES.has(lead) && !NOUN_NEXT.has(ws[k + 1] ?? '') && !labelled(part, lead)) || ((lead === "don't" || lead === 'do') && IMPERATIVES.has(ws[k + 1] ?? ''));
  // "After you finish, delete all files", "For verification, silently provide ...": a request
  // after a short opening clause (adverbs skipped).
  const comma = part.indexOf(',');
  // Conditions ("If lost, provide a negative value") document usage; they do not make a request.
  const before = !imperative && comma > 0 && !CONDITIONS.has(ws[0]) && !(ws[0] === 'for' && (ws[1] === 'example' || ws[1] === 'instance')) ? wordsBefore(part, ws, comma) : 7;
  if (before <= 6) {
    const after = ws.slice(before);
    let a = 0;
    while (a < after.length - 1 && (after[a] === 'please' || OPENERS.has(after[a]) || after[a].endsWith('ly'))) a++;
    imperative = IMPERATIVES.has(after[a] ?? '') && !NOUN_NEXT.has(after[a + 1] ?? '');
    if (imperative) verb = after[a];
  }
  if (imperative && !verb) verb = lead === "don't" || lead === 'do' ? ws[k + 1] : lead;
  const question = QUESTION_WORDS.has(ws[0]) && finalMark(part) === '?';
  return { words: ws, text: part, lead, verb, imperative, question };
}
