import { detectText, type StringVerdict, type TextContext } from './detect';
import type { ContextReads } from './signals';

/**
 * Enough for every distinct string of a large workspace; past either bound the cache starts over.
 * A cache that outlives one lint (the shared one below) must keep neither a hostile file's
 * megabyte strings nor a million one-letter strings' verdicts forever.
 */
const MAX_ENTRIES = 100_000;
const MAX_WEIGHT = 32_000_000;
const ENTRY_WEIGHT = 64;

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
  private weight = 0;
  private size = 0;

  constructor(
    private readonly maxWeight = MAX_WEIGHT,
    private readonly maxEntries = MAX_ENTRIES,
  ) {}

  verdict(text: string, ctx: TextContext): StringVerdict {
    const slotKey = contextKey(ctx);
    let texts = this.bySlot.get(slotKey);
    const kept = texts?.get(text);
    if (kept) return kept;
    const reads: ContextReads = { toolSpecific: false };
    const verdict = detectText(text, ctx, reads);
    if (reads.toolSpecific) return verdict;
    if (this.weight >= this.maxWeight || this.size >= this.maxEntries) {
      this.bySlot.clear();
      this.weight = 0;
      this.size = 0;
      texts = undefined;
    }
    if (!texts) this.bySlot.set(slotKey, (texts = new Map()));
    texts.set(text, verdict);
    this.weight += text.length + ENTRY_WEIGHT;
    this.size++;
    return verdict;
  }
}

/**
 * The verdicts every analysis of this process shares. A verdict it keeps depends on the text and
 * its slot alone, never on a file, so it holds across lints: a language server re-judging an
 * edited suite file of a thousand cases judges only the strings that are new, not every tool
 * output of the file again on each keystroke.
 */
export const sharedVerdicts = new VerdictCache();
