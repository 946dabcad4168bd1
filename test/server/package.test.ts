import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');

/** Entry names from a zip's central directory (a .vsix is a zip). */
export function zipEntries(buf: Buffer): string[] {
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file');
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    names.push(buf.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

describe('the .vsix package', function () {
  this.timeout(120000);
  let dir: string;
  let entries: string[];
  let manifest: { main: string; engines: { vscode: string }; contributes: { jsonValidation?: { url: string }[]; grammars: { path: string }[] } };

  before(function () {
    dir = mkdtempSync(join(tmpdir(), 'litmus-vsix-'));
    const out = join(dir, 'litmus-lint.vsix');
    // The flags of `npm run package`, on the bundles the test run has just built.
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '-o', out], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(r.status, 0, `vsce package failed:\n${r.stdout}\n${r.stderr}`);
    entries = zipEntries(readFileSync(out));
    manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // The package.json `files` list is the one source of what ships, in the .vsix as in the npm
  // package: so the .vsix carries the command-line bundles too (the CLI and its code cache).
  it('carries only what runs: the bundles, schemas, syntaxes, docs, icon, README, CHANGELOG, LICENSE, package.json', () => {
    const allowed = [
      /^extension\.vsixmanifest$/,
      /^\[Content_Types\]\.xml$/,
      /^extension\/package\.json$/,
      /^extension\/readme\.md$/,
      /^extension\/changelog\.md$/,
      /^extension\/LICENSE(\.txt)?$/,
      /^extension\/images\/icon\.png$/,
      /^extension\/dist\/(extension|server|language-server|cli|cli-main|mcp-client)\.js$/,
      /^extension\/dist\/cli-main\.cache$/,
      /^extension\/schemas\/[^/]+\.schema\.json$/,
      /^extension\/syntaxes\/[^/]+\.json$/,
      /^extension\/docs\/.+\.md$/,
      /^extension\/docs\/editors\/[^/]+\.(lua|toml|el)$/,
    ];
    const stray = entries.filter((e) => !allowed.some((re) => re.test(e)));
    assert.deepEqual(stray, [], 'nothing else (no sources, maps, node_modules, tests)');
    for (const must of ['extension/package.json', 'extension/dist/extension.js', 'extension/dist/server.js', 'extension/readme.md', 'extension/changelog.md', 'extension/images/icon.png']) {
      assert.ok(entries.includes(must), `${must} is packaged`);
    }
  });

  it('holds every file its manifest points at, for VS Code 1.100', () => {
    assert.ok(entries.includes(`extension/${manifest.main.replace(/^\.\//, '')}`));
    for (const g of manifest.contributes.grammars) assert.ok(entries.includes(`extension/${g.path.replace(/^\.\//, '')}`), g.path);
    for (const v of manifest.contributes.jsonValidation ?? []) assert.ok(entries.includes(`extension/${v.url.replace(/^\.\//, '')}`), v.url);
    assert.equal(manifest.engines.vscode, '^1.100.0');
  });

  it('shows in the Marketplace with a 128x128 PNG icon, a gallery banner, a repository and a changelog', () => {
    const m = manifest as unknown as { icon: string; galleryBanner: { color: string; theme: string }; repository: { url: string } };
    assert.ok(entries.includes(`extension/${m.icon}`), m.icon);
    const png = readFileSync(join(ROOT, m.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.equal(png.readUInt32BE(16), 128, 'width');
    assert.equal(png.readUInt32BE(20), 128, 'height');
    assert.match(m.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(m.galleryBanner.theme));
    assert.match(m.repository.url, /^https:\/\/github\.com\//);
  });
});
