/**
 * Characters XML 1.0 cannot hold at all, not even as references: controls other than tab, line
 * feed and carriage return, lone surrogates, U+FFFE and U+FFFF. They are dropped.
 */
const INVALID_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function stripInvalidXml(text: string): string {
  return text.replace(INVALID_XML, '');
}

/** Text for an attribute value or element content: markup characters as entities. */
export function escapeXml(text: string): string {
  return stripInvalidXml(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    // An attribute value's line breaks would be normalised to spaces by any reader: keep them.
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;')
    // `##[` is a workflow command wherever it stands in a CI log line (src/core/text/workflow.ts).
    .replace(/##\[/g, '##&#91;');
}

/** A CDATA section; `]]>` inside is split across two sections, the one way to write it. */
export function cdata(text: string): string {
  // `##[` is split across two sections too: the text is the same, and no CI log reads a workflow command in it.
  return `<![CDATA[${stripInvalidXml(text).replace(/]]>/g, ']]]]><![CDATA[>').replace(/##\[/g, '##]]><![CDATA[[')}]]>`;
}
