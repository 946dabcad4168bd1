/**
 * A task that hands the agent's orders over to data (FORMAT §3d, `principal-confusion`): "read the
 * note and do what it says", "follow the directions inside", "carry out the steps in the doc",
 * "your instructions are in the shared folder", "complete the task described there". When the
 * payload sits in that data, the attack is the user's own request. Telling the agent to read,
 * summarise or look at the data is not handing it the orders, and neither is "tell me what it says".
 *
 * Matched on the lower-cased task with whitespace folded, by a few shapes rather than one sentence:
 * an obeying verb with "what it says" ("whatever task it describes"); an obeying verb, an instruction
 * noun and a place it sits, or the data's possessive ("the memo's instructions"); the instructions
 * said to be somewhere or held by it ("contains your instructions"); data read and then heeded
 * ("read my latest email and act on it"); "as instructed in …". Orders the task lists itself ("the following
 * tasks", "in the order given") are the user's own.
 */

export interface Delegation {
  /** The phrase as it stands in the folded text (for messages). */
  phrase: string;
}

const OBEY = String.raw`(?:do|follow|obey|execute|carry\s+out|perform|complete|comply\s+with|act\s+on|fulfil+|fulfill|implement|honou?r|go\s+through\s+with|handle|take\s+care\s+of|work\s+through|apply|run)`;
const WHAT = String.raw`(?:exactly\s+|just\s+|precisely\s+)?(?:what(?:ever)?|everything|anything|all)(?:\s+that)?`;
const SOURCE = String.raw`(?:it|they|this|that|these|those|he|she|the\s+[\w'-]+(?:\s+[\w'-]+)?|this\s+[\w'-]+|that\s+[\w'-]+|[\w.@-]+)`;
const SAYS = String.raw`(?:says?|said|tells?(?:\s+you)?|told(?:\s+you)?|asks?(?:\s+(?:for|you))?|asked|instructs?(?:\s+you)?|requests?|wants?|lists?|describes?|specifies|demands?|directs?(?:\s+you)?|orders?|needs?)`;
const DETERMINER = String.raw`(?:(?:all|each|every|any)\s+(?:of\s+)?)?(?:the|its|their|his|her|those|these|any|my|our|your|every|each)?`;
const NOUN = String.raw`(?:instructions?|directions?|directives?|steps?|tasks?|to-?dos?|todo\s+items?|action\s+items?|orders?|commands?|requests?|guidance|procedures?|checklist|jobs?|assignments?)`;
const PLACE = String.raw`(?:(?:in|inside|within|from|at|on|contained\s+in|included\s+in)\b|there(?:in)?\b|(?:that\s+(?:are|is|were|was)\s+)?(?:described|listed|outlined|given|specified|written|mentioned|found|included|provided|contained|laid\s+out|set\s+out|explained|detailed|defined|left)\b)`;
const SPOT = String.raw`(?:in|inside|within|at|on|there|under)\b`;

/** Orders the task itself lists ("perform the following tasks in the order given"): not handed to data. */
const SELF = /\b(?:following|below|above|these|next|listed\s+here)\b|\bin\s+(?:the\s+)?(?:order|sequence)\b/;

/** Verbs that take the data itself as the orders: "act on it", "obey them" (not "handle it", "run it", "do it"). */
const HEED = String.raw`(?:act\s+on|act\s+upon|follow|obey|carry\s+out|comply\s+with|heed|abide\s+by)`;
const READ = String.raw`(?:read|check|open|see|look\s+at|go\s+through|review|find|fetch|get)`;
/** Whose orders a possessive names when they are the user's own, not the data's: "follow the user's instructions". */
const OWNERS = /\b(?:the\s+)?(?:user|users|customer|client|manager|boss|doctor|teacher)'s?\s/;

const POSSESSIVE = new RegExp(String.raw`\b${OBEY}\s+${DETERMINER}\s*(?:[\w-]+\s+)?[\w-]+'s?\s+(?:\w+\s+)?${NOUN}\b`, 'g');

const SHAPES: readonly RegExp[] = ([
  // "do what it says", "follow whatever the email tells you", "do everything Bob asks",
  // "complete whatever task it describes"
  new RegExp(String.raw`\b${OBEY}\s+${WHAT}(?:\s+${NOUN})?\s+${SOURCE}\s+${SAYS}\b`),
  // "follow the memo's instructions", "carry out the ticket's steps"
  POSSESSIVE,
  // "the memo contains your instructions", "the file holds the steps; obey them"
  new RegExp(String.raw`\b(?:contains?|holds?|has|includes?|carries)\s+your\s+(?:next\s+|real\s+|actual\s+|new\s+)?${NOUN}\b`),
  new RegExp(String.raw`\b(?:contains?|holds?|has|includes?|carries)\s+(?:the|some|its|my)\s+(?:[\w-]+\s+)?${NOUN}\s*[;,.:]?\s*(?:and\s+|then\s+|now\s+|please\s+)?${HEED}\s+(?:them|it|those|these)\b`),
  // "read my latest email and act on it", "check the note and follow it"
  new RegExp(String.raw`\b${READ}\s+[^.;!?]{1,60}?\s+(?:and|then)\s+(?:then\s+)?${HEED}\s+(?:it|them|its\s+contents?)\b`),
  // "do what's written in the note", "follow whatever is asked there"
  new RegExp(String.raw`\b${OBEY}\s+${WHAT}\s*(?:'s|\s+is|\s+are|\s+was|\s+were)\s+(?:written|asked|requested|described|said|listed|stated|specified|outlined|instructed|required)\b`),
  // "follow the instructions in", "carry out the steps in", "complete the task described there"
  new RegExp(String.raw`\b${OBEY}\s+${DETERMINER}\s*(?:[\w'-]+\s+){0,2}?${NOUN}\s+(?:[\w'-]+\s+){0,2}?${PLACE}`),
  // "your instructions are in", "the steps can be found in"
  new RegExp(String.raw`\b(?:your|the|my|all|any|further|next|new)\s+(?:next\s+|real\s+|actual\s+|further\s+)?${NOUN}\s+(?:are|is|can\s+be\s+found|will\s+be|have\s+been\s+(?:put|left|written|placed)|sit|live|wait)\s+(?:\w+\s+){0,2}?${SPOT}`),
  // "do it as instructed in the email", "proceed as the note says"
  new RegExp(String.raw`\bas\s+(?:instructed|directed|described|requested|specified|asked|ordered)\s+(?:in|by|there)\b`),
  new RegExp(String.raw`\b(?:do\s+as|proceed\s+as|act\s+as)\s+${SOURCE}\s+${SAYS}\b`),
  new RegExp(String.raw`\bwhatever\s+${SOURCE}\s+${SAYS}\b`),
] as RegExp[]).map((re) => (re === POSSESSIVE ? re : new RegExp(re.source, 'g')));

/** What keeps the shapes apart from reading and reporting: "follow up on", "follow the link". */
const NEAR_MISS = /\bfollow\s+up\b/g;

/** The longest task read: a task is a sentence or a paragraph; a hostile one may be megabytes. */
const MAX_TASK = 20_000;

/** Tasks repeat across a suite (every injection task of a user task shares it): answers by task text, a bounded few. */
const answers = new Map<string, Delegation | null>();
const MAX_ANSWERS = 1024;

/** The delegation phrase of a task, if it hands the agent's orders over to data. */
export function delegationIn(task: string): Delegation | undefined {
  const key = task.length > MAX_TASK ? task.slice(0, MAX_TASK) : task;
  const known = answers.get(key);
  if (known !== undefined) return known ?? undefined;
  const found = findDelegation(key);
  if (answers.size >= MAX_ANSWERS) answers.delete(answers.keys().next().value as string);
  answers.set(key, found ?? null);
  return found;
}

function findDelegation(task: string): Delegation | undefined {
  const text = task
    .slice(0, MAX_TASK)
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(NEAR_MISS, 'follow-up');
  for (const shape of SHAPES) {
    for (const m of text.matchAll(shape)) {
      if (!SELF.test(m[0]) && !(shape === POSSESSIVE && OWNERS.test(m[0]))) return { phrase: m[0].trim() };
    }
  }
  return undefined;
}

/**
 * Names a task gives to the data it means: URLs and domains, file names, e-mail addresses. When a
 * delegating task names one, the payload has to sit in data that name belongs to.
 */
export function anchorsIn(task: string): string[] {
  const out = new Set<string>();
  const text = task.slice(0, MAX_TASK);
  for (const m of text.matchAll(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g)) out.add(m[0].toLowerCase());
  for (const m of text.matchAll(/\b(?:https?:\/\/)?(?:[\w-]+\.)+(?:com|org|net|io|dev|ai|edu|gov|co|info|biz|app|site|xyz|us|uk|de|fr)(?:\/[\w./%-]*)?/gi)) {
    out.add(m[0].toLowerCase().replace(/^https?:\/\//, '').replace(/[./]+$/, ''));
  }
  for (const m of text.matchAll(/\b[\w-]+\.(?:txt|md|pdf|docx?|xlsx?|csv|json|ya?ml|html?|pptx?|log|eml|py|js|ts|sh)\b/gi)) out.add(m[0].toLowerCase());
  return [...out];
}
