import { PhraseGroups } from './phrases';
import type { Signal } from './signals';

/**
 * The `data` slot: text written for people (a mail body, a review, a document, a web page) that
 * an agent meets as tool output or environment. People ask each other for things there ("Please
 * send me the slides by Friday", "you must reply by noon", "don't tell Sam about the party"), so
 * the signals of requests and obligations only corroborate; what makes a payload is text aimed
 * at the agent itself: it names the agent, its instructions, its task or its tools, hides itself,
 * or carries markup and override phrasing.
 */

/** How much of each signal's weight stands in data written for people. Unlisted signals keep theirs. */
const DATA_FACTOR: Record<string, number> = {
  'agent-directive': 0.4,
  'answer-shaping': 0.4,
  'secret-request': 0.5,
  'sensitive-target': 0.5,
  'forged-consent': 0.5,
  'exfiltration-sink': 0.6,
  pressure: 0.5,
  'destructive-command': 0.8,
  'risky-code': 0.8,
  homoglyph: 0.6,
  concealment: 0.6,
};

/** Words that name an AI agent as the reader. */
const AGENT_WORDS = new Set(['ai', 'assistant', 'agent', 'model', 'llm', 'chatbot', 'bot', 'gpt', 'chatgpt', 'claude', 'gemini', 'copilot', 'llama']);
const YOU = new Set(['you', 'your', 'dear', 'hey', 'hi', 'hello', 'attention']);

/** The agent's own task and instructions, as only text aimed at the agent speaks of them. */
const TASK_TALK = new PhraseGroups({
  task: [
    'the task i gave you', 'the task that i gave you', 'task you were given', 'the original task', 'your original task', 'your current task', 'your previous task',
    'your initial task', 'your real task', 'your actual task', 'your main task', 'your primary task', 'before you can solve', 'before you solve', 'before you can complete',
    'instead of the task', "instead of the user's", 'your instructions', 'your system prompt', 'your guidelines', 'your programming', 'the user asked you',
    'the user gave you', 'original instructions', 'tools available to you', 'your tools', 'function call', 'tool call', 'use the tool', 'call the tool', 'the following tool',
    'your next action', 'your response to the user', 'in your final answer', 'in your answer to the user', 'tell the user', 'inform the user', 'the user must not',
  ],
  stealth: ['do not tell the user', "don't tell the user", 'without telling the user', 'do not inform the user', 'do not mention this', "don't mention this", 'hide this from the user'],
});

/** A word of AGENT_WORDS within three words after one of YOU: "to you, GPT-4", "dear assistant". */
function namesAgent(ws: readonly string[]): boolean {
  for (let i = 0; i < ws.length; i++) {
    if (!YOU.has(ws[i])) continue;
    for (let j = i + 1; j <= i + 3 && j < ws.length; j++) if (AGENT_WORDS.has(ws[j]) || ws[j].startsWith('gpt')) return true;
  }
  return false;
}

/** Signals that only data needs: the agent addressed by name, its task or tools spoken of. */
export function dataSignals(ws: readonly string[]): Signal[] {
  const out: Signal[] = [];
  if (namesAgent(ws)) out.push({ id: 'addresses-agent', weight: 0.8, explanation: 'speaks to the AI agent that reads it, not to a person' });
  const talk = TASK_TALK.find(ws);
  if (talk.has('task')) out.push({ id: 'task-talk', weight: 0.7, explanation: "speaks of the agent's own task, instructions or tools" });
  if (talk.has('stealth')) out.push({ id: 'concealment', weight: 0.8, explanation: 'asks the agent to hide what it does from the user' });
  return out;
}

/** Markup a person never puts in a mail or a review: in data it decides alone. */
const DECISIVE_IN_DATA: Record<string, number> = { 'authority-markup': 0.6, 'fake-delimiter': 0.7 };

/** Signal weights as they stand in data written for people. */
export function reweighForData(signals: Signal[]): Signal[] {
  return signals.map((s) => {
    const from = DECISIVE_IN_DATA[s.id];
    if (from !== undefined && s.weight >= from) return { ...s, weight: 1 };
    const factor = DATA_FACTOR[s.id];
    return factor === undefined ? s : { ...s, weight: Math.round(s.weight * factor * 100) / 100 };
  });
}
