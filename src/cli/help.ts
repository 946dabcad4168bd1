import { RULE_IDS, RULES } from '../core';
import { FORMAT_NAMES } from './format/index';
import { TOOL_NAME } from './version';

/** `--help`: usage, options, exit codes, and the rule list from the registry. */
export function helpText(): string {
  const width = Math.max(...RULE_IDS.map((id) => id.length));
  const rules = RULE_IDS.map((id) => {
    const m = RULES.get(id)!;
    return `  ${id.padEnd(width)}  ${m.defaultSeverity.padEnd(7)}  ${m.description}`;
  });
  return [
    `Usage: ${TOOL_NAME} [options] <files or folders...>`,
    `       ${TOOL_NAME} report [options] <files or folders...>`,
    `       ${TOOL_NAME} import <agentdojo|injecagent|agentharm|asb> <source> --out <dir> [--suite NAME] [--force] [--dry-run]`,
    '',
    'Lints LITMUS agent-safety benchmark suites: case files (*.litmus.json, *.litmus.jsonc,',
    '*.litmus.jsonl), tool-schema files (*.tools.json), litmus.config.json, litmus.harness.json and',
    '*.scores.json. Folders are searched recursively (node_modules and .git are skipped).',
    '',
    '`import` converts AgentDojo, InjecAgent, AgentHarm or Agent Security Bench into LITMUS files',
    `(${TOOL_NAME} import --help, docs/import.md).`,
    '',
    'Options:',
    `  -f, --format <name>           output format: ${FORMAT_NAMES.join(', ')} (default: stylish)`,
    '  -o, --output <file>           write the report to a file instead of standard output',
    '      --fail-severity <level>   error or warning: the lowest severity that fails the run (default: error)',
    '  -c, --config <file>           use this litmus.config.json instead of the nearest one',
    '  -q, --quiet                   report errors only',
    '      --fix                     apply every unambiguous fix, print what changed, report what remains',
    '      --base-path <dir>         SARIF: the folder result paths are relative to (default: the git root, else the working directory)',
    '      --category <name>         SARIF: the run\'s category (automationDetails.id), to keep several uploads apart',
    '  -v, --version                 print the version',
    '  -h, --help                    print this help',
    '',
    'Exit status: 0 nothing at or above --fail-severity, 1 something is, 2 usage error or internal failure.',
    '',
    'Rules (id, default severity, what it catches):',
    ...rules,
    '',
  ].join('\n');
}
