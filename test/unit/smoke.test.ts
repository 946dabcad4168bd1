import assert from 'node:assert/strict';
import { brief, covered, json, lintFiles } from '../helpers';

describe('core smoke', () => {
  it('reports duplicate ids and unresolved references across files', async () => {
    const files = {
      'a.litmus.json': json({ instance_id: 'x', arm: 'benign', family: 'f', task: 't', correct_resolution_signature: 's', tools: ['tools/m.tools.json#send'] }),
      'b.litmus.jsonl': '{"instance_id":"x","arm":"benign","family":"f","task":"t","correct_resolution_signature":"s2","paired_with":"nope"}\n',
      'tools/m.tools.json': json({ tools: [{ name: 'send_mail', description: 'd', inputSchema: { type: 'object' } }] }),
    };
    const { diagnostics } = await lintFiles(files);
    const dup = diagnostics.filter((d) => d.code === 'duplicate-id');
    assert.deepEqual(dup.map(brief), ['a.litmus.json:2:18 duplicate-id', 'b.litmus.jsonl:1:16 duplicate-id']);
    assert.equal(dup[0].related.length, 1);
    const unres = diagnostics.filter((d) => d.code === 'unresolved-reference');
    assert.deepEqual(unres.map((d) => covered(files, d)), ['"tools/m.tools.json#send"', '"nope"']);
  });
});
