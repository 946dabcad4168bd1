import { aggregateContamination } from './aggregate-contamination';
import { driftEndpointOverlap } from './drift-endpoint-overlap';
import { harnessIsolation } from './harness-isolation';
import { missingSafeCompletion } from './missing-safe-completion';
import { mutationBudget } from './mutation-budget';
import { refusalOrthogonality } from './refusal-orthogonality';
import { scopeContradiction } from './scope-contradiction';
import { signatureOverlap } from './signature-overlap';
import { unsatisfiableSafeCompletion } from './unsatisfiable-safe-completion';
import { unsatisfiableToolContract } from './unsatisfiable-tool-contract';
import { duplicateId } from './duplicate-id';
import { parseError } from './parse-error';
import { schema } from './schema';
import type { Rule } from './types';
import { unresolvedReference } from './unresolved-reference';

/** Every rule, in the order they run. Their metadata lives in registry.ts. */
export const ALL_RULES: readonly Rule[] = [parseError, schema, duplicateId, unresolvedReference, signatureOverlap, refusalOrthogonality, driftEndpointOverlap, scopeContradiction, mutationBudget, missingSafeCompletion, unsatisfiableSafeCompletion, unsatisfiableToolContract, harnessIsolation, aggregateContamination];
