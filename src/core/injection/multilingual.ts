import { PhraseGroups } from './phrases';
import type { Signal } from './signal';

/**
 * The override, role and prompt-leak vocabulary of other languages: German, Dutch, French,
 * Spanish, Italian, Portuguese, Polish, Czech, Serbian, Croatian and Bosnian (in Latin letters,
 * with and without diacritics, and in Cyrillic), Russian, Ukrainian, Turkish, Indonesian, Chinese,
 * Japanese and Korean. A payload in another language reads like any other sentence to the English
 * lexicon; these are the general words for "ignore / forget" + "instructions / rules", "you are
 * now", and "system prompt / password" + "reveal", never a payload's text. Words are matched
 * as the folded text's words, or (for scripts without spaces) as substrings.
 */

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Verbs that discard what the reader was told. */
const DISCARD = set(`
  ignoriere ignorier ignoriert ignorieren vergiss vergesst vergessen missachte missachten übergehe verwirf
  negeer negeren vergeet vergeten
  ignore ignorez ignorer oublie oubliez oublier
  ignora ignore ignorar ignoren olvida olvide olvidar olvidate olvídate omite omitir descarta
  ignora ignorare dimentica dimenticare tralascia
  ignore ignorar esqueça esqueca esquecer desconsidere desconsiderar
  zignoruj ignoruj zapomnij pomiń pomin
  ignoruj ignorujte zapomeň zapomen zapomeňte zapomente
  ignoriši ignorisi ignoriraj ignorirajte ignorišite ignorisite zaboravi zaboravite zanemari zanemarite
  игнорируй игнорируйте забудь забудьте проигнорируй игнориши заборави занемари
  ігноруй ігноруйте забудь забудьте
  yoksay unut abaikan lupakan
`);

/** What an override discards: instructions, rules, guidelines, the earlier prompt. */
const ORDERS = set(`
  anweisungen anweisung befehle regeln instruktionen vorgaben richtlinien anordnungen
  instructies instructie regels richtlijnen opdrachten
  instructions consignes règles regles directives
  instrucciones instrucción instruccion reglas indicaciones directrices
  istruzioni istruzione regole direttive indicazioni
  instruções instrucoes instrução instrucao regras diretrizes
  instrukcje instrukcji polecenia zasady reguły reguly wytyczne
  instrukce pokyny pravidla
  uputstva uputstvo uputstava upute uputa instrukcije instrukcija pravila naredbe smjernice smernice
  инструкции инструкций указания правила упутства инструкције правила
  інструкції вказівки правила
  talimatları talimatlari talimatlar kuralları kurallari
  instruksi perintah aturan petunjuk
`);

/** "You are now", "from now on", "pretend to be", in other languages. */
const ROLE_PHRASES = [
  'du bist jetzt', 'ab jetzt bist du', 'von nun an', 'tu es maintenant', 'désormais tu', 'a partir de maintenant', 'à partir de maintenant', 'ahora eres',
  'a partir de ahora', 'desde ahora eres', 'ora sei', "d'ora in poi", 'da ora in poi', 'agora você é', 'agora voce e', 'a partir de agora', 'jij bent nu', 'vanaf nu',
  'teraz jesteś', 'teraz jestes', 'od teraz', 'nyní jsi', 'nyni jsi', 'od teď', 'od ted', 'sada si', 'od sada', 'ti si sada', 'sad si', 'теперь ты', 'отныне',
  'ты теперь', 'сада си', 'од сада', 'тепер ти', 'artık sen', 'artik sen', 'sekarang kamu',
];
const ROLE = new PhraseGroups({ role: ROLE_PHRASES });
/** A word of each role phrase that English text does not use ("bist", "eres", "sada"): the phrases are searched only when one occurs. */
const ROLE_WORDS = set(`bist jetzt nun maintenant désormais desormais eres ahora sei poi você voce agora bent vanaf jesteś jestes teraz nyní nyni teď ted sada sad теперь отныне сада
  тепер artık artik sekarang`);


/** The system prompt, the password, and verbs that reveal them. */
const SECRETS = set(`
  systemprompt systemanweisung passwort kennwort wachtwoord mot motdepasse contraseña contrasena clave
  password parola palavra-passe senha hasło haslo heslo lozinka lozinku šifra sifra šifru sifru пароль лозинка лозинку şifre sifre kata sandi
`);
const REVEAL = set(`
  verrate verrat nenne zeige gib sage schreibe geef toon zeg noem révèle revele donne dis montre écris ecris revela dime dame muestra escribe
  rivela dimmi mostra scrivi revele diga mostre escreva podaj powiedz pokaż pokaz napisz řekni rekni ukaž ukaz napiš napis otkrij reci kaži kazi
  pokaži pokazi napiši napisi daj скажи покажи назови напиши открой кажи откриј söyle soyle göster goster yaz beritahu sebutkan tunjukkan tulis
`);

/** Scripts written without spaces: "ignore previous instructions" as characters. */
const UNSPACED_OVERRIDE = /(忽略|无视|無視|忘记|忘掉|忘れ|무시|잊어)[^。.!?！？\n]{0,12}(指令|指示|说明|規則|规则|命令|提示|지시|명령|규칙|지침)|(以前|之前|先前|上面|前面|上記|以上|이전|앞의)[^。.!?！？\n]{0,8}(指令|指示|说明|規則|规则|命令|지시|명령)[^。.!?！？\n]{0,6}(忽略|无视|無視|忘记|무시)/;
const UNSPACED_ROLE = /(你现在是|你現在是|从现在开始|從現在開始|今からあなたは|あなたは今|지금부터 너는|이제 너는)/;
const UNSPACED_LEAK = /(系统提示|系統提示|システムプロンプト|시스템 프롬프트|密码|密碼|パスワード|비밀번호)/;

/** Every word that can start one of these signals: the caller looks them up with its own word sets. */
export const FOREIGN_WORDS: ReadonlySet<string> = new Set([...DISCARD, ...SECRETS, ...ROLE_WORDS]);

/** The signals of the override, role and leak vocabulary of other languages in a folded text. */
export function foreignSignals(text: string, w: readonly string[]): Signal[] {
  const out: Signal[] = [];
  let discard = -1;
  for (let i = 0; i < w.length && discard < 0; i++) {
    if (!DISCARD.has(w[i])) continue;
    for (let j = i + 1; j <= i + 6 && j < w.length; j++) if (ORDERS.has(w[j])) discard = i;
  }
  if (discard >= 0 || UNSPACED_OVERRIDE.test(text)) out.push({ id: 'instruction-override', weight: 1, explanation: 'tells the agent, in another language, to discard its instructions' });
  if (ROLE.find(w).has('role') || UNSPACED_ROLE.test(text)) out.push({ id: 'role-change', weight: 0.7, explanation: "tries, in another language, to change the agent's role" });
  let leak = false;
  for (let i = 0; i < w.length && !leak; i++) {
    if (!SECRETS.has(w[i])) continue;
    for (let j = Math.max(0, i - 5); j <= i + 5 && j < w.length; j++) if (REVEAL.has(w[j])) leak = true;
  }
  if (leak || (UNSPACED_LEAK.test(text) && /(告诉|告訴|说出|說出|给我|給我|教えて|出力|알려|말해)/.test(text))) {
    out.push({ id: 'prompt-leak', weight: 0.8, explanation: 'asks, in another language, for the system prompt or a password' });
  }
  return out;
}

/** Whether any word of the text can start one of these signals (a cheap test before the scan). */
export function mayBeForeign(w: readonly string[], text: string, lexiconWord: boolean): boolean {
  if (lexiconWord) {
    for (const x of w) if (DISCARD.has(x) || SECRETS.has(x)) return true;
    if (ROLE.find(w).size) return true;
  }
  return NON_ASCII.test(text) && UNSPACED_ANY.test(text);
}
/** Any of the characters the unspaced patterns open with: one native scan before the three patterns. */
const UNSPACED_ANY = /[忽无無忘무잊以之先上前이你从從今あ지系シ시密パ비]/;
const NON_ASCII = /[^\x00-\x7f]/;
