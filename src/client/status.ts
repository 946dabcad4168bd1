import * as vscode from 'vscode';
import type { StatusParams } from '../server/protocol';

/** The language status item: problem counts and when the last lint finished (and how long it took). */
export interface StatusView {
  item: vscode.LanguageStatusItem;
  update(s: StatusParams): void;
  busy(on: boolean): void;
  last(): StatusParams | undefined;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function statusText(s: StatusParams): { text: string; detail: string } {
  const problems = s.errors + s.warnings + s.infos + s.hints;
  const text = problems === 0 ? '$(check) LITMUS' : `$(error) ${s.errors} $(warning) ${s.warnings}${s.infos + s.hints ? ` $(info) ${s.infos + s.hints}` : ''}`;
  const when = new Date(s.finishedAt).toLocaleTimeString();
  const parts = [`${plural(s.files, 'file')}, ${plural(problems, 'problem')}`, `last lint ${when} (${s.durationMs} ms)`];
  if (s.oversized.length) parts.push(`${plural(s.oversized.length, 'file')} over litmus.maxFileSize not linted`);
  return { text, detail: parts.join(' · ') };
}

export function createStatusView(selector: vscode.DocumentSelector): StatusView {
  const item = vscode.languages.createLanguageStatusItem('litmus.status', selector);
  item.name = 'LITMUS Lint';
  item.text = '$(sync~spin) LITMUS';
  item.detail = 'starting';
  item.command = { title: 'Show output', command: 'litmus.showOutput' };
  let latest: StatusParams | undefined;
  return {
    item,
    update(s) {
      latest = s;
      const { text, detail } = statusText(s);
      item.text = text;
      item.detail = detail;
      item.busy = false;
      item.severity = s.oversized.length ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
    },
    busy(on) {
      item.busy = on;
    },
    last: () => latest,
  };
}
