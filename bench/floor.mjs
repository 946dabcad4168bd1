// The floor the CLI is measured against: read every JSON/JSONC/JSONL file under the given folder and
// parse it with jsonc-parser's parseTree (JSONL line by line), in one Node process and nothing else.
// Run as a child process like the CLI, so both figures include Node's start-up.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parseTree } = require('jsonc-parser');

function walk(dir, out) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.jsonc?l?$/.test(e.name)) out.push(p);
  }
  return out;
}

let nodes = 0;
for (const file of walk(process.argv[2], [])) {
  const text = readFileSync(file, 'utf8');
  const parts = file.endsWith('.jsonl') ? text.split('\n') : [text];
  for (const part of parts) {
    if (part.trim() === '') continue;
    const tree = parseTree(part, [], { allowTrailingComma: true, disallowComments: false });
    if (tree) nodes += tree.children?.length ?? 0;
  }
}
process.stdout.write(`${nodes}\n`);
