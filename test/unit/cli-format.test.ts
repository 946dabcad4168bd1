import assert from 'node:assert/strict';
import { formatContext, testDiagnostic } from '../helpers';
import type { LintDiagnostic } from '../../src/core';
import { RULE_IDS } from '../../src/core';
import type { FormatContext } from '../../src/cli/format/context';
import { escapeData, escapeProperty, github } from '../../src/cli/format/github';
import { json, jsonPieces, jsonReport, reportPieces } from '../../src/cli/format/json';
import { piecesWithinBudget } from '../../src/cli/format/budget';
import { neutraliseWorkflowCommandsInJson } from '../../src/core/text/workflow';
import { sarif, sarifLevel, sarifLog, sarifParts, sarifPieces } from '../../src/cli/format/sarif';
import { gitlab, gitlabIssues, gitlabParts, gitlabPieces } from '../../src/cli/format/gitlab';
import { stylish } from '../../src/cli/format/stylish';
import { useColor } from '../../src/cli/color';

const CWD = 'file:///work/repo';

const ctx = (over: Partial<FormatContext> = {}) => formatContext(CWD, [`${CWD}/suite/a.litmus.json`, `${CWD}/suite/b.tools.json`], over);

const diag = (over: Partial<LintDiagnostic> = {}) => testDiagnostic(`${CWD}/suite/a.litmus.json`, over);

describe('cli formatters', () => {
  describe('stylish', () => {
    it('groups by relative path, prints 1-based line:col, severity, message and rule, then a summary', () => {
      const out = stylish([diag(), diag({ severity: 'warning', code: 'mutation-budget', message: 'too deep', range: { start: { line: 9, character: 0 }, end: { line: 9, character: 2 } } })], ctx());
      assert.match(out, /^\nsuite\/a\.litmus\.json\n/);
      assert.match(out, / {2}3:5 {3}error {4}instance_id `x` is also used by 1 other case {2}duplicate-id\n/);
      assert.match(out, / {2}10:1 {2}warning {2}too deep {38}mutation-budget\n/);
      assert.match(out, /✖ 2 problems \(1 error, 1 warning\) in 2 files\n$/);
      assert.doesNotMatch(out, /\u001b\[/, 'no colour unless asked');
    });

    it('says so when there is nothing to report', () => {
      assert.equal(stylish([], ctx()), '✔ no problems in 2 files\n');
    });

    it('colours only when the context says so', () => {
      const out = stylish([diag()], ctx({ color: true }));
      assert.match(out, /\u001b\[31merror/);
      assert.match(out, /\u001b\[4msuite\/a\.litmus\.json\u001b\[0m/);
    });

    it('escapes hidden characters in file names', () => {
      const out = stylish([diag({ uri: `${CWD}/suite/evil%E2%80%AEnosj.litmus.json` })], ctx());
      assert.ok(out.includes('evil\\u{202E}nosj.litmus.json'), out);
      assert.ok(!out.includes('\u202e'));
    });

    it('counts what --fix would apply and what --quiet hid', () => {
      const fixable = diag({ fixes: [{ title: 'Change to y', unambiguous: true, edits: [] }] });
      const twoFixes = diag({ offset: 40, fixes: [{ title: 'a', unambiguous: true, edits: [] }, { title: 'b', unambiguous: true, edits: [] }] });
      const out = stylish([fixable, twoFixes], ctx({ hidden: 3 }));
      assert.match(out, /\(3\s+below\s+error\s+severity\s+hidden\s+by\s+--quiet\)/, 'the summary wraps at 80 columns');
      assert.match(out, /1 problem can be fixed with the `--fix` option/);
    });
  });

  describe('json', () => {
    it('writes in pieces exactly what one JSON.stringify writes', () => {
      const files = Array.from({ length: 40 }, (_, i) => `${CWD}/suite/f${String(i).padStart(2, '0')}.litmus.json`);
      const diagnostics = files.flatMap((uri, i) =>
        i % 3 === 0
          ? []
          : [
              testDiagnostic(uri, {
                message: i % 5 === 0 ? 'payload reads ##[error] here\nand "quoted"' : `finding ${i} \u2028 é`,
                related: [{ uri: files[0], range: { start: { line: 1, character: 2 }, end: { line: 1, character: 4 } }, message: 'there' }],
              }),
            ],
      );
      // One file of many findings is written a finding at a time (json.ts, SPLIT_AT).
      for (let k = 0; k < 40; k++) diagnostics.push(testDiagnostic(files[1], { offset: k, message: k % 7 === 0 ? `many ##[warning] ${k}` : `many ${k} \u2028 "é"`, related: k % 2 ? [] : [{ uri: files[2], range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'here' }] }));
      const over = { fixed: new Map([[files[4], 'fixed\n  text ##[x]']]) };
      for (const list of [diagnostics, []]) {
        const c = formatContext(CWD, files, over);
        const report = jsonReport(list, c);
        const whole = neutraliseWorkflowCommandsInJson(JSON.stringify(report, null, 2)) + '\n';
        for (const piece of [1, 64, 1 << 20]) {
          const pieces = [...reportPieces(report, piece)];
          assert.equal(pieces.join(''), whole, `pieces of ${piece}`);
          // Cut after every entry, then the tail; the file of 41 findings after its head and after each finding.
          if (piece === 1 && list.length) assert.equal(pieces.length, report.files.length + 1 + 41 + 1, 'cut after every entry and finding, then the tail');
        }
        assert.equal(json(list, c), whole);
      }
      // Past the output budget (60× the input, and 256 KB) the report is rendered again within it, as one string was.
      const many = Array.from({ length: 3000 }, (_, i) => testDiagnostic(files[i % 7], { offset: i, severity: i % 2 ? 'warning' : 'error', message: `finding ${i} ${'x'.repeat(80)}` }));
      const tight = formatContext(CWD, files, { inputSize: 10 });
      const budgeted = neutraliseWorkflowCommandsInJson(JSON.stringify(jsonReport(many, tight), null, 2)) + '\n';
      assert.match(budgeted, /"findingsLeftOut": [1-9]/);
      assert.equal([...jsonPieces(many, tight)].join(''), budgeted);
      // A report past what is held (here 1 character) is measured, then rendered again as it is written: the same text.
      const c = formatContext(CWD, files);
      assert.equal([...jsonPieces(diagnostics, c, 1)].join(''), [...jsonPieces(diagnostics, c)].join(''));
      assert.equal([...jsonPieces(many, tight, 1)].join(''), budgeted);
      // No files at all: the empty list stays on its line.
      const none = jsonReport([], formatContext(CWD, []));
      assert.equal([...reportPieces(none, 1)].join(''), JSON.stringify(none, null, 2) + '\n');
    });

    it('has files, 1-based spans, fix titles, related locations and summary counts', () => {
      const d = diag({
        related: [{ uri: `${CWD}/suite/b.tools.json`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, message: 'also here' }],
        fixes: [{ title: 'Rename', unambiguous: false, edits: [] }],
      });
      const r = jsonReport([d, diag({ severity: 'hint', code: 'injection-payload' })], ctx());
      assert.deepEqual(r.files.map((f) => f.path), ['suite/a.litmus.json', 'suite/b.tools.json']);
      assert.deepEqual(r.files[1].diagnostics, [], 'clean files are listed too');
      const j = r.files[0].diagnostics[0];
      assert.deepEqual([j.line, j.column, j.endLine, j.endColumn], [3, 5, 3, 10]);
      assert.equal(j.ruleId, 'duplicate-id');
      assert.deepEqual(j.fixes, ['Rename']);
      assert.equal(j.autoFixable, false);
      assert.deepEqual(j.related, [{ path: 'suite/b.tools.json', line: 1, column: 1, endLine: 1, endColumn: 4, message: 'also here' }]);
      assert.deepEqual(r.summary, { files: 2, problems: 2, errors: 1, warnings: 0, infos: 0, hints: 1, autoFixable: 0, hiddenByQuiet: 0, suppressed: 0, sizeLimit: { findingsLeftOut: 0, relatedLocationsLeftOut: 0 } });
    });
  });

  describe('output budget', () => {
    /** A rendering of `count` pieces of `size` characters that records each time it is made, and how far it got. */
    const rendering = (count: number, size: number) => {
      const log: string[] = [];
      const render = function* (c: FormatContext): Generator<string> {
        const mode = c.inputSize === undefined ? 'whole' : 'fitted';
        log.push(mode);
        for (let i = 0; i < (mode === 'whole' ? count : 1); i++) yield (mode === 'whole' ? String(i % 10) : 'f').repeat(size);
      };
      return { log, render };
    };

    it('holds a small report, measures a large one before its first piece, and fits one past the budget', () => {
      const roomy = formatContext(CWD, [], { inputSize: 1000 });
      // Within what is held: rendered once.
      let r = rendering(3, 10);
      assert.deepEqual([...piecesWithinBudget(roomy, r.render, 100)], ['0'.repeat(10), '1'.repeat(10), '2'.repeat(10)]);
      assert.deepEqual(r.log, ['whole']);
      // Past it: the whole report is measured before the first piece is handed out, then made again as it is written.
      r = rendering(5, 10);
      const pieces = piecesWithinBudget(roomy, r.render, 15);
      const first = pieces.next();
      assert.equal(first.value, '0'.repeat(10));
      assert.deepEqual(r.log, ['whole', 'whole']);
      assert.equal([first.value, ...pieces].join(''), '01234'.split('').map((d) => d.repeat(10)).join(''));
      // Past the budget (60 x 1000 + 256 KB): nothing of the whole rendering is written, the fitted one is.
      r = rendering(100, 1 << 12);
      assert.deepEqual([...piecesWithinBudget(roomy, r.render, 15)], ['f'.repeat(1 << 12)]);
      assert.deepEqual(r.log, ['whole', 'fitted']);
    });

    it('writes SARIF and GitLab in pieces exactly as one JSON.stringify of their value writes them', () => {
      const files = Array.from({ length: 9 }, (_, i) => `${CWD}/suite/f${i}.litmus.json`);
      const many = Array.from({ length: 300 }, (_, i) =>
        testDiagnostic(files[i % 9], {
          offset: i,
          severity: (['error', 'warning', 'info', 'hint'] as const)[i % 4],
          message: i % 11 === 0 ? `payload ##[error] ${i} "q" \u2028` : `finding ${i % 50} é`,
          related: i % 3 ? [] : [{ uri: files[0], range: { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } }, message: 'there' }],
        }),
      );
      for (const list of [many, many.slice(0, 1), []]) {
        for (const c of [formatContext(CWD, files), formatContext(CWD, files, { inputSize: 1 << 20 }), formatContext(CWD, files, { inputSize: 10 })]) {
          // Past the budget (inputSize 10) both are fitted first; the pieces must say the same.
          const log = sarifLog(list, { ...c, warn: () => undefined });
          assert.equal([...sarifPieces(list, c)].join(''), neutraliseWorkflowCommandsInJson(JSON.stringify(log)) + '\n');
          assert.equal(sarif(list, c), neutraliseWorkflowCommandsInJson(JSON.stringify(log)) + '\n');
          const issues = gitlabIssues(list, { ...c, warn: () => undefined });
          assert.equal([...gitlabPieces(list, c)].join(''), neutraliseWorkflowCommandsInJson(JSON.stringify(issues, null, 2)) + '\n');
          assert.equal(gitlab(list, c), neutraliseWorkflowCommandsInJson(JSON.stringify(issues, null, 2)) + '\n');
        }
      }
      // A result at a time: the pieces of a SARIF log of 300 results are cut between them.
      const parts = [...sarifParts(sarifLog(many, formatContext(CWD, files)))];
      assert.equal(parts.length, 301);
      assert.equal([...gitlabParts(gitlabIssues(many, formatContext(CWD, files)))].length, 301);
    });
  });

  describe('sarif', () => {
    it('maps severities to the three SARIF levels', () => {
      assert.deepEqual((['error', 'warning', 'info', 'hint'] as const).map(sarifLevel), ['error', 'warning', 'note', 'note']);
    });

    it('builds the rule table from the registry and points results into it', () => {
      const log = sarifLog([diag({ code: 'mutation-budget', severity: 'info' })], ctx());
      const run = log.runs[0];
      assert.equal(log.version, '2.1.0');
      assert.deepEqual(run.tool.driver.rules.map((r) => r.id), [...RULE_IDS]);
      assert.equal(run.tool.driver.version, '9.9.9');
      const res = run.results[0];
      assert.equal(run.tool.driver.rules[res.ruleIndex!].id, 'mutation-budget');
      assert.equal(res.level, 'note');
      assert.equal(run.columnKind, 'utf16CodeUnits');
    });

    it('gives paths relative to %SRCROOT% (the cwd) and absolute URIs outside it, with 1-based regions', () => {
      const inside = diag({ uri: `${CWD}/suite/my%20file.litmus.json` });
      const outside = diag({ uri: 'file:///elsewhere/x.tools.json' });
      const run = sarifLog([inside, outside], ctx()).runs[0];
      assert.deepEqual(run.originalUriBaseIds, { '%SRCROOT%': { uri: `${CWD}/` } });
      const loc = run.results[0].locations[0].physicalLocation;
      assert.deepEqual(loc.artifactLocation, { uri: 'suite/my%20file.litmus.json', uriBaseId: '%SRCROOT%' });
      assert.deepEqual(loc.region, { startLine: 3, startColumn: 5, endLine: 3, endColumn: 10 });
      assert.deepEqual(run.results[1].locations[0].physicalLocation.artifactLocation, { uri: 'file:///elsewhere/x.tools.json' });
    });
  });

  describe('github', () => {
    it('escapes data (%, CR, LF) and properties (also : and ,)', () => {
      assert.equal(escapeData('50% done\r\nnext'), '50%25 done%0D%0Anext');
      assert.equal(escapeProperty('a:b,c%'), 'a%3Ab%2Cc%25');
    });

    it('writes one workflow command per problem; info and hint become notices', () => {
      const out = github(
        [
          diag({ message: 'bad: 100%\nreally' }),
          diag({ severity: 'warning', code: 'mutation-budget' }),
          diag({ severity: 'hint', code: 'injection-payload', uri: `${CWD}/a,b:c.tools.json` }),
        ],
        ctx(),
      );
      assert.deepEqual(out.split('\n'), [
        '::error file=suite/a.litmus.json,line=3,col=5,endLine=3,endColumn=10,title=duplicate-id::bad: 100%25%0Areally',
        '::warning file=suite/a.litmus.json,line=3,col=5,endLine=3,endColumn=10,title=mutation-budget::instance_id `x` is also used by 1 other case',
        '::notice file=a%2Cb%3Ac.tools.json,line=3,col=5,endLine=3,endColumn=10,title=injection-payload::instance_id `x` is also used by 1 other case',
        '',
      ]);
    });
  });

  describe('colour decision', () => {
    it('uses colour on a terminal only, honours NO_COLOR, and lets FORCE_COLOR win', () => {
      assert.equal(useColor({}, true), true);
      assert.equal(useColor({}, false), false);
      assert.equal(useColor({ NO_COLOR: '1' }, true), false);
      assert.equal(useColor({ NO_COLOR: '' }, true), true, 'an empty NO_COLOR does not count (no-color.org)');
      assert.equal(useColor({ TERM: 'dumb' }, true), false);
      assert.equal(useColor({ FORCE_COLOR: '1' }, false), true);
      assert.equal(useColor({ FORCE_COLOR: '1', NO_COLOR: '1' }, false), true);
      assert.equal(useColor({ FORCE_COLOR: '0' }, true), false);
    });
  });
});
