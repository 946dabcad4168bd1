/** The README.md each import writes into --out: where every field came from, what is left to do. */

export interface ReadmeSpec {
  title: string;
  intro: string[];
  /** Rows of the "what was written" table: path, what it holds. */
  files: [string, string][];
  /** Rows of the field table: field, where its value came from. */
  fields: [string, string][];
  derived: string[];
  todo: string[];
  counts: [string, number][];
  warnings: string[];
  /** Sections of their own after the intro: what a reader must know before the tables. */
  sections?: { heading: string; lines: string[] }[];
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function table(head: [string, string], rows: readonly [string, string | number][]): string[] {
  return [`| ${head[0]} | ${head[1]} |`, '| --- | --- |', ...rows.map(([a, b]) => `| ${cell(a)} | ${cell(String(b))} |`)];
}

export function readme(spec: ReadmeSpec): string {
  const lines: string[] = [
    `# ${spec.title}`,
    '',
    ...spec.intro,
    '',
    ...(spec.sections ?? []).flatMap((sec) => [`## ${sec.heading}`, '', ...sec.lines, '']),
    '## Counts',
    '',
    ...table(['what', 'how many'], spec.counts),
    '',
    '## Files',
    '',
    ...table(['path', 'what it holds'], spec.files),
    '',
    '## Where every field comes from',
    '',
    ...table(['field', 'source'], spec.fields),
    '',
    '## Derived, not the benchmark\'s',
    '',
    ...spec.derived.map((d) => `- ${d}`),
    '',
    '## What you must still supply',
    '',
    ...spec.todo.map((d) => `- ${d}`),
    '',
  ];
  if (spec.warnings.length) lines.push('## Import warnings', '', ...spec.warnings.map((w) => `- ${w}`), '');
  return lines.join('\n');
}
