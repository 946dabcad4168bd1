/**
 * Golden CLI scenarios (after Spectral's test-harness): one file per scenario holds the command,
 * its environment, input files, and the expected exit status, stdout and stderr side by side.
 *
 *   ====test====            what the scenario shows (one line)
 *   ====command====         `litmus-lint ...`; `{tmp}` is a fresh folder holding the assets
 *   ====env====             NAME=value lines (the command gets only these, plus PATH)
 *   ====copy====            repo-relative paths copied into {tmp} before the run
 *   ====cwd====             the working directory, relative to {tmp} (default: the repository root)
 *   ====stdin====           standard input of the command (default: empty)
 *   ====asset:PATH====      a file written to {tmp}/PATH ({NUL}, {BOM}, {CR}, {DEEP:n} expand)
 *   ====status====          expected exit status
 *   ====stdout====          expected standard output
 *   ====stderr====          expected standard error
 *   ====after:PATH====      expected content of {tmp}/PATH after the run (for -o and --fix);
 *                           `{exists}` checks only that the file is there
 */
export interface Section {
  name: string;
  arg?: string;
  body: string;
}

const HEADER = /^====([a-z]+)(?::(.+?))?====$/;

export function parseScenario(text: string): Section[] {
  const sections: Section[] = [];
  let current: Section | undefined;
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  for (const line of lines) {
    const m = HEADER.exec(line);
    if (m) {
      current = { name: m[1], arg: m[2], body: '' };
      sections.push(current);
    } else if (current) {
      current.body += line + '\n';
    }
  }
  // The line break before the next header (or the end of the file) belongs to the format.
  for (const s of sections) s.body = s.body.replace(/\n$/, '');
  return sections;
}

export function serializeScenario(sections: Section[]): string {
  return sections.map((s) => `====${s.name}${s.arg ? `:${s.arg}` : ''}====\n${s.body}\n`).join('');
}

/** Splits a command line on spaces, honouring single and double quotes. */
export function splitCommand(command: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(command); m; m = re.exec(command)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}
