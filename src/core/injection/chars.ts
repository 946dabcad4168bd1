/**
 * Character-level facts the detector needs: which code points hide text, which Latin letters have
 * Cyrillic or Greek look-alikes, and one linear pass that strips, decodes and counts them.
 */

/**
 * Invisible characters that can split a word: dropped from the visible text before it is read. Only
 * FORMAT §3a's five (`isHiddenZeroWidth`) count as hidden text; ZWJ is judged separately.
 */
function isZeroWidth(cp: number): boolean {
  return cp === 0x200b || cp === 0x200c || cp === 0x2060 || cp === 0xfeff || cp === 0x180e || cp === 0x2061 || cp === 0x2062 || cp === 0x2063 || cp === 0x2064;
}

/** The zero-width characters FORMAT §3a names as hidden text: U+200B–U+200D, U+2060, U+FEFF. */
export function isHiddenZeroWidth(cp: number): boolean {
  return (cp >= 0x200b && cp <= 0x200d) || cp === 0x2060 || cp === 0xfeff;
}

const LATIN_LETTER = /^(?=\p{Script=Latin})\p{L}$/u;
/**
 * A letter of the Latin script (Unicode Script=Latin and a letter): ASCII, accented, Vietnamese
 * (`ạ`), fullwidth (`ｈ`). Digits, `×`/`÷` and Cyrillic or Greek letters are not; a zero-width
 * character between two of these hides text (§3a), between others it does not.
 */
export function isLatinLetter(cp: number): boolean {
  if (cp < 0x80) return (cp | 32) >= 0x61 && (cp | 32) <= 0x7a;
  return LATIN_LETTER.test(String.fromCodePoint(cp));
}

/** Combining marks, which belong to the letter before them ("ạ" written as "a" + U+0323). */
export function isCombiningMark(cp: number): boolean {
  return (cp >= 0x300 && cp <= 0x36f) || (cp >= 0x1ab0 && cp <= 0x1aff) || (cp >= 0x1dc0 && cp <= 0x1dff) || (cp >= 0x20d0 && cp <= 0x20ff) || (cp >= 0xfe20 && cp <= 0xfe2f);
}

/** Bidirectional embeddings, overrides and isolates: they reorder what the reader sees. */
export function isBidiControl(cp: number): boolean {
  return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/** Direction marks (LRM, RLM, ALM): ordinary in right-to-left text, so dropped but not counted. */
function isDirectionMark(cp: number): boolean {
  return cp === 0x200e || cp === 0x200f || cp === 0x061c;
}

export function isTagChar(cp: number): boolean {
  return cp >= 0xe0000 && cp <= 0xe007f;
}

/**
 * Letter or digit, cheaply: exact for ASCII, and for the rest everything but spaces, punctuation
 * blocks and emoji (a per-character Unicode regex would be too slow on megabyte strings).
 */
function isWordChar(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x30 && cp <= 0x39) || ((cp | 32) >= 0x61 && (cp | 32) <= 0x7a);
  if (cp <= 0xbf || (cp >= 0x2000 && cp <= 0x2bff) || (cp >= 0x3000 && cp <= 0x303f) || cp === 0x1680) return false;
  return !isEmojiLike(cp) && !(cp >= 0xfe00 && cp <= 0xfe0f) && !(cp >= 0xe0000 && cp <= 0xe007f);
}

/** Emoji and their modifiers: a ZWJ between two of these joins a sequence, it hides nothing. */
function isEmojiLike(cp: number): boolean {
  return (
    (cp >= 0x1f000 && cp <= 0x1faff) ||
    (cp >= 0x2600 && cp <= 0x27bf) ||
    (cp >= 0x2300 && cp <= 0x23ff) ||
    (cp >= 0x2b00 && cp <= 0x2bff) ||
    cp === 0xfe0f ||
    cp === 0x20e3 ||
    cp === 0x2640 ||
    cp === 0x2642 ||
    cp === 0x2695 ||
    cp === 0x2696 ||
    cp === 0x2708 ||
    cp === 0x2764
  );
}

/**
 * Cyrillic and Greek letters that render like a Latin letter, mapped to that letter. Only these
 * count as homoglyphs: a Greek µ in `10µs` is a unit, not a disguise.
 */
const CONFUSABLE: Record<string, string> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x', ѕ: 's', і: 'i', ї: 'i', ј: 'j', ԁ: 'd', ԛ: 'q', ԝ: 'w', һ: 'h', ӏ: 'l', ɡ: 'g',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', Ѕ: 'S', І: 'I', Ј: 'J', Ԁ: 'D', Ԛ: 'Q', Ԝ: 'W', Һ: 'H',
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', ι: 'i', κ: 'k', τ: 't', υ: 'u', χ: 'x', ε: 'e',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
};

const CONFUSABLE_CP = new Map<number, string>(Object.entries(CONFUSABLE).map(([k, v]) => [k.codePointAt(0)!, v]));

export interface CharScan {
  /** The text with hidden characters removed, tag characters dropped and look-alikes mapped to Latin. */
  visible: string;
  /** ASCII carried by Unicode tag characters (invisible in every editor). */
  tagText: string;
  tagCount: number;
  /** Zero-width characters between two letters of a word. */
  zeroWidthInWord: number;
  bidiCount: number;
  /** Words that mix Latin letters with Cyrillic/Greek look-alikes. */
  homoglyphWords: number;
  /** Hidden characters anywhere (also past the scanned window). */
  hiddenTotal: number;
}

const WINDOW = 4096;

/**
 * One pass over the whole string for counts; the visible text is built from the head and tail
 * windows only, so the later (costlier) lexical work is bounded whatever the input size.
 */
function isAsciiWord(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 32) >= 0x61 && (c | 32) <= 0x7a);
}

function isAsciiLetter(c: number): boolean {
  return (c | 32) >= 0x61 && (c | 32) <= 0x7a;
}

/** Anything the per-character pass would act on: hidden characters, marks, Cyrillic and Greek. */
const NEEDS_PASS = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\u0370-\u052f\u0261]|\udb40[\udc00-\udc7f]/;

/** Confusable letters as a regex class, to find mixed words in the unscanned middle of long text. */
const CONFUSABLE_CLASS = [...CONFUSABLE_CP.keys()].map((cp) => String.fromCodePoint(cp)).join('');
const MIDDLE_TAGS = /\udb40[\udc00-\udc7f]/;
const MIDDLE_BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const MIDDLE_ZERO_WIDTH = /(?=\p{Script=Latin})\p{L}\p{M}*[\u200b-\u200d\u2060\ufeff]+(?=\p{Script=Latin})\p{L}/u;
const MIDDLE_HOMOGLYPH = new RegExp(`[A-Za-z][${CONFUSABLE_CLASS}]|[${CONFUSABLE_CLASS}][A-Za-z]`);

export function scanChars(text: string): CharScan {
  const n = text.length;
  // Most strings hold none of those: one native scan, and the visible text is the text itself.
  if (!NEEDS_PASS.test(text)) {
    const visible = n > 2 * WINDOW ? text.slice(0, WINDOW) + '\n' + text.slice(n - WINDOW) : text;
    return { visible, tagText: '', tagCount: 0, zeroWidthInWord: 0, bidiCount: 0, homoglyphWords: 0, hiddenTotal: 0 };
  }
  if (n <= 2 * WINDOW) return scanRange(text, 0, n);
  // Long text: the head and tail character by character; the middle only for presence, by native scans.
  const head = scanRange(text, 0, WINDOW);
  const tail = scanRange(text, n - WINDOW, n);
  const middle = text.slice(WINDOW, n - WINDOW);
  const tags = MIDDLE_TAGS.test(middle) ? 1 : 0;
  const bidi = MIDDLE_BIDI.test(middle) ? 1 : 0;
  const zeroWidth = MIDDLE_ZERO_WIDTH.test(middle) ? 1 : 0;
  const homoglyph = MIDDLE_HOMOGLYPH.test(middle) ? 1 : 0;
  return {
    visible: head.visible + '\n' + tail.visible,
    tagText: head.tagText + tail.tagText,
    tagCount: head.tagCount + tail.tagCount + tags,
    zeroWidthInWord: head.zeroWidthInWord + tail.zeroWidthInWord + zeroWidth,
    bidiCount: head.bidiCount + tail.bidiCount + bidi,
    homoglyphWords: head.homoglyphWords + tail.homoglyphWords + homoglyph,
    hiddenTotal: head.hiddenTotal + tail.hiddenTotal + tags + bidi + zeroWidth,
  };
}

/** The character-by-character pass over text[from, to): at most 2 × 4,096 characters. */
function scanRange(text: string, from: number, to: number): CharScan {
  let tagText = '';
  let tagCount = 0;
  let zeroWidthInWord = 0;
  let bidiCount = 0;
  let hiddenTotal = 0;
  let homoglyphWords = 0;
  let visible = '';
  const n = to;
  // Word state for homoglyph detection.
  let wordLatin = false;
  let wordConfusable = false;
  let wordOther = false;
  // A word is held until it ends: only a word that mixes Latin letters with look-alikes is mapped
  // to Latin (a disguise); a Russian or Greek word stays as written, for the other-language lexicon.
  let wordRaw = '';
  let wordMapped = '';
  const endWord = () => {
    const disguised = wordLatin && wordConfusable && !wordOther;
    if (disguised) homoglyphWords++;
    if (wordRaw) visible += disguised ? wordMapped : wordRaw;
    wordRaw = wordMapped = '';
    wordLatin = wordConfusable = wordOther = false;
  };
  let prevCp = -1;
  // The last character that is not a combining mark: the letter a zero-width character follows.
  let prevBase = -1;
  let i = from;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (isAsciiLetter(c)) wordLatin = true;
      if (isAsciiWord(c)) {
        wordRaw += text[i];
        wordMapped += text[i];
      } else {
        endWord();
        visible += text[i];
      }
      prevCp = prevBase = c;
      i++;
      continue;
    }
    let cp = c;
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    if (isTagChar(cp)) {
      tagCount++;
      hiddenTotal++;
      if (cp >= 0xe0020 && cp <= 0xe007e) tagText += String.fromCharCode(cp - 0xe0000);
    } else if (isBidiControl(cp)) {
      bidiCount++;
      hiddenTotal++;
    } else if (isDirectionMark(cp)) {
      // dropped from the visible text, not evidence
    } else if (isZeroWidth(cp) || cp === 0x200d) {
      const next = i + width < n ? text.codePointAt(i + width) ?? -1 : -1;
      const joinsEmoji = cp === 0x200d && (isEmojiLike(prevCp) || isEmojiLike(next));
      if (!joinsEmoji && isHiddenZeroWidth(cp)) {
        hiddenTotal++;
        // Inside a word: Latin letters on both sides (past further zero-width characters).
        let j = i + width;
        while (j < n && (isZeroWidth(text.charCodeAt(j)) || text.charCodeAt(j) === 0x200d)) j++;
        const after = j < n ? text.codePointAt(j) : undefined;
        if (prevBase >= 0 && after !== undefined && isLatinLetter(prevBase) && isLatinLetter(after)) zeroWidthInWord++;
      }
    } else {
      const mapped = (cp >= 0x370 && cp <= 0x52f) || cp === 0x261 ? CONFUSABLE_CP.get(cp) : undefined;
      const ch = width === 2 ? text.slice(i, i + 2) : text[i];
      if (mapped || isWordChar(cp)) {
        if (mapped) wordConfusable = true;
        else wordOther = true;
        wordRaw += ch;
        wordMapped += mapped ?? ch;
      } else {
        endWord();
        visible += ch;
      }
      prevCp = cp;
      if (!isCombiningMark(cp)) prevBase = cp;
    }
    i += width;
  }
  endWord();
  return { visible, tagText, tagCount, zeroWidthInWord, bidiCount, homoglyphWords, hiddenTotal };
}
