import type { z } from 'zod';
import {
  MAX_TEST_PAIRS,
  parameterNames,
  type actionDefinitionInputSchema,
  type ActionTestBody,
} from '@cfs/contracts/action-definitions';
import { isBuiltInActionType } from '@cfs/contracts/action-definitions';
import type { ActionDefinition } from './api';

export type ActionDefinitionFormValues = z.input<typeof actionDefinitionInputSchema>;

/** Spec 002 §9: a body is JSON by default; the hint shows a placeholder in use. */
export const BODY_HINT = '{\n  "message": "{Message}"\n}';

/** The form's values of a saved action, or of a new one (POST, no type chosen yet). */
export function actionFormValues(
  definition: ActionDefinition | undefined,
  tenantId: string | null,
): ActionDefinitionFormValues {
  return {
    name: definition?.name ?? '',
    description: definition?.description ?? '',
    // No type until the user picks one: 'This field is required.' (spec 002 §5).
    actionDefinitionTypeId: definition?.actionDefinitionTypeId as number,
    tenantId: definition ? definition.tenantId : tenantId,
    inputParameters: definition?.inputParameters ?? '',
    endpointUrl: definition?.endpointUrl ?? '',
    httpMethod: (definition?.httpMethod ?? 'POST') as ActionDefinitionFormValues['httpMethod'],
    headers: definition?.headers ?? '',
    body: definition?.body ?? '',
  };
}

/** Built-in actions (types 1, 5, 6) are the portal's own: shown, never saved or deleted (spec 002 §3). */
export const isReadOnlyAction = (definition: Pick<ActionDefinition, 'actionDefinitionTypeId'> | undefined): boolean =>
  definition !== undefined && isBuiltInActionType(definition.actionDefinitionTypeId);

export interface TestPair {
  param: string;
  value: string;
}

/** One more extra pair while fewer than seven are shown (spec 002 §5). */
export const canAddTestPair = (pairs: readonly TestPair[]): boolean => pairs.length < MAX_TEST_PAIRS;

/**
 * The test's body: a value for every parameter the action names (empty when not typed) and the
 * extra pairs that name a parameter; the action's tenant when it has one.
 */
export function testBody(
  inputParameters: string | null,
  values: Readonly<Record<string, string>>,
  pairs: readonly TestPair[],
  tenantId: string | null,
): ActionTestBody {
  const parameters: Record<string, string> = {};
  for (const name of parameterNames(inputParameters)) parameters[name] = values[name] ?? '';
  const extra = pairs
    .map((pair) => ({ param: pair.param.trim(), value: pair.value }))
    .filter((pair) => pair.param !== '')
    .slice(0, MAX_TEST_PAIRS);
  return { ...(tenantId ? { tenantId } : {}), parameters, extra };
}

/** Headers as the detail dialog lists them: `Name: Value` lines. */
export function headerLines(headers: Readonly<Record<string, string>> | null | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** How long a run took: "840 ms", "2.4 s". */
export function durationText(durationMs: number | null | undefined): string {
  if (durationMs === null || durationMs === undefined) return '—';
  return durationMs < 1000 ? `${durationMs} ms` : `${(durationMs / 1000).toFixed(1)} s`;
}
