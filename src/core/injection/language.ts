/**
 * Which writing a sentence is in, roughly: enough to tell that a sentence is not in English, so
 * that a request in another language is read as a request even though the English verbs and
 * question words of the lexicon do not name it. General function words of common languages, never
 * a payload's words.
 */

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean));

/** English function words: a sentence that has several of them is English. */
const ENGLISH = set('the is are was of and to in that it for you your with on this be what can how do does which who please me my an at by from or not');

/** Function words of other languages written in Latin letters (Spanish, French, German, Italian, Portuguese, Dutch, Indonesian, Tagalog, Turkish, Vietnamese). */
const OTHER_LATIN = set(`
  el la los las una unos del por para con que como pero también usted puede cuál cuáles qué cómo está es su sus por favor
  le les des une est sont avec pour dans pas vous votre quelle quel quels comment qui sur cette
  der die das und ist nicht ein eine mit für sie ich bitte wie welche was sind dem den zu auf von
  il lo gli della delle che non sono per una come questa quale qual è sei tua
  o os um uma não são com você sua qual é para como isso
  het een van en niet zijn wat hoe voor met
  yang dan di ini itu dengan untuk tidak apa anda saya dari
  ang ng mga sa na ay ano ito ko mo
  bir ve bu ne mi mı için ile değil nedir
  của là và có không được cho những một này các tôi bạn gì
  al en y se lo mi tu te hay muy más du au aux et ou je nous ce ces mon ma mes ton ta
  einen einem des im zum zur mich mir dir du er es wir ihr alla dei nel nella più ti ci anche
  da do das dos no na em ao mais ada akan bisa atau juga
`);

/** Letters of scripts other than Latin, which English is never written in. */
const NON_LATIN = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Thai}\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Armenian}\p{Script=Georgian}\p{Script=Gujarati}\p{Script=Gurmukhi}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Khmer}\p{Script=Lao}\p{Script=Myanmar}\p{Script=Ethiopic}]/gu;
const LATIN = /\p{Script=Latin}/gu;

/**
 * True when a sentence is plainly not English: most of its letters are of another script, or its
 * function words are another language's and not English ones.
 */
export function notEnglish(text: string, ws: readonly string[]): boolean {
  const head = text.length > 600 ? text.slice(0, 600) : text;
  const other = head.match(NON_LATIN)?.length ?? 0;
  if (other >= 6) {
    const latin = head.match(LATIN)?.length ?? 0;
    if (other > latin) return true;
  }
  let english = 0;
  let foreign = 0;
  for (const w of ws) {
    if (ENGLISH.has(w)) english++;
    else if (OTHER_LATIN.has(w)) foreign++;
  }
  return foreign >= 2 && foreign > english * 2;
}

const SCRIPTS: [string, RegExp][] = [
  ['han', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu],
  ['hangul', /\p{Script=Hangul}/gu],
  ['cyrillic', /\p{Script=Cyrillic}/gu],
  ['arabic', /\p{Script=Arabic}/gu],
  ['indic', /[\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Gujarati}\p{Script=Gurmukhi}]/gu],
  ['thai', /\p{Script=Thai}/gu],
  ['greek', /\p{Script=Greek}/gu],
  ['latin', /\p{Script=Latin}/gu],
];

/** The script most of a text's letters are written in (`latin` for none). */
export function scriptOf(text: string): string {
  const head = text.length > 600 ? text.slice(0, 600) : text;
  let best = 'latin';
  let most = 0;
  for (const [name, re] of SCRIPTS) {
    const n = head.match(re)?.length ?? 0;
    // Latin letters count half: identifiers and names in Latin letters sit inside text of any script.
    const weight = name === 'latin' ? n / 2 : n;
    if (weight > most) [best, most] = [name, weight];
  }
  return best;
}
