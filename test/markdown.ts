import assert from 'node:assert/strict';

/**
 * The fenced blocks in `lang` of one section of a Markdown file: from its heading (`## X` or
 * `### X`, given whole) to the next heading of level 2 or 3.
 */
export function codeBlocks(markdown: string, heading: string, lang: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `section ${heading}`);
  const rest = markdown.slice(start + heading.length + 2);
  // A heading is outside fences: skip fenced text when looking for the section's end.
  let end = rest.length;
  let inFence = false;
  let offset = 0;
  for (const line of rest.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    else if (!inFence && /^#{2,3} /.test(line)) {
      end = offset;
      break;
    }
    offset += line.length + 1;
  }
  const section = rest.slice(0, end);
  return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}
