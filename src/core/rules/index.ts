import { aggregateContamination } from './aggregate-contamination';
import { benignContamination } from './benign-contamination';
import { injectionPayload } from './injection-payload';
import { staleInjectionField } from './stale-injection-field';
import { driftEndpointOverlap } from './drift-endpoint-overlap';
import { harnessIsolation } from './harness-isolation';
import { missingSafeCompletion } from './missing-safe-completion';
import { mutationBudget } from './mutation-budget';
import { missingArm } from './missing-arm';
import { unsafeSafeCompletion } from './unsafe-safe-completion';
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
import { unusedSuppression } from './unused-suppression';
import { unscoredAttack } from './unscored-attack';
import { principalConfusion } from './principal-confusion';
import { vacuousControl } from './vacuous-control';
import { missingPayload } from './missing-payload';
import { duplicateCase } from './duplicate-case';

/**
 * Every rule, in the order they run: the one list a new rule is added to. Each module carries its
 * own `meta`; registry.ts reads it from here.
 */
export const ALL_RULES: readonly Rule[] = [parseError, schema, duplicateId, unresolvedReference, injectionPayload, benignContamination, staleInjectionField, signatureOverlap, refusalOrthogonality, driftEndpointOverlap, scopeContradiction, missingArm, mutationBudget, missingSafeCompletion, unsatisfiableSafeCompletion, unsafeSafeCompletion, unscoredAttack, principalConfusion, vacuousControl, missingPayload, duplicateCase, unsatisfiableToolContract, harnessIsolation, aggregateContamination, unusedSuppression];
