// Incremental latency through the real language server: `node dist/server.js --stdio`, spoken to
// over LSP with vscode-jsonrpc, with a generated workspace as its only folder.
//
// Each measured edit flips something whose diagnostics are known (a `paired_with` that names nothing;
// a tool renamed so references to it stop resolving) and back, and the clock stops at the first
// `publishDiagnostics` that shows the new state for the file (for a tool edit: for every affected
// case file). A stale or intermediate publish therefore never stops the clock.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median, percentile } from './measure.mjs';

const require = createRequire(import.meta.url);
const rpc = require('vscode-jsonrpc/node');

const uriOf = (path) => pathToFileURL(path).toString();

/** The LSP position (line, UTF-16 column) of an offset in the text. */
function positionAt(text, offset) {
  let line = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, character: offset - start };
}
const countCode = (diags, code) => diags.filter((d) => d.code === code || d.code?.value === code).length;

/**
 * @param serverJs path of dist/server.js
 * @param ws       the generator's description of the workspace ({dir, suites, toolFiles})
 * @param opts     { caseEdits, toolEdits, debounceMs (what the server is asked to use) }
 */
export async function measureServer(serverJs, ws, opts = {}) {
  const caseEdits = opts.caseEdits ?? 40;
  const toolEdits = opts.toolEdits ?? 20;
  // The server waits this long after the last change before it lints; that wait is not its work.
  const debounceMs = opts.debounceMs ?? 0;
  const settings = { run: 'onType', debounce: 0, debounceMs: 0, maxFileSize: 50 * 1024 * 1024 };
  // `nodeArgs` lets a profiling run pass e.g. --cpu-prof to the server.
  const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), serverJs, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));

  const latest = new Map(); // uri -> diagnostics
  let lastPublish = 0;
  let waiters = [];
  conn.onNotification('textDocument/publishDiagnostics', (p) => {
    const t = performance.now();
    latest.set(p.uri, p.diagnostics);
    lastPublish = t;
    waiters = waiters.filter((w) => !w.check(p, t));
  });
  // Answer what a client answers: settings for every section asked, and acknowledgements.
  conn.onRequest((method, params) => {
    if (method === 'workspace/configuration') return (params?.items ?? []).map((it) => (it.section && it.section !== 'litmus' ? null : settings));
    if (method === 'workspace/workspaceFolders') return [{ uri: uriOf(ws.dir), name: 'bench' }];
    return null;
  });
  // The server says when a lint of the folder is done; a clean file may never be published (an
  // empty list is sent only to clear one published before), so that, not every open file, marks
  // the first lint as finished.
  let statuses = 0;
  let lastStatus = 0;
  conn.onNotification('litmus/status', () => {
    statuses++;
    lastStatus = performance.now();
  });
  conn.onNotification(() => {});
  conn.listen();

  const finish = async () => {
    // A polite shutdown first, so a profiling server writes its profile before it goes.
    try {
      await Promise.race([conn.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      conn.sendNotification('exit');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 200));
    try {
      conn.dispose();
    } catch {
      // already closed
    }
    child.kill();
  };

  try {
    const t0 = performance.now();
    await conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uriOf(ws.dir),
      workspaceFolders: [{ uri: uriOf(ws.dir), name: 'bench' }],
      initializationOptions: { debounce: 0, debounceMs: 0, settings },
      capabilities: {
        workspace: { configuration: true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
        textDocument: { synchronization: { dynamicRegistration: false }, publishDiagnostics: { relatedInformation: true, versionSupport: true } },
      },
    });
    conn.sendNotification('initialized', {});

    // The files the edits touch are opened, so the server reports them whether or not it reports closed files.
    const caseFiles = ws.suites.filter((s) => s.variant === 'json').slice(0, 5).map((s) => join(ws.dir, s.rel));
    const tools = ws.toolFiles.filter((t) => t.users.length > 0).slice(0, 5);
    const opened = new Map(); // uri -> {path, text, version}
    const open = (path) => {
      const uri = uriOf(path);
      if (opened.has(uri)) return;
      const text = readFileSync(path, 'utf8');
      opened.set(uri, { path, text, version: 1 });
      conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: path.endsWith('.jsonl') ? 'jsonl' : 'jsonc', version: 1, text } });
    };
    for (const p of caseFiles) open(p);
    for (const t of tools) for (const u of t.users) open(join(ws.dir, u));

    // Indexed: a lint has finished (its status came) and nothing more for a second.
    const deadline = performance.now() + 180_000;
    const lastWord = () => Math.max(lastPublish, lastStatus);
    while (performance.now() < deadline) {
      if (statuses > 0 && performance.now() - lastWord() > 1000) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    if (statuses === 0) {
      throw new Error(`the server finished no lint of the folder within 180 s${stderr ? `; stderr: ${stderr.slice(0, 400)}` : ''}`);
    }
    const indexMs = lastWord() - t0;

    const waitFor = (check, label) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${label}`)), 30_000);
        waiters.push({
          check: (p, t) => {
            if (!check(p)) return false;
            clearTimeout(timer);
            resolve(t);
            return true;
          },
        });
      });

    // (1) didChange of one case file → its diagnostics.
    const caseLatencies = [];
    for (let i = 0; i < caseEdits; i++) {
      const uri = uriOf(caseFiles[i % caseFiles.length]);
      const doc = opened.get(uri);
      const base = countCode(latest.get(uri) ?? [], 'unresolved-reference');
      const m = /"paired_with": "([^"]+)"/.exec(doc.original ?? doc.text);
      if (!m) throw new Error(`no paired_with in ${doc.path}`);
      doc.original ??= doc.text;
      const replacement = `"paired_with": "no-such-case-${i}"`;
      // Sent as VS Code sends an edit to a server that syncs incrementally (ours does): the
      // changed range only. A whole-text change of a 1.5 MB file costs the server ~10 ms of
      // decoding that no editor makes it pay. The match holds no line break, so the range is on
      // one line.
      const { line, character } = positionAt(doc.original, m.index);
      for (const [removed, inserted, want] of [
        [m[0], replacement, base + 1],
        [replacement, m[0], base],
      ]) {
        doc.version++;
        const version = doc.version;
        const done = waitFor(
          (p) => p.uri === uri && (p.version === undefined || p.version === version) && countCode(p.diagnostics, 'unresolved-reference') === want,
          `diagnostics of ${uri} v${version}`,
        );
        const start = performance.now();
        const range = { start: { line, character }, end: { line, character: character + removed.length } };
        conn.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ range, text: inserted }] });
        caseLatencies.push((await done) - start - debounceMs);
      }
    }

    // (2) a tool file written on disk → diagnostics of every case file that references the tool.
    const toolLatencies = [];
    for (let i = 0; i < toolEdits; i++) {
      const t = tools[i % tools.length];
      const path = join(ws.dir, t.rel);
      const uri = uriOf(path);
      const original = readFileSync(path, 'utf8');
      const name = /"name": "([^"]+)"/.exec(original)[1];
      const ref = `${t.rel}#${name}"`;
      const affected = t.users.map((u) => {
        const text = opened.get(uriOf(join(ws.dir, u))).text;
        return { uri: uriOf(join(ws.dir, u)), refs: text.split(ref).length - 1 };
      }).filter((a) => a.refs > 0);
      if (affected.length === 0) continue;
      const bases = new Map(affected.map((a) => [a.uri, countCode(latest.get(a.uri) ?? [], 'unresolved-reference')]));
      for (const [text, broken] of [
        [original.replace(`"name": "${name}"`, `"name": "${name}_renamed"`), true],
        [original, false],
      ]) {
        const pending = affected.map((a) =>
          waitFor((p) => p.uri === a.uri && countCode(p.diagnostics, 'unresolved-reference') === bases.get(a.uri) + (broken ? a.refs : 0), `diagnostics of ${a.uri}`),
        );
        writeFileSync(path, text);
        const start = performance.now();
        conn.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
        const times = await Promise.all(pending);
        toolLatencies.push(Math.max(...times) - start - debounceMs);
      }
    }

    return {
      debounceMs,
      indexMs,
      openFiles: opened.size,
      case: { n: caseLatencies.length, median: median(caseLatencies), p95: percentile(caseLatencies, 95) },
      tool: { n: toolLatencies.length, median: median(toolLatencies), p95: percentile(toolLatencies, 95) },
    };
  } finally {
    await finish();
  }
}
