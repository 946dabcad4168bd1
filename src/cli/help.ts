import { RULE_IDS, RULES } from '../core';
import { DEFAULT_CACHE_DIR } from './cache';
import { IGNORE_FILE } from './files';
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
    `Usage: ${TOOL_NAME} [options] <files, folders or globs...>`,
    `       ${TOOL_NAME} --stdin --stdin-filename <path> [options]`,
    `       ${TOOL_NAME} report [options] <files or folders...>`,
    `       ${TOOL_NAME} init [--force] [folder]`,
    `       ${TOOL_NAME} import <agentdojo|injecagent|agentharm|asb> <source> --out <dir> [--suite NAME] [--force] [--dry-run]`,
    '',
    'Lints LITMUS agent-safety benchmark suites: case files (*.litmus.json, *.litmus.jsonc,',
    '*.litmus.jsonl), tool-schema files (*.tools.json), environment files (*.env.json),',
    'litmus.config.json, litmus.harness.json and *.scores.json. Folders are searched recursively',
    '(node_modules and .git are skipped).',
    '',
    '`import` converts AgentDojo, InjecAgent, AgentHarm or Agent Security Bench into LITMUS files',
    `(${TOOL_NAME} import --help, docs/import.md).`,
    '',
    'Options:',
    `  -f, --format <name>[:<file>]  output format: ${FORMAT_NAMES.join(', ')} (default: stylish);`,
    '                                repeatable, each to its own file (--format sarif:out.sarif --format stylish)',
    '  -o, --output-file <file>      (or --output) write the report of the one format without a file there',
    '      --fail-severity <level>   error or warning: the lowest severity that fails the run (default: error)',
    '      --max-warnings <n>        also fail when there are more than n warnings',
    '  -c, --config <file>           use this litmus.config.json instead of the nearest one',
    '      --rule <id>:<severity>    set a rule\'s severity (error, warning, info, hint, off) over any config; repeatable',
    '      --print-config <file>     print the config that applies to the file, as JSON, and lint nothing',
    '  -q, --quiet                   report errors only (and no notes on standard error)',
    '      --hints                   stylish: list hints (confirmed labels) and out-of-scope notices instead of counting them',
    '      --no-inline-config        apply no in-source suppressions (litmus-disable comments, x-litmus-disable)',
    '      --fix                     apply every unambiguous fix, print what changed, report what remains',
    '      --fix-dry-run             compute the fixes and show them (json: each file\'s `output`), write nothing',
    '      --stdin                   lint standard input as the file --stdin-filename names (with --fix: print the fixed text)',
    '      --stdin-filename <path>   the file standard input stands for: its kind, config and workspace',
    '      --ignore-pattern <pat>    ignore files matching this gitignore pattern (repeatable)',
    `      --no-ignore               apply neither ${IGNORE_FILE} files nor --ignore-pattern`,
    '      --no-plugins              load no plugins named in litmus.config.json (lint an untrusted suite)',
    '      --color, --no-color       force colour on or off (default: on a terminal, unless NO_COLOR)',
    '      --cache                   reuse results while no file the lint reads has changed',
    `      --cache-location <path>   the cache file or folder (default: ${DEFAULT_CACHE_DIR})`,
    '      --baseline <file>         report only findings the baseline file does not list',
    '      --write-baseline <file>   write the current findings to a baseline file (they are then accepted)',
    '      --base-path <dir>         SARIF: the folder result paths are relative to (default: the git root, else the working directory)',
    '      --category <name>         SARIF: the run\'s category (automationDetails.id), to keep several uploads apart',
    '  -v, --version                 print the version',
    '  -h, --help                    print this help',
    '',
    `Paths may be files, folders or glob patterns (quote them: '${'suites/**/*.litmus.json'}').`,
    `A ${IGNORE_FILE} file (gitignore syntax) in the working directory or a folder linted leaves files out.`,
    '',
    'Exit status: 0 nothing at or above --fail-severity, 1 something is (or too many warnings), 2 usage error or internal failure.',
    '',
    'Rules (id, default severity, what it catches):',
    ...rules,
    '',
  ].join('\n');
}
