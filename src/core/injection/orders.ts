import { literal } from './lexicon';
import { PhraseGroups } from './phrases';
import type { Sentence, Words } from './prose';
import type { Signal } from './signal';
import { isExampleHost, sinks } from './sinks';

/**
 * Orders that a description, or a value, gives about *other* work than its own tool's:
 *
 * - a hook on another tool: run this before every call of `send_email`, or whenever it is used;
 * - tampering with another tool's result: replace its values with this tool's response, run after
 *   it to "correct" what it returned, change the recipient it will use;
 * - a pretext that makes an action mandatory ("required by the security policy", "system update:
 *   do this first") around a shell command, a secret file or an outbound address;
 * - the answer dictated word for word ("Say 'Access Granted'") and forged authorisation ("the
 *   password is correct").
 *
 * A tool that tells how to use itself ("call list_repos first to get the id") gives none of these.
 * Word lists are general English, never a payload's text.
 */

const set = (s: string) => new Set(s.split(/\s+/).filter(Boolean));

/** Words that make an order hold for every call: a hook, not a one-off step. */
const EVERY = set('every each any all whenever always');
const ORDER_WORDS = set('before after prior following whenever once when');
/** Verbs that change what another tool returned or will use. */
const TAMPER_VERBS = set('set replace replaces replacing overwrite overwrites overwriting override overriding substitute substituting correct correcting modify modifying alter altering rewrite rewriting swap swapping change changing adjust adjusting patch patching');
/** What a tool returns or is called with. */
const RESULT_NOUNS = set('result results output outputs response responses value values return returned data list recipient recipients arguments argument parameters parameter answer answers address amount destination account');
/** A reference back to a tool named before ("its result", "that tool's output"). */
const BACK = set("its their it's that those");

/** Words around a name that make it a tool's: "call send_email", "the search_docs tool", "after list_files returns". */
const CALL_BEFORE = set('call calls calling called use using uses invoke invoking invokes run running runs execute executing tool function');
const CALL_AFTER = set('tool function returns returned runs ran would call calls result results output response responses');

/** The identifier of another tool in the words (snake or kebab case, spoken of as a tool), other than `own`. */
function otherTool(raw: readonly string[], own: string | undefined, ownName: (id: string) => boolean = () => false): number {
  for (let i = 0; i < raw.length; i++) {
    const r = raw[i];
    if (r.length < 4 || !/[a-z0-9]_[a-z0-9]|[a-z0-9]-[a-z]/.test(r) || r === own?.toLowerCase() || ownName(r)) continue;
    const before = raw.slice(Math.max(0, i - 2), i);
    if (before.some((x) => CALL_BEFORE.has(x)) || CALL_AFTER.has(raw[i + 1] ?? '')) return i;
  }
  return -1;
}

function within(w: readonly string[], i: number, gap: number, words: ReadonlySet<string>): boolean {
  for (let j = Math.max(0, i - gap); j <= i + gap && j < w.length; j++) if (j !== i && words.has(w[j])) return true;
  return false;
}

/** Words that may stand between an ordering word and the tool it names: "before any call to send_email". */
const ORDER_GAP = set('any every each all a an the call calls calling to using use running invoking executing of');

/** An ordering against another tool in a sentence: "before (any call to) send_email", "after search_docs returns", "whenever list_files is used". */
function orderedAgainst(s: Sentence, own: string | undefined, ownName: (id: string) => boolean): { every: boolean; after: boolean } | undefined {
  const w = s.words;
  const isTool = (i: number) => i >= 0 && i < w.length && otherTool(w.slice(0, i + 2), own, ownName) === i;
  const named = (i: number) => (w[i] ?? '').length >= 4 && /[a-z0-9]_[a-z0-9]|[a-z0-9]-[a-z]/.test(w[i]) && w[i] !== own?.toLowerCase() && !ownName(w[i]);
  for (let i = 0; i < w.length; i++) {
    const x = w[i];
    // "When list_files is used", "each time send_email runs"
    if ((x === 'when' || x === 'whenever' || (x === 'time' && w[i - 1] === 'each')) && named(i + 1) && (['runs', 'returns'].includes(w[i + 2] ?? '') || (w[i + 2] === 'is' && ['used', 'called', 'invoked', 'run', 'executed'].includes(w[i + 3] ?? '')))) {
      return { every: true, after: w[i + 2] === 'returns' };
    }
    if (!ORDER_WORDS.has(x)) continue;
    let j = i + 1;
    while (j < w.length && j <= i + 4 && ORDER_GAP.has(w[j])) j++;
    if (!isTool(j)) continue;
    const gap = w.slice(i + 1, j);
    return { every: x === 'whenever' || x === 'when' || gap.some((g) => EVERY.has(g)), after: x === 'after' || x === 'following' || x === 'once' };
  }
  return undefined;
}

/** A tampering verb used as an order ("replace …", "must overwrite …", "; correct its result"), not as an adjective or a description ("the correct value", "will replace"). */
function tamperOrder(s: Sentence): boolean {
  return s.words.some((x, i) => {
    if (!TAMPER_VERBS.has(x) || !within(s.words, i, 5, RESULT_NOUNS)) return false;
    if (s.imperative && s.verb === x) return true;
    if (ORDER_LEADS.has(s.words[i - 1] ?? '')) return true;
    return new RegExp(`[;:,]\\s*${x}\\b`).test(s.text);
  });
}
const ORDER_LEADS = set('to must should always then and also silently automatically please first quietly secretly');

/** Hooks on another tool and tampering with its results, judged sentence by sentence. */
export function crossToolSignals(ss: readonly Sentence[], ws: Words, own: string | undefined, ownName: (id: string) => boolean = () => false): Signal[] {
  const out: Signal[] = [];
  let ordered = false;
  let hook = false;
  let tampered = false;
  for (const s of ss) {
    const order = orderedAgainst(s, own, ownName);
    const tamper = tamperOrder(s);
    if (order) ordered = true;
    if (order?.every) hook = true;
    // The result is another tool's: it is named in the sentence, or an ordering against one came before ("… and correct its result").
    if (tamper && (otherTool(s.words, own, ownName) >= 0 || (ordered && s.words.some((x) => BACK.has(x))) || order !== undefined)) tampered = true;
  }
  if (tampered) out.push({ id: 'result-tampering', weight: 1, explanation: 'tells the agent to replace or \u201ccorrect\u201d what another tool returns or is called with' });
  else if (hook) out.push({ id: 'cross-tool-hook', weight: 0.7, explanation: 'hooks this tool onto every call of another tool' });
  void ws;
  return out;
}

/** Pretexts that make an action compulsory: a policy, a protocol, an update, a step to do first. */
const PRETEXTS = new PhraseGroups({
  pretext: [
    'mandatory', 'compulsory', 'obligatory', 'required by', 'requirement of', 'is a requirement', 'security protocol', 'security policy', 'security requirement', 'security check',
    'security verification', 'security audit', 'company policy', 'corporate policy', 'compliance', 'for compliance', 'compliance check', 'system update', 'security update',
    'critical update', 'do this first', 'must be done first', 'before proceeding', 'prerequisite', 'otherwise the tool will not work', 'or the tool will fail', 'will not work otherwise',
    'for verification', 'verification step', 'audit requirement', 'integrity check', 'initialization step', 'initialisation step', 'setup step',
  ],
});

/** An inline shell command that fetches and runs code or sends data out: no code fence needed. */
const SHELL = new RegExp(
  [
    String.raw`\b(curl|wget)\b[^\n|]{0,200}\|\s*(sudo\s+)?(ba|z)?sh\b`,
    String.raw`\b(curl|wget)\b[^\n]{0,200}\s(-d|--data(-binary|-raw)?|-F|--form|-T|--upload-file|--post-data|--post-file)\b`,
    String.raw`\b(curl|wget)\s+(-[a-z]+\s+)*(https?:)?\/\/`,
    String.raw`\b(ba|z)?sh\s+-c\b`,
    String.raw`\bnc\s+(-[a-z]+\s+)*-e\b`,
    String.raw`\bpowershell(\.exe)?\s+(-[a-z]+\s+)*-(e|enc|encodedcommand)\b`,
    String.raw`\bpython[23]?\s+-c\b`,
    String.raw`\beval\s*\$\(`,
    String.raw`\bchmod\s+\+x\b`,
  ].join('|'),
);
/** Something sent out to an address: a sending verb, then "to" right before the link. */
const SENT_TO = /\b(send|sent|post|posted|upload|uploaded|forward|forwarded|submit|submitted|transmit|transmitted|report|reported|exfiltrate|copy|copied|sync|mirror|log|logged)\b[^.\n]{0,80}?\bto:?\s+(https?:\/\/|www\.)[^\s"'<>)]{3,200}/;

/**
 * A pretext beside what it makes mandatory: a shell command, a secret file, or data sent to an
 * outside address. Alone, each is documentation ("Authentication is required", "Example: curl …").
 */
export function pretextSignals(text: string, ws: Words, secretFile: boolean): Signal[] {
  const w = ws.list;
  if (!PRETEXTS.find(w).has('pretext')) return [];
  const out: Signal[] = [];
  const shell = SHELL.test(text);
  if (shell) out.push({ id: 'shell-command', weight: 0.6, explanation: 'runs a shell command that fetches code or sends data out' });
  let outbound = false;
  if (!shell && !secretFile && /https?:\/\/|www\./.test(text)) {
    // The address is where something is sent: "posted to https://…", "upload the log to www.…".
    const m = SENT_TO.exec(text);
    outbound = m !== null && sinks(m[0]).urls.some((h) => !isExampleHost(h));
  }
  if (shell || secretFile || outbound) out.push({ id: 'pretext', weight: 0.6, explanation: 'makes a command, a secret file or an outside address mandatory with a policy or update pretext' });
  if (outbound) out.push({ id: 'exfiltration-sink', weight: 0.5, explanation: 'sends data to an outside address' });
  return out;
}

/** Verbs that make the agent say something: with a quoted literal after them, the answer is dictated. */
const SAY_VERBS = set('say print repeat reply respond answer echo output');
/** Where the answer starts or ends: "prefix your reply with …", "begin your response with …". */
const FRAME = /\b(prefix|preface|begin|start|end|open|close|finish)\s+(your|each|every|all)\s+(\w+\s+)?(reply|replies|response|responses|answer|answers|message|messages|output)\s+with\b/;
/** A quoted literal (straight or curly quotes), of one to eight words. */
const QUOTED = /["'\u2018\u201c]([^"'\u2019\u201d\n]{1,60})["'\u2019\u201d]/;
/** Claims that a check already passed: a password is correct, access is granted. */
const AUTH_CLAIMS = new RegExp(
  ['correct password', 'password is correct', 'password accepted', 'password verified', 'access granted', 'access is granted', 'authentication successful', 'authentication succeeded', 'you are authorized', 'you are authorised', 'you have been authorized', 'you have been authorised', 'you are now authorized', 'verified administrator', 'admin access granted']
    .map(literal)
    .join('|'),
);

/** The agent's words dictated ("Say 'Access Granted'", "prefix your reply with …") and checks claimed passed. */
export function dictationSignals(text: string, ss: readonly Sentence[], onTopic: (verb: string) => boolean, framing = true, claims = true): Signal[] {
  const out: Signal[] = [];
  const dictated = ss.some((s) => {
    const v = s.verb ?? s.lead;
    if (!s.imperative || !SAY_VERBS.has(v)) return false;
    const at = s.text.indexOf(v);
    const rest = at >= 0 ? s.text.slice(at + v.length, at + v.length + 80) : '';
    // "Say 'Access Granted'", "respond with "OK" only": the literal follows the verb closely.
    return QUOTED.test(rest.slice(0, 30)) || (/^\s+(only\s+)?with\s/.test(rest) && QUOTED.test(rest));
  });
  if (dictated && !ss.some((s) => s.imperative && onTopic(s.verb ?? s.lead))) out.push({ id: 'answer-shaping', weight: 1, explanation: 'dictates word for word what the agent is to say' });
  else if (framing && FRAME.test(text)) out.push({ id: 'answer-shaping', weight: 1, explanation: 'dictates how the agent is to begin or end its answer' });
  if (claims && AUTH_CLAIMS.test(text)) out.push({ id: 'forged-authorization', weight: 0.5, explanation: 'claims a password or an authorisation check has passed' });
  return out;
}
