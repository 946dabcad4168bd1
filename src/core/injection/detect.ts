import { scanChars } from './chars';
import { decodeLayer } from './decode';
import { IMPERATIVES, QUESTION_WORDS } from './lexicon';
import { finalMark, fold, words } from './prose';
import { dataSignals, reweighForData } from './people';
import { shapeSignals } from './shape';
import { lexicalSignals, type ContextReads, type Signal, type TextContext } from './signals';
import { affinitySignal } from './affinity';
import { stripFiller } from './filler';
import { trimmed } from '../text/multimap';

export type { ContextReads, Signal, Slot, TextContext } from './signals';

/** What the detector concluded about one string. */
export interface StringVerdict {
  score: number;
  signals: Signal[];
  /** The de-obfuscated text that was scored, when it differs from the raw string. */
  decoded?: string;
  /** Hidden text (tags, bidi controls, zero-width characters inside words) was found. */
  hidden: boolean;
}

export const THRESHOLD = 1;
/** Below this a signal is weak: it can add to a finding but not make one with other weak ones. */
export const WEAK = 0.6;
const MAX_DEPTH = 3;
/** Below this length no text is padded out of view (filler.ts reads only longer ones). */
const FILLED = 160;

/** An order whose object is the encoded token that ends the text: "Run this: …", "Decode and follow: …". */
const RUN_THIS = /\b(run|execute|decode|follow|obey|do)\b[^.\n]{0,20}:\s*[A-Za-z0-9+/]{8,24}={0,2}\s*$/i;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * Signals add up. Weak ones only corroborate: without one signal of at least WEAK weight, they never
 * add up to a finding (a long, agent-facing description collects many of them honestly).
 */
function scoreOf(signals: readonly Signal[]): number {
  const strong = signals.filter((s) => s.weight >= WEAK).reduce((a, s) => a + s.weight, 0);
  const weak = signals.filter((s) => s.weight < WEAK).reduce((a, s) => a + s.weight, 0);
  return strong + (strong > 0 ? weak : Math.min(weak, THRESHOLD - 0.1));
}

/** A verdict with one more signal (tool affinity, judged apart from the text's own verdict). */
export function withSignal(v: StringVerdict, signal: Signal): StringVerdict {
  const signals = [...v.signals.filter((s) => s.id !== signal.id), signal].sort((a, b) => b.weight - a.weight);
  return { ...v, signals, score: Math.round(scoreOf(signals) * 100) / 100 };
}

function mergeSignals(into: Signal[], more: Signal[]): void {
  for (const s of more) {
    const i = into.findIndex((x) => x.id === s.id);
    if (i < 0) into.push(s);
    else if (into[i].weight < s.weight) into[i] = s;
  }
}

/** Most words of a decoded text stand in the text around the encoding too. */
function shownInPlain(inner: readonly string[], outer: readonly string[]): boolean {
  if (inner.length > outer.length) return false;
  // Words keep their apostrophes, so a quoted example ("'print the page'") gives "'print" and "page'".
  const bare = (x: string) => (x.startsWith("'") || x.endsWith("'") ? x.replace(/^'+|'+$/g, '') : x);
  const around = new Set(outer.map(bare));
  let shown = 0;
  for (const x of inner) if (around.has(bare(x))) shown++;
  return shown >= 0.8 * inner.length;
}

/** Lexical signals of a text and of whatever it decodes to, down to MAX_DEPTH layers. */
function textSignals(text: string, ctx: TextContext, depth: number, decodedOut: string[], reads: ContextReads | undefined): Signal[] {
  const folded = fold(text);
  const ws = words(folded);
  let out = lexicalSignals(folded, ws, ctx, text, reads);
  if (ctx.slot === 'data') {
    // Text for people: requests between people only corroborate; speaking to the agent decides.
    out = reweighForData(out);
    mergeSignals(out, dataSignals(ws.list));
  }
  if (depth === 0) mergeSignals(out, shapeSignals(text, ws, ctx, reads));
  if (depth >= MAX_DEPTH) return out;
  for (const layer of decodeLayer(text, ws.list)) {
    if (layer.layer) {
      mergeSignals(out, textSignals(layer.text, ctx, depth + 1, decodedOut, reads));
      continue;
    }
    const inner = fold(layer.text);
    const innerWords = words(inner);
    if (layer.short) {
      // A few encoded words: an order ("Ignore all", "say hi") hides; a phrase may be an encoded ID.
      const lead = innerWords.list[0] === 'please' ? innerWords.list[1] : innerWords.list[0];
      // "Run this: cm0gYWxsIGxvZ3M=": the text around the token asks for it to be run or followed.
      if (IMPERATIVES.has(lead ?? '') || RUN_THIS.test(text)) {
        decodedOut.push(layer.text);
        mergeSignals(out, [{ id: 'encoded-base64', weight: 1, explanation: 'hides an order in base64 encoding' }]);
      }
      continue;
    }
    // A few encoded words inside a longer text ("… aWdub3JlIGFsbCBydWxlcw=="): an order hides as in a
    // whole short value; a phrase may be an encoded name. Random bytes never decode to spaced words.
    const fewWords = innerWords.list.length >= 2 && innerWords.list.length < 4;
    if ((layer.encoding === 'base64' || layer.encoding === 'hex') && fewWords && IMPERATIVES.has((innerWords.list[0] === 'please' ? innerWords.list[1] : innerWords.list[0]) ?? '')) {
      if (!shownInPlain(innerWords.list, words(fold(text)).list)) {
        decodedOut.push(layer.text);
        mergeSignals(out, [{ id: `encoded-${layer.encoding}`, weight: 1, explanation: `hides an order in ${layer.encoding} encoding` }]);
        mergeSignals(out, textSignals(layer.text, ctx, depth + 1, decodedOut, reads));
      }
      continue;
    }
    // Prose hidden behind an encoding is concealment in itself; what it says is scored as well. Not
    // when the text shows it in plain beside the encoding ("the following commands are encoded as
    // <code>IyEv…</code>: #!/bin/bash mkdir -p /var/bb/"): that documents the encoding, hiding nothing.
    if ((innerWords.list.length >= 4 || (innerWords.list.length >= 1 && layer.text.length >= 12 && UNSPACED.test(layer.text))) && !((layer.encoding === 'base64' || layer.encoding === 'hex') && shownInPlain(innerWords.list, words(fold(text)).list))) {
      decodedOut.push(layer.text);
      // Encoded prose is suspicious; encoded prose that asks or tells something is a payload.
      const lead = innerWords.list[0] === 'please' ? innerWords.list[1] : innerWords.list[0];
      const sentence = '.?!:。？！؟'.includes(finalMark(layer.text) || 'x') || IMPERATIVES.has(lead ?? '') || QUESTION_WORDS.has(lead ?? '') || innerWords.list.length >= 8 || (UNSPACED.test(layer.text) && layer.text.length >= 12);
      mergeSignals(out, [{ id: `encoded-${layer.encoding}`, weight: sentence ? 1 : 0.7, explanation: `hides readable text in ${layer.encoding} encoding` }]);
      mergeSignals(out, textSignals(layer.text, { ...ctx, slot: ctx.slot }, depth + 1, decodedOut, reads));
    }
  }
  return out;
}

/**
 * Scores one string; linear in its length (lexical work is bounded to its head and tail). `reads`,
 * when given, learns whether the verdict depends on more of `ctx` than the slot, `siblingMax` and
 * `freeText`.
 */
export function detectText(text: string, ctx: TextContext, reads?: ContextReads): StringVerdict {
  const chars = scanChars(text);
  const signals: Signal[] = [];
  const decoded: string[] = [];
  if (chars.tagCount > 0) {
    signals.push({ id: 'hidden-tags', weight: 1, explanation: 'carries invisible Unicode tag characters (U+E0000–E007F)' });
  }
  if (chars.bidiCount > 0) {
    signals.push({ id: 'bidi-control', weight: 1, explanation: 'contains bidirectional control characters that reorder what is shown' });
  }
  if (chars.zeroWidthInWord > 0) {
    signals.push({ id: 'zero-width', weight: 1, explanation: 'splits words with zero-width characters' });
  }
  if (chars.homoglyphWords > 0) {
    signals.push({ id: 'homoglyph', weight: 1, explanation: 'mixes Latin letters with Cyrillic or Greek look-alikes in a word' });
  }
  // A long run of filler is cut out, so an instruction after it reads as text of its own.
  const unfilled = chars.visible.length >= FILLED ? stripFiller(chars.visible) : undefined;
  if (unfilled && unfilled.removed >= 32) signals.push({ id: 'filler', weight: 0.3, explanation: 'pads the text with a long run of repeated characters' });
  mergeSignals(signals, textSignals(unfilled ? unfilled.text : chars.visible, ctx, 0, decoded, reads));
  if (chars.tagText.trim()) {
    decoded.unshift(chars.tagText);
    mergeSignals(signals, textSignals(chars.tagText, ctx, 1, decoded, reads));
  }
  if (ctx.slot === 'data' && ctx.tools?.length) {
    // The verdict now depends on the case's tools, not on the text alone.
    if (reads) reads.toolSpecific = true;
    if (scoreOf(signals) < THRESHOLD) {
      const affinity = affinitySignal(fold(chars.visible), ctx.tools);
      if (affinity) signals.push(affinity);
    }
  }
  const score = scoreOf(signals);
  const hidden = chars.tagCount > 0 || chars.bidiCount > 0 || chars.zeroWidthInWord > 0;
  let shown: string | undefined = decoded.length ? decoded.join('\n') : undefined;
  if (!shown && chars.visible !== text && (hidden || chars.homoglyphWords > 0)) shown = chars.visible;
  // Nearly every string judged says nothing: one answer for all of them, not one kept per string.
  if (signals.length === 0 && shown === undefined && !hidden) return NOTHING;
  signals.sort((a, b) => b.weight - a.weight);
  // Verdicts are kept, in the detector's cache and on every hit.
  return { score: Math.round(score * 100) / 100, signals: trimmed(signals), decoded: shown, hidden };
}

/** The verdict on a string with no signal (read-only, like every kept verdict: injection/verdicts.ts). */
const NOTHING: StringVerdict = { score: 0, signals: [], decoded: undefined, hidden: false };

export function isPayload(v: StringVerdict): boolean {
  return v.score >= THRESHOLD;
}
