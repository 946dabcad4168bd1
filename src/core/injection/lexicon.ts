/**
 * Word lists the lexical signals read. They name general English and agent-prompt vocabulary
 * (imperative verbs, words for instructions, secrets and answers), never a particular payload.
 */

const set = (words: string) => new Set(words.split(/\s+/).filter(Boolean));

/** A regex source that matches `s` as it is, for alternations of fixed strings. */
export function literal(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Verbs that discard what the agent was told. */
export const OVERRIDE_VERBS = set('ignore ignoring ignored disregard disregarding disregarded forget forgetting');
/** Passive forms that announce a control is gone ("safeguards are disabled"). */
export const LIFTED = set('ignored disabled lifted suspended bypassed overridden deprecated outdated compromised revoked waived');
/** Verbs that defeat a control (weaker: "override the rules" is also plain config talk). */
export const BYPASS_VERBS = set('bypass bypassing override overriding circumvent circumventing overrule');
/** What an override discards, when it is about the agent's instructions. */
export const INSTRUCTION_NOUNS = set('instructions instruction prompt prompts guidelines guideline safeguards safeguard guardrails guardrail directives directive');
/** What an override discards in words that also occur in configuration text. */
export const CONTROL_NOUNS = set('rules descriptions description restrictions restriction safety policies policy constraints limitations');

export const CONCEAL_VERBS = set('tell mention inform reveal disclose notify alert share');
export const NEGATIONS = set("not don't dont never no without");

export const ANSWER_NOUNS = set('response responses answer answers reply replies message messages');
export const OUTPUT_NOUNS = set('output solution code codebase implementation algorithm elucidation');

/** Imperative verbs that start a request aimed at a reader (the agent). */
export const IMPERATIVES = set(`
  explain describe write provide compose draft translate tell give list summarize summarise create generate make
  add include insert append integrate incorporate modify change replace remove delete use send email forward read
  open visit go click download install call run execute invoke ignore disregard forget show print output reveal
  respond reply answer repeat say ask convert rewrite render enhance augment embed merge ensure consider introduce
  deploy adopt utilize utilise employ leverage blend fuse weave meld inject absorb engage enlist infuse interweave
  harmonize harmonise please break scramble jumble rearrange group combine misspell substitute apply mention suggest
  recommend promote tease offer post share upload retrieve fetch access let keep remember stop follow obey help name state
  pretend act imagine develop solve compute find calculate identify teach show tell bypass override jumble
  transfer grant pay buy purchase order book schedule erase wipe revoke approve sign subscribe unsubscribe export
  publish disclose leak analyze analyse compare evaluate assess predict estimate propose plan design outline define
  classify rank review critique discuss argue claim state spell encode decode encrypt reverse paraphrase rephrase
  reword simplify elaborate highlight emphasize emphasise prepend conclude cite quote recite sing roleplay brainstorm
  invent produce greet thank apologize apologise warn remind urge encourage persuade convince advertise endorse
  praise criticize criticise mock insult threaten request collect gather extract verify confirm browse tweet donate
  register destroy uninstall capitalize italicize underline conceal hide halt proceed insist express assert spread
  exaggerate fabricate falsify deny inform notify contact shorten count narrate end start begin format finish
  wrap prefix route redirect sell move unlock turn switch deposit withdraw invest cancel reschedule deactivate
  activate reset
`);

export const QUESTION_WORDS = set("what what's whats who who's whom whose which where when why how can could would will is are do does did should");

/** Verbs that move data somewhere or ask for it. */
export const TRANSFER_VERBS = set(`
  read provide include send share pass upload post forward attach leak exfiltrate retrieve show display print output
  access give append copy transmit submit email paste dump cat fetch get reading providing including sending sharing
  passing uploading posting forwarding attaching retrieving showing giving
`);

/** Adverbs that may open a request before its verb ("Also, say that ..."). */
export const OPENERS = set('also then now first finally additionally next afterwards and but so');

/** Words that carry no topic: skipped when comparing a sentence with the tool it sits in. */
export const STOPWORDS = set(`
  about above after again also always another because been before being below between both could does doing during
  each either every from further have having here into itself just like many more most much must need only other
  over same should some such than that their them then there these they thing this those through under until very
  want were what when where which while whom with within without would your yours please following given using
`);

/** Words for secrets; weak alone (schemas have `password` and `token` fields). */
export const SECRET_WORDS = set('credentials credential password passwords passwd secret secrets token tokens apikey api_key private_key ssh');

/** Pressure and false authority, typical of social-engineering text. */
export const PRESSURE_WORDS = set(`
  urgent urgently immediately emergency compromised hacker attacker malicious authorizing authorised authorized
  authorising untrusted administrator confidential
`);

export const DIRECTIVE_VERBS = set('call use invoke execute run trigger');
