import assert from 'node:assert/strict';
import { findNodeAtLocation, getNodeValue } from 'jsonc-parser';
import { createDocument, parseToolReference, readTool, toolDialect, type JsonPath, type SuiteDocument } from '../../src/core';
import { json, lintFiles } from '../helpers';

const STRUCTURAL = new Set(['parse-error', 'schema', 'unresolved-reference']);
const params = { type: 'object', properties: { to: { type: 'string', default: 'me@example.com' } } };
const text = json({
  tools: [
    { name: 'mcp_tool', title: 'MCP', description: 'mcp d', inputSchema: params },
    { type: 'function', function: { name: 'openai_tool', description: 'openai d', parameters: params } },
    { name: 'anthropic_tool', description: 'anthropic d', input_schema: params },
  ],
});
const doc = createDocument('file:///ws/t.tools.json', text)!;

function source(d: SuiteDocument, path: JsonPath | undefined): unknown {
  const node = path && findNodeAtLocation(d.parsed.roots[0].node!, path);
  return node ? JSON.parse(JSON.stringify(getNodeValue(node))) : undefined;
}

function tool(i: number) {
  const value: unknown = (JSON.parse(text) as { tools: unknown[] }).tools[i];
  return readTool(value, doc.uri, 0, ['tools', i])!;
}

describe('tool dialects', () => {
  it('normalises an MCP tool and remembers where its parts are', () => {
    const t = tool(0);
    assert.equal(t.dialect, 'mcp');
    assert.equal(t.name, 'mcp_tool');
    assert.deepEqual(t.schemaPath, ['tools', 0, 'inputSchema']);
    assert.deepEqual(source(doc, t.schemaPath), params);
    assert.equal(source(doc, t.namePath), 'mcp_tool');
    assert.equal(source(doc, t.titlePath), 'MCP');
    assert.equal(source(doc, t.descriptionPath), 'mcp d');
  });

  it('normalises an OpenAI function tool through its `function` object', () => {
    const t = tool(1);
    assert.equal(t.dialect, 'openai');
    assert.equal(t.name, 'openai_tool');
    assert.deepEqual(t.schemaPath, ['tools', 1, 'function', 'parameters']);
    assert.deepEqual(source(doc, t.schemaPath), params);
    assert.equal(source(doc, t.namePath), 'openai_tool');
    assert.equal(source(doc, t.descriptionPath), 'openai d');
  });

  it('normalises an Anthropic tool', () => {
    const t = tool(2);
    assert.equal(t.dialect, 'anthropic');
    assert.deepEqual(t.schemaPath, ['tools', 2, 'input_schema']);
    assert.deepEqual(source(doc, t.schemaPath), params);
    assert.deepEqual(t.schema, params);
  });

  it('tells dialects apart by shape, and skips entries without a usable name', () => {
    assert.equal(toolDialect({ type: 'function', function: {} }), 'openai');
    assert.equal(toolDialect({ type: 'function' }), 'mcp', 'no function object: not OpenAI');
    assert.equal(toolDialect({ name: 'x', input_schema: {}, inputSchema: {} }), 'mcp');
    assert.equal(readTool({ description: 'nameless' }, doc.uri, 0, []), undefined);
    assert.equal(readTool({ name: 42 }, doc.uri, 0, []), undefined);
    assert.equal(readTool('a string', doc.uri, 0, []), undefined);
    assert.equal(readTool(null, doc.uri, 0, []), undefined);
    assert.equal(readTool({ name: 'bare' }, doc.uri, 0, [])?.schemaPath, undefined);
  });

  it('indexes every dialect of a tool file by name, and inline tools in cases', async () => {
    const files = {
      't.tools.json': text,
      'c.litmus.jsonl': JSON.stringify({
        instance_id: 'c',
        arm: 'benign',
        family: 'f',
        task: 't',
        correct_resolution_signature: 's',
        tools: [{ type: 'function', function: { name: 'inline_fn', description: 'd', parameters: params } }],
      }),
    };
    const { index, diagnostics } = await lintFiles(files);
    assert.deepEqual(diagnostics.filter((d) => STRUCTURAL.has(d.code)), []);
    const file = index.toolFiles.get('file:///ws/t.tools.json')!;
    assert.deepEqual([...file.byName.keys()], ['mcp_tool', 'openai_tool', 'anthropic_tool']);
    const inline = index.cases[0].tools[0];
    assert.equal(inline.inline, true);
    assert.equal(inline.tool?.dialect, 'openai');
    assert.deepEqual(inline.tool?.schemaPath, ['tools', 0, 'function', 'parameters']);
    const lineDoc = index.docs.get('file:///ws/c.litmus.jsonl')!;
    assert.deepEqual(source(lineDoc, inline.tool?.schemaPath), params);
  });
});

describe('tool references', () => {
  it('splits "path#name" at the last #', () => {
    assert.deepEqual(parseToolReference('../tools/mail.tools.json#send_email'), { path: '../tools/mail.tools.json', name: 'send_email' });
    assert.deepEqual(parseToolReference('a#b.tools.json#x'), { path: 'a#b.tools.json', name: 'x' });
  });

  it('refuses strings that are not references', () => {
    for (const bad of ['send_email', '#send_email', 'mail.tools.json#', '']) assert.equal(parseToolReference(bad), undefined, bad);
  });
});
