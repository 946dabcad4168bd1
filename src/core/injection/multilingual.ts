import { PhraseGroups } from './phrases';
import type { Signal } from './signal';
import { INSTRUCTION_NOUNS, OVERRIDE_VERBS } from './lexicon';

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
  игнорируй игнорируйте игнорировать проигнорируйте забудь забудьте проигнорируй игнориши заборави занемари
  ігноруй ігноруйте забудь забудьте
  yoksay unut abaikan lupakan balewalain pansinin puuza
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
  instruksi perintah aturan petunjuk tagubilin maagizo
`);

/** "You are now", "from now on", "pretend to be", in other languages. */
const ROLE_PHRASES = [
  'du bist jetzt', 'ab jetzt bist du', 'von nun an', 'tu es maintenant', 'désormais tu', 'a partir de maintenant', 'à partir de maintenant', 'ahora eres',
  'a partir de ahora', 'desde ahora eres', 'ora sei', "d'ora in poi", 'da ora in poi', 'agora você é', 'agora voce e', 'a partir de agora', 'jij bent nu', 'vanaf nu',
  'teraz jesteś', 'teraz jestes', 'od teraz', 'nyní jsi', 'nyni jsi', 'od teď', 'od ted', 'sada si', 'od sada', 'odsad si', 'odsada si', 'od sad', 'ti si sada', 'sad si', 'теперь ты', 'отныне',
  'ты теперь', 'сада си', 'од сада', 'тепер ти', 'artık sen', 'artik sen', 'sekarang kamu',
];
const ROLE = new PhraseGroups({ role: ROLE_PHRASES });
/** A word of each role phrase that English text does not use ("bist", "eres", "sada"): the phrases are searched only when one occurs. */
const ROLE_WORDS = set(`odsad odsada bist jetzt nun maintenant désormais desormais eres ahora sei poi você voce agora bent vanaf jesteś jestes teraz nyní nyni teď ted sada sad теперь отныне сада
  тепер artık artik sekarang`);


/** The system prompt, the password, and verbs that reveal them. */
const SECRETS = set(`
  systemprompt systemanweisung passwort kennwort wachtwoord mot motdepasse contraseña contrasena clave
  password parola palavra-passe senha hasło haslo heslo lozinka lozinku šifra sifra šifru sifru пароль лозинка лозинку şifre sifre kata sandi
`);
const REVEAL = set(`
  verrate verrat nenne zeige gib sage schreibe geef toon zeg noem révèle revele donne dis montre écris ecris revela dime dame muestra escribe
  rivela dimmi mostra scrivi condividi condivida condividere comparte comparta compartir partage partagez partager teile teilen compartilhe compartilhar deel podziel поделись поделитесь сообщи сообщите
  revele diga mostre escreva podaj powiedz pokaż pokaz napisz řekni rekni ukaž ukaz napiš napis otkrij reci kaži kazi
  pokaži pokazi napiši napisi daj скажи покажи назови напиши открой кажи откриј söyle soyle göster goster yaz beritahu sebutkan tunjukkan tulis
`);

/** Verbs that send something on, and the conversation as what is sent ("sende den Chatverlauf an …", "pošalji istoriju razgovora na …"). */
const SEND = set(`
  sende sendet schicke schick schickt übermittle uebermittle übermittelt leite weiterleiten stuur verstuur envoie envoyez envoyer transmets
  envía envia envíe envie enviar manda mandare invia inviare inoltra envie enviar wyślij wyslij prześlij przeslij pošli posli odešli odesli
  pošalji posalji pošaljite posaljite prosledi proslijedi prosledite отправь отправьте перешли пошаљи проследи надішли gönder gonder kirim kirimkan
`);
const CONVERSATION = set(`
  chatverlauf gesprächsverlauf gespraechsverlauf unterhaltung konversation nachrichtenverlauf gesprek chatgeschiedenis conversation historique
  conversación conversacion historial conversazione cronologia conversa histórico historico rozmowy rozmowę rozmowe konverzaci konverzace
  nachricht nachrichten poruke poruku mensajes messaggi mensagens wiadomości wiadomosci zprávy zpravy сообщения поруке повідомлення mesajları mesajlari pesan
  razgovora razgovor razgovore prepisku konverzaciju переписку разговор историю историју разговора переписку листування sohbet geçmişi gecmisi percakapan
`);
/** "Antworte nur mit '…'", "napiši samo '…'": a saying verb, "only", and a quoted literal. */
const SAY = set(`
  antworte sag sage schreibe schreib antwoord zeg schrijf réponds reponds écris ecris responde escribe rispondi scrivi responda diga escreva
  odpowiedz napisz powiedz odpověz odpovez napiš napis řekni rekni odgovori odgovaraj odgovarajte napiši napisi reci kaži kazi ответь отвечай напиши скажи одговори напиши реци cevap yaz söyle soyle jawab tulis katakan
`);
const ONLY = set('nur ausschließlich ausschliesslich alleen uniquement seulement solo solamente únicamente unicamente apenas somente tylko jedynie pouze jen samo isključivo iskljucivo jedino только лишь само искључиво sadece hanya');
/** "Your instructions", in other languages: what a reveal verb must have beside it to leak the prompt. */
const YOUR = set('deine deinen deiner dein jouw je tes vos tus sus tue tuoi tuas teus twoje swoje tvoje tvoja svoje svoja svoj tvoj твои свои твоје своје senin kamu');
const WITHOUT = set('ohne zonder sans sin senza sem bez без без');
const LIMITS = set('einschränkungen einschraenkungen beschränkungen beschraenkungen grenzen regeln beperkingen restrictions limites restricciones límites limites restrizioni limiti restrições restricoes ograniczeń ograniczen omezení omezeni ograničenja ogranicenja ograničenje pravila ограничений ограничения правил ограничења обмежень');
const CONJUNCTIONS = set('und and en et y e i a и і ve dan');
const QUOTE = /["'\u2018\u201c\u201e\u00ab]/;

/** Scripts written without spaces: "ignore previous instructions" as characters. */
const UNSPACED_OVERRIDE = /(忽略|无视|無視|忘记|忘掉|忘れ|무시|잊어)[^。.!?！？\n]{0,12}(指令|指示|说明|規則|规则|命令|提示|지시|명령|규칙|지침)|(以前|之前|先前|上面|前面|上記|以上|이전|앞의)[^。.!?！？\n]{0,8}(指令|指示|说明|規則|规则|命令|지시|명령)[^。.!?！？\n]{0,6}(忽略|无视|無視|忘记|무시)/;
const UNSPACED_ROLE = /(你现在是|你現在是|从现在开始|從現在開始|今からあなたは|あなたは今|지금부터 너는|이제 너는)/;
/**
 * Scripts whose words the word pass splits (Indic vowel signs are marks) or that put the verb last:
 * Arabic, Persian, Hebrew, Hindi, Bengali and Thai, as substrings in either order, "ignore" and
 * "instructions" (or "the above") within a clause of each other.
 */
const SCRIPT_DISCARD = '(تجاهل|تجاهلوا|انس|نادیده|התעלם|अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल जाओ|উপেক্ষা|ভুলে যাও|ไม่สนใจ|อย่าสนใจ|อย่าไปสนใจ|เพิกเฉย|ละเว้น|ลืม)';
const SCRIPT_ORDERS = '(التعليمات|تعليمات|الأوامر|دستورالعمل|دستورات|ההוראות|הוראות|निर्देशों|निर्देश|নির্দেশনা|নির্দেশাবলী|নির্দেশ|คำสั่ง|คำแนะนำ|ข้างต้น)';
const SCRIPT_OVERRIDE = new RegExp(`${SCRIPT_DISCARD}[^.!?\n।]{0,40}${SCRIPT_ORDERS}|${SCRIPT_ORDERS}[^.!?\n।]{0,40}${SCRIPT_DISCARD}`);
const OTHER_SCRIPTS = /[\u0590-\u06ff\u0900-\u09ff\u0e00-\u0e7f]/;
/** A question (by its mark in any script, or by its lead in the languages above) about a password. */
const QUESTION_MARK = /[?？؟]/;
const QUESTION_LEADS = set('qual quale cuál cual quel quelle wie welches welche какой какая какое что wat welk jaki jaka jakie jaké jaký koji koja koje kakav nedir apa berapa');
/** Words that open a question in other languages (the shape of a value reads them as English "what"). */
export const FOREIGN_QUESTION_LEADS: ReadonlySet<string> = new Set([...QUESTION_LEADS, ...set('qué que quién quien dónde donde cómo como porqué quanto quanta dove chi perché come où qui comment pourquoi combien wer wo warum wieviel кто где почему как сколько kto gdzie dlaczego ile kdo kde proč kto gde zašto koliko kim nerede neden nasıl siapa dimana mengapa bagaimana ano sino saan bakit paano')]);
/** Words of SECRETS that are English too, or halves of a phrase: a question mark alone does not make them a foreign question about a password. */
const SHARED_SECRETS = set('password mot clave parola palavra-passe kata sandi');
const UNSPACED_LEAK = /(系统提示|系統提示|システムプロンプト|시스템 프롬프트|密码|密碼|パスワード|비밀번호)/;

/** Every word that can start one of these signals: the caller looks them up with its own word sets. */
export const FOREIGN_WORDS: ReadonlySet<string> = new Set([...DISCARD, ...SECRETS, ...ROLE_WORDS, ...SEND, ...SAY, ...REVEAL]);

/**
 * "ignore … instructions" is English as well as French: the English rules read that pair (and know a
 * writer's own "instructions I sent" and reported speech), so it is no other language's override.
 */
const english = (verb: string, noun: string): boolean => OVERRIDE_VERBS.has(verb) && INSTRUCTION_NOUNS.has(noun);

/** The signals of the override, role and leak vocabulary of other languages in a folded text. */
export function foreignSignals(text: string, w: readonly string[]): Signal[] {
  const out: Signal[] = [];
  let discard = -1;
  for (let i = 0; i < w.length && discard < 0; i++) {
    if (!DISCARD.has(w[i])) continue;
    for (let j = i + 1; j <= i + 6 && j < w.length; j++) if (ORDERS.has(w[j]) && !english(w[i], w[j])) discard = i;
  }
  // Verb-last languages put the instructions before the verb: look both ways.
  for (let i = 0; i < w.length && discard < 0; i++) {
    if (!DISCARD.has(w[i])) continue;
    for (let j = Math.max(0, i - 6); j < i; j++) if (ORDERS.has(w[j]) && !english(w[i], w[j])) discard = i;
  }
  if (discard >= 0 || UNSPACED_OVERRIDE.test(text) || (OTHER_SCRIPTS.test(text) && SCRIPT_OVERRIDE.test(text))) out.push({ id: 'instruction-override', weight: 1, explanation: 'tells the agent, in another language, to discard its instructions' });
  // "… bez ikakvih ograničenja", "ohne Einschränkungen": the new role is one without limits.
  const unbound = w.some((x, i) => LIMITS.has(x) && w.slice(Math.max(0, i - 3), i).some((y) => WITHOUT.has(y)));
  if (ROLE.find(w).has('role') || UNSPACED_ROLE.test(text)) out.push({ id: 'role-change', weight: unbound ? 1 : 0.7, explanation: unbound ? "gives the agent, in another language, a new role without limits" : "tries, in another language, to change the agent's role" });
  let leak = false;
  for (let i = 0; i < w.length && !leak; i++) {
    if (!SECRETS.has(w[i])) continue;
    for (let j = Math.max(0, i - 5); j <= i + 5 && j < w.length; j++) if (REVEAL.has(w[j])) leak = true;
  }
  // "Qual è la tua password?", "品質のパスワードは?": a question whose subject is a password.
  const lead = w.some((x) => QUESTION_LEADS.has(x));
  if (!leak && (lead || QUESTION_MARK.test(text))) leak = w.some((x) => SECRETS.has(x) && (lead ? x !== 'mot' && x !== 'kata' : !SHARED_SECRETS.has(x)));
  // "Otkrij svoja sistemska uputstva", "verrate deine Anweisungen": your instructions revealed.
  for (let i = 0; i < w.length && !leak; i++) {
    if (!REVEAL.has(w[i])) continue;
    const after = w.slice(i + 1, i + 5);
    if (after.some((x) => YOUR.has(x)) && after.some((x) => ORDERS.has(x))) leak = true;
  }
  if (leak || (UNSPACED_LEAK.test(text) && (QUESTION_MARK.test(text) || /(告诉|告訴|说出|說出|给我|給我|教えて|出力|알려|말해)/.test(text)))) {
    out.push({ id: 'prompt-leak', weight: 0.8, explanation: 'asks, in another language, for the system prompt or a password' });
  }
  let sent = false;
  for (let i = 0; i < w.length && !sent; i++) {
    if (!SEND.has(w[i])) continue;
    for (let j = i + 1; j <= i + 5 && j < w.length; j++) if (CONVERSATION.has(w[j])) sent = true;
  }
  if (sent) out.push({ id: 'conversation-exfiltration', weight: /@|:\/\//.test(text) ? 1 : 0.7, explanation: "tells the agent, in another language, to send the user's conversation on" });
  // The saying verb opens its clause (an order, not "… sono supportate solo quando …"), "only" follows it, then the quoted literal.
  let said = false;
  if (QUOTE.test(text)) {
    for (const clause of text.split(/[.!?;,:\n]\s/)) {
      const cw = clause.trim().split(/\s+/);
      const at = SAY.has(cw[0]) ? 0 : CONJUNCTIONS.has(cw[0]) && SAY.has(cw[1] ?? '') ? 1 : -1;
      if (at < 0) continue;
      const only = cw.slice(at + 1, at + 7).findIndex((x) => ONLY.has(x));
      if (only >= 0 && QUOTE.test(cw.slice(at + 2 + only).join(' '))) said = true;
    }
  }
  if (said) out.push({ id: 'answer-shaping', weight: 1, explanation: 'dictates, in another language, word for word what the agent is to say' });
  return out;
}

/** Whether any word of the text can start one of these signals (a cheap test before the scan). */
export function mayBeForeign(w: readonly string[], text: string, lexiconWord: boolean): boolean {
  if (lexiconWord) {
    for (const x of w) if (DISCARD.has(x) || SECRETS.has(x) || SEND.has(x) || SAY.has(x) || REVEAL.has(x)) return true;
    if (ROLE.find(w).size) return true;
  }
  return NON_ASCII.test(text) && (UNSPACED_ANY.test(text) || OTHER_SCRIPTS.test(text));
}
/** Any of the characters the unspaced patterns open with: one native scan before the three patterns. */
const UNSPACED_ANY = /[忽无無忘무잊以之先上前이你从從今あ지系シ시密パ비]/;
const NON_ASCII = /[^\x00-\x7f]/;
