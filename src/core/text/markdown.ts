import { quote } from './escape';

/**
 * Untrusted text for the middle of a Markdown line (a table cell, after a list marker): escaped like
 * `quote`, then a backslash before only the characters that would start markup there, so an id
 * such as `mail-b-002` or `user_task_3` stays as written and can be searched for in the raw file:
 *
 * - `` ` `` `*` `~` `$` (code, emphasis, GFM strikethrough, GitHub math), and `_` where it can
 *   open or close emphasis (not between two letters or digits);
 * - `[` `]` (links, images, footnotes: `(`, `)` and `!` do nothing without them);
 * - `<` `>` `&` (HTML, autolinks, character references such as `&#x202E;`);
 * - `|` (a GFM table cell's end);
 * - `@`, the `:` of `://` and the `.` of a leading `www.` (GFM's bare autolinks and mentions).
 *
 * Characters that only mean something at the start of a line (`#`, `-`, `+`, `=`, `>`, a digit and
 * `.`) are left alone: this text never starts one. Hidden characters are already `\u{…}` escapes,
 * and `\` is already doubled by `quote`, which Markdown reads back as one backslash.
 */
const MARKUP = /[`*~$[\]<>&|@]|_(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])_|:(?=\/\/)|(?<=(?:^|[^\p{L}\p{N}])www)\./giu;

export function markdownInline(text: string, max = 80): string {
  return quote(text, max)
    .slice(1, -1)
    .replace(MARKUP, (c) => '\\' + c);
}
