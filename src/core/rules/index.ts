import { duplicateId } from './duplicate-id';
import { parseError } from './parse-error';
import { schema } from './schema';
import type { Rule } from './types';
import { unresolvedReference } from './unresolved-reference';

/** Every rule, in the order they run. Their metadata lives in registry.ts. */
export const ALL_RULES: readonly Rule[] = [parseError, schema, duplicateId, unresolvedReference];
