// The floors the CLI is measured against: read every JSON/JSONC/JSONL file under the given folder
// and parse it, in one Node process and nothing else. Run as a child process like the CLI, so both
// figures include Node's start-up.
//
//   node bench/floor.mjs json <dir>    read + JSON.parse: the physical floor (JSONL line by line; a
//                                      file with comments has them blanked first, as the CLI does)
//   node bench/floor.mjs jsonc <dir>   read + jsonc-parser's parseTree: what a full position tree costs
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';

const [mode, dir] = process.argv.slice(2);
if ((mode !== 'json' && mode !== 'jsonc') || !dir) {
  console.error('usage: node bench/floor.mjs json|jsonc <dir>');
  process.exit(2);
}

function walk(d, out) {
  for (const e of readdirSync(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (/\.jsonc?l?$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Comments blanked, strings left alone: the least a reader of JSON with comments must do before JSON.parse. */
function blankComments(text) {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      for (i++; i < text.length && text.charCodeAt(i) !== 34; i++) if (text.charCodeAt(i) === 92) i++;
    } else if (c === 47 && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const end = text[i + 1] === '/' ? text.indexOf('\n', i) : text.indexOf('*/', i) + 2;
      const stop = end < i + 2 ? text.length : end;
      out += text.slice(from, i) + ' '.repeat(stop - i);
      from = stop;
      i = stop - 1;
    }
  }
  return out + text.slice(from);
}

let parse;
if (mode === 'jsonc') {
  const { parseTree } = createRequire(import.meta.url)('jsonc-parser');
  parse = (text) => parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
} else {
  parse = (text) => {
    try {
      return JSON.parse(text);
    } catch {
      try {
        return JSON.parse(blankComments(text));
      } catch {
        // Not JSON even without comments (a broken file): read, and that is all a floor does with it.
        return undefined;
      }
    }
  };
}

let values = 0;
for (const file of walk(dir, [])) {
  const text = readFileSync(file, 'utf8');
  const parts = file.endsWith('.jsonl') ? text.split('\n') : [text];
  for (const part of parts) {
    if (part.trim() === '') continue;
    if (parse(part) !== undefined) values++;
  }
}
process.stdout.write(`${values}\n`);
