import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Editors render a schema's `description` in hovers as Markdown, where `<tool name>` reads as an
// HTML tag and disappears ("the hover for a tool reference drops text", issue 23). Every text with
// `<…>` has a `markdownDescription` that keeps it in code spans.
const SCHEMAS = resolve(__dirname, '../../../schemas');

/** `<` and `>` outside code spans. */
function bareAngles(markdown: string): string[] {
  return markdown
    .split('`')
    .filter((_, i) => i % 2 === 0)
    .flatMap((text) => text.match(/<[^>]*>/g) ?? []);
}

describe('schema texts shown in hovers', () => {
  for (const file of readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'))) {
    it(`${file}: no <…> is lost to Markdown`, () => {
      const problems: string[] = [];
      const walk = (node: unknown, path: string): void => {
        if (!node || typeof node !== 'object') return;
        const n = node as Record<string, unknown>;
        if (typeof n.description === 'string' && /<[^>]*>/.test(n.description)) {
          const md = n.markdownDescription;
          if (typeof md !== 'string') problems.push(`${path}: description has <…> and no markdownDescription`);
          else if (bareAngles(md).length) problems.push(`${path}: markdownDescription has ${bareAngles(md).join(', ')} outside code`);
        }
        for (const [k, v] of Object.entries(n)) walk(v, `${path}/${k}`);
      };
      walk(JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')), '');
      assert.deepEqual(problems, []);
    });
  }
});
