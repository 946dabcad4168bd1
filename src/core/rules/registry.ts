import { ALL_RULES } from './index';
import type { RuleMeta } from './types';

export type { RuleMeta } from './types';

export const DOCS_BASE_URL = 'https://github.com/litmus-lint/litmus-lint/blob/main/docs/rules/';

/** One string per rule: every finding carries its link. */
const docsUrls = new Map<string, string>();

export function docsUrl(id: string): string {
  let url = docsUrls.get(id);
  if (url === undefined) docsUrls.set(id, (url = `${DOCS_BASE_URL}${id}.md`));
  return url;
}

/** Every rule's metadata, read from the rule modules themselves, in the order the rules run. */
export const RULES: ReadonlyMap<string, RuleMeta> = new Map(ALL_RULES.map((r) => [r.meta.id, r.meta]));
export const RULE_IDS: readonly string[] = ALL_RULES.map((r) => r.meta.id);

export function ruleMeta(id: string): RuleMeta {
  const meta = RULES.get(id);
  if (!meta) throw new Error(`unregistered rule: ${id}`);
  return meta;
}
