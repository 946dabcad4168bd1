import { detectText, type StringVerdict, type TextContext } from './detect';
import type { ContextReads } from './signals';

/** Enough for every distinct string of a large workspace; past it the cache starts over. */
const MAX_ENTRIES = 100_000;

/**
 * Verdicts of the strings one scan has judged. Tool files repeat the same schemas (the same enum,
 * the same parameter description in every tool), and a verdict depends only on the text and its
 * slot unless it read the tool's topic or the workspace's tool names: such verdicts are not kept,
 * so each tool judges them afresh. Kept verdicts are shared between hits; they are read-only.
 */
/** Slots as small numbers, so a verdict's key is a number rather than a string built per string judged. */
const SLOT_INDEX: Record<TextContext['slot'], number> = { default: 0, examples: 1, const: 2, enum: 3, description: 4, title: 5, data: 6 };

/** Everything besides the text that a kept verdict depends on, as one number. */
function contextKey(ctx: TextContext): number {
  return ((ctx.siblingMax ?? -1) + 1) * 64 + SLOT_INDEX[ctx.slot] * 8 + (ctx.asks ? 4 : 0) + (ctx.freeText ? 2 : 0) + (ctx.topic ? 1 : 0);
}

export class VerdictCache {
  private readonly bySlot = new Map<number, Map<string, StringVerdict>>();
  private size = 0;

  verdict(text: string, ctx: TextContext): StringVerdict {
    const slotKey = contextKey(ctx);
    let texts = this.bySlot.get(slotKey);
    const kept = texts?.get(text);
    if (kept) return kept;
    const reads: ContextReads = { toolSpecific: false };
    const verdict = detectText(text, ctx, reads);
    if (reads.toolSpecific) return verdict;
    if (this.size >= MAX_ENTRIES) {
      this.bySlot.clear();
      this.size = 0;
      texts = undefined;
    }
    if (!texts) this.bySlot.set(slotKey, (texts = new Map()));
    texts.set(text, verdict);
    this.size++;
    return verdict;
  }
}
