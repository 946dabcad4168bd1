import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

/**
 * scripts/ascii-bundle.mjs, run by the build on every bundle. It is ESM and this suite is compiled
 * to CommonJS, so a child process imports it (and esbuild, to make a real bundle with a source map).
 */
function run(dir: string, source: string): { ascii: boolean; matches: boolean[]; mapped: string[]; changed: boolean } {
  writeFileSync(join(dir, 'in.ts'), source);
  const script = `
    import { buildSync } from 'esbuild';
    import { readFileSync } from 'node:fs';
    import { SourceMap, createRequire } from 'node:module';
    import { asciiBundle } from ${JSON.stringify(join(ROOT, 'scripts/ascii-bundle.mjs'))};
    const dir = ${JSON.stringify(dir)};
    buildSync({ entryPoints: [dir + '/in.ts'], outfile: dir + '/out.js', bundle: true, platform: 'node', format: 'cjs', sourcemap: true, logLevel: 'error' });
    // Where each name after a pattern on its line maps to, before and after.
    const names = (text, map) => text.split('\\n').flatMap((line, l) => [...line.matchAll(/\\b(after_[a-z]+)\\b/g)].map((m) => m[1] + '@' + JSON.stringify(map.findEntry(l, m.index)?.originalColumn)));
    const before = names(readFileSync(dir + '/out.js', 'utf8'), new SourceMap(JSON.parse(readFileSync(dir + '/out.js.map', 'utf8'))));
    const changed = asciiBundle(dir + '/out.js');
    const text = readFileSync(dir + '/out.js', 'utf8');
    const after = names(text, new SourceMap(JSON.parse(readFileSync(dir + '/out.js.map', 'utf8'))));
    const m = createRequire(dir + '/')(dir + '/out.js');
    console.log(JSON.stringify({ ascii: !/[^\\x00-\\x7f]/.test(text), matches: m.probe(), mapped: before.map((b, i) => b + ' ' + after[i]), changed }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

describe('scripts/ascii-bundle.mjs', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'litmus-ascii-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('escapes what esbuild leaves in patterns and comments, and they match as before', function () {
    this.timeout(30_000);
    const r = run(
      dir,
      [
        '// a comment with ’curly’ quotes and 忽略',
        'function after_a(s: string) { return s.length > 0; }',
        "const quotes = (s: string) => /[’“]x/u.test(s) && after_a(s) && /x/.test(s) && after_b(s);",
        'function after_b(s: string) { return s.length < 9; }',
        'const cjk = (s: string) => /(忽略|无视)指令/.test(s) && after_a(s);',
        'const astral = (s: string) => /^\u{1F600}+$/u.test(s) && after_b(s);',
        "export const probe = () => [quotes('’x'), quotes('\"x'), cjk('忽略指令'), cjk('指令'), astral('\u{1F600}\u{1F600}'), astral('\u{1F600}x')];",
      ].join('\n'),
    );
    assert.equal(r.changed, true);
    assert.equal(r.ascii, true);
    assert.deepEqual(r.matches, [true, false, true, false, true, false]);
    // Each name after a grown pattern still maps to its own column of the source.
    assert.equal(r.mapped.length, 6);
    for (const pair of r.mapped) {
      const [before, after] = pair.split(' ');
      assert.equal(after, before, pair);
      assert.ok(!before.endsWith('@undefined'), pair);
    }
  });

  it('leaves an ASCII bundle alone', function () {
    this.timeout(30_000);
    const r = run(dir, "export const after_plain = /[a-z]/; export const probe = () => [after_plain.test('q')];");
    assert.equal(r.changed, false);
    assert.deepEqual(r.matches, [true]);
  });

  it('refuses a backslash before a non-ASCII character, which the escape would change', () => {
    writeFileSync(join(dir, 'out.js'), 'var a = /\\’/;\n');
    const script = `import { asciiBundle } from ${JSON.stringify(join(ROOT, 'scripts/ascii-bundle.mjs'))}; asciiBundle(${JSON.stringify(join(dir, 'out.js'))});`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /escaped non-ASCII character at offset 9/);
  });
});
