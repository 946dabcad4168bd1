import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkEdges, findCycles, importGraph } from '../../scripts/layers';

const repo = join(__dirname, '..', '..', '..');

describe('the house rules of src/ (docs/architecture.md)', () => {
  const edges = importGraph(repo);

  it('reads the real import graph', () => {
    // A reader that found nothing would pass every check below.
    assert.ok(edges.length > 200, `only ${edges.length} imports found`);
    assert.ok(edges.some((e) => e.from === 'src/core/lint/run.ts' && e.to === 'src/core/rules/index.ts'));
  });

  it('has core imports only going down the stages, and adapters only through core/index.ts', () => {
    assert.deepEqual(checkEdges(edges), []);
  });

  it('has no import cycle', () => {
    assert.deepEqual(findCycles(edges), []);
  });

  it('flags an import up or across the stages, and a deep import from an adapter', () => {
    const bad = checkEdges([
      { from: 'src/core/text/edit.ts', to: 'src/core/model/document.ts' },
      { from: 'src/core/injection/fixes.ts', to: 'src/core/rules/types.ts' },
      { from: 'src/core/schema/fixes.ts', to: 'src/core/injection/scan.ts' },
      { from: 'src/core/model/load.ts', to: 'src/cli/io.ts' },
      { from: 'src/core/grab-bag.ts', to: 'src/core/text/parse.ts' },
      { from: 'src/cli/run.ts', to: 'src/core/lint/lint.ts' },
      { from: 'src/server/server.ts', to: 'src/cli/run.ts' },
      { from: 'src/importers/agentdojo.ts', to: 'src/node/fs.ts' },
    ]);
    assert.equal(bad.length, 8, JSON.stringify(bad, null, 2));
  });

  it('lets imports go down, stay within a stage, and reach core through its index', () => {
    assert.deepEqual(
      checkEdges([
        { from: 'src/core/lint/lint.ts', to: 'src/core/rules/index.ts' },
        { from: 'src/core/rules/schema.ts', to: 'src/core/schema/fixes.ts' },
        { from: 'src/core/rules/injection-payload.ts', to: 'src/core/injection/scan.ts' },
        { from: 'src/core/model/workspace.ts', to: 'src/core/text/multimap.ts' },
        { from: 'src/core/model/workspace.ts', to: 'src/core/model/case.ts' },
        { from: 'src/cli/run.ts', to: 'src/core/index.ts' },
        { from: 'src/cli/import.ts', to: 'src/importers/index.ts' },
      ]),
      [],
    );
  });

  it('finds a cycle, including one through type-only imports', () => {
    const cycles = findCycles([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'c' },
      { from: 'c', to: 'a' },
      { from: 'c', to: 'd' },
      { from: 'e', to: 'e' },
    ]);
    assert.deepEqual(cycles, [['a', 'b', 'c'], ['e']]);
  });
});
