import { mergeConfig, type ResolvedConfig, RULE_IDS, closest, type SeveritySetting, type WorkspaceIndex } from '../core';
import { UsageError } from './args';

const WORDS: Record<string, SeveritySetting> = { error: 'error', warning: 'warning', warn: 'warning', info: 'info', hint: 'hint', off: 'off' };

/**
 * `--rule id:severity` (repeatable; a later one for the same rule wins). An unknown rule id or
 * severity word is a usage error naming the close matches, so a typo never silently does nothing.
 */
export function parseRuleOptions(specs: readonly string[]): Record<string, SeveritySetting> {
  const out: Record<string, SeveritySetting> = {};
  for (const spec of specs) {
    const colon = spec.indexOf(':');
    if (colon < 0) throw new UsageError(`--rule takes id:severity, e.g. --rule signature-overlap:warning, not '${spec}'`);
    const id = spec.slice(0, colon).trim();
    const word = spec.slice(colon + 1).trim().toLowerCase();
    // `namespace/rule` names a plugin's rule (docs/plugins.md), known only once plugins load.
    if (!RULE_IDS.includes(id) && !/^[a-z0-9][a-z0-9-]*\/[a-z0-9][a-z0-9-]*$/.test(id)) {
      let near = closest(id, RULE_IDS);
      // A rule named by part of its id (`overlap`) is as plainly meant as a typo.
      if (!near.length && id.length >= 4) near = RULE_IDS.filter((r) => r.includes(id.toLowerCase()));
      throw new UsageError(`--rule: unknown rule '${id}'${near.length ? `; did you mean ${near.map((n) => `'${n}'`).join(' or ')}?` : ''} (the rules are listed by --help)`);
    }
    const severity = WORDS[word];
    if (!severity) throw new UsageError(`--rule ${id}: unknown severity '${word}'; use error, warning, info, hint or off`);
    out[id] = severity;
  }
  return out;
}

/**
 * Puts the command line's rule severities over whatever config applies to each file: the
 * index's own `configFor` is wrapped in place, so every rule and every placement sees them.
 */
export function applyRuleOptions(index: WorkspaceIndex, rules: Record<string, SeveritySetting>): void {
  if (Object.keys(rules).length === 0) return;
  const original = index.configFor;
  const over = new WeakMap<ResolvedConfig, ResolvedConfig>();
  index.configFor = (uri) => {
    const base = original(uri);
    let merged = over.get(base);
    if (!merged) over.set(base, (merged = mergeConfig(base, { rules })));
    // mergeConfig keeps `source` from the base: the file that applies, with the flags on top.
    return merged;
  };
}
