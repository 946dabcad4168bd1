/**
 * GitHub Actions reads a line of a job's log as a workflow command when, after leading white space,
 * it starts with `::` (`::error file=…::…` makes an annotation, `::stop-commands::<token>` switches
 * command processing off until the token comes back), and when it holds `##[` anywhere (the older
 * `##[error]` form). Suite text printed in a CI log (a family name, a file name, a payload excerpt)
 * could do either. Every human-readable output goes through `neutraliseWorkflowCommands`, which
 * writes the one character that would complete a command in the `\u{…}` notation `escapeText`
 * already uses for hidden characters: `\u{3A}:error …`, `##\u{5B}error]`. Nothing else changes, and
 * a line the linter writes itself never starts with `::` or holds `##[`.
 */

/** `::` at the start of a line, after white space as .NET's `TrimStart` reads it (and our own ANSI colour codes). */
const COMMAND_LINE = /^((?:[\s\u0085]|\u001b\[[0-9;]*m)*):(?=:)/gmu;
const LEGACY_COMMAND = /##\[/g;

export function neutraliseWorkflowCommands(text: string): string {
  if (!text.includes('::') && !text.includes('##[')) return text;
  return text.replace(COMMAND_LINE, '$1\\u{3A}').replace(LEGACY_COMMAND, '##\\u{5B}');
}

/**
 * The same for JSON text, without changing what it means: `##[` can only stand inside a string
 * there, where `[` may be written `\u005b`. (A JSON line never starts with `::`: keys and values are
 * quoted.) For machine formats that a CI job prints to its log.
 */
export function neutraliseWorkflowCommandsInJson(json: string): string {
  return json.includes('##[') ? json.replace(LEGACY_COMMAND, '##\\u005b') : json;
}
