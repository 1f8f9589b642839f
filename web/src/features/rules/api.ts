import { useQuery } from '@tanstack/react-query';
import type { LeftOperandType } from '@cfs/contracts/monitoring';
import type {
  ConditionInputOption,
  LeftOperandOption,
  OccurrenceOption,
  OperatorOption,
  RuleActionDefinition,
} from '@cfs/contracts/rule-options';
import {
  RULE_MESSAGES,
  type Rule as RuleEntity,
  type RuleInput,
  type RuleTestRequest,
  type RuleTestResult,
  type RuleValues,
} from '@cfs/contracts/rules';
import type { NamedOption } from '@cfs/contracts/shell';
import { apiGet, apiSend } from '../../lib/api-client';
import { notFoundError, pathId } from '../../lib/ids';
import { isGuid } from '@cfs/contracts/values/odata';
import type { JsonOf } from '../../lib/json-types';
import { listQueryKey } from '../../lib/list-api';
import { useApiMutation } from '../../lib/mutations';

/** Rules (spec 002 §7 Rules) and the rule editor's lookups (spec 000 §7). */
export const RULES_PATH = '/v1/rules';

export type Rule = JsonOf<RuleEntity> & { tenant?: { name: string } | null; subscription?: { name: string } | null };

const ruleKey = (id: string) => ['rule', id] as const;
const invalidate = [listQueryKey(RULES_PATH), ['rule']];
/** Lookups that do not change while the portal runs. */
const FIXED = { staleTime: Infinity, gcTime: Infinity } as const;

/** The id comes from the address (`?ruleId=`): checked, and encoded into the path. */
export function useRule(id: string | null) {
  return useQuery({
    queryKey: ruleKey(id ?? ''),
    queryFn: ({ signal }) =>
      isGuid(id) ? apiGet<Rule>(`${RULES_PATH}/${pathId(id)}`, undefined, { signal }) : Promise.reject(notFoundError()),
    enabled: id !== null && id !== 'new',
  });
}

export function useSaveRule(id: string) {
  return useApiMutation({
    mutationFn: (input: RuleValues | RuleInput) =>
      id === 'new'
        ? apiSend<Rule>('PUT', RULES_PATH, input)
        : apiSend<Rule>('POST', `${RULES_PATH}/${pathId(id)}`, input),
    invalidate,
    errorMessage: RULE_MESSAGES.saveFailed,
  });
}

/** Spec 002 §8: a failed toggle shows the server's text. */
export function useToggleRule() {
  return useApiMutation({
    mutationFn: (rule: Rule) => apiSend<Rule>('POST', `${RULES_PATH}/${pathId(rule.ruleId)}/toggledisabled`),
    invalidate,
    successMessage: (saved) => (saved.enabled ? 'Rule enabled.' : 'Rule disabled.'),
    errorMessage: (error) => error.message,
  });
}

/** Spec 002 §4: the copy is created disabled. */
export function useCopyRule() {
  return useApiMutation({
    mutationFn: (rule: Rule) => apiSend<Rule>('POST', `${RULES_PATH}/${pathId(rule.ruleId)}/copy`),
    invalidate,
    successMessage: 'Rule copied. The copy is disabled.',
    errorMessage: (error) => error.message,
  });
}

export function useDeleteRule() {
  return useApiMutation({
    mutationFn: (rule: Rule) => apiSend<{ message: string }>('DELETE', `${RULES_PATH}/${pathId(rule.ruleId)}`),
    invalidate,
    successMessage: RULE_MESSAGES.deleted,
    errorMessage: RULE_MESSAGES.deleteFailed,
  });
}

/** POST v1/rules/test: what the unsaved rule would have done over the window (no toast: the panel shows the failure). */
export function useTestRule() {
  return useApiMutation({
    mutationFn: (request: RuleTestRequest) => apiSend<RuleTestResult>('POST', `${RULES_PATH}/test`, request),
  });
}

export function useRuleTypes() {
  return useQuery({
    queryKey: ['rulelookup', 'ruletypes'],
    queryFn: ({ signal }) => apiGet<NamedOption[]>('/api/generalLookup/ruletypes', undefined, { signal }),
    ...FIXED,
  });
}

export function useOperators() {
  return useQuery({
    queryKey: ['rulelookup', 'operators'],
    queryFn: ({ signal }) => apiGet<OperatorOption[]>('/api/generalLookup/operators', undefined, { signal }),
    ...FIXED,
  });
}

export function useOccurrenceOptions() {
  return useQuery({
    queryKey: ['rulelookup', 'occurrences'],
    queryFn: ({ signal }) => apiGet<OccurrenceOption[]>('/api/generalLookup/occuranceoptions', undefined, { signal }),
    ...FIXED,
  });
}

export function useTimeZones() {
  return useQuery({
    queryKey: ['rulelookup', 'timezones'],
    queryFn: ({ signal }) => apiGet<string[]>('/api/generalLookup/timezones', undefined, { signal }),
    ...FIXED,
  });
}

/** What a condition of the rule type may read; none until a type is chosen. */
export function useLeftOperands(ruleTypeId: number | null | undefined, tenantId: string | null) {
  return useQuery({
    queryKey: ['rulelookup', 'leftoperands', ruleTypeId ?? 0, tenantId ?? ''],
    queryFn: ({ signal }) =>
      apiGet<LeftOperandOption[]>(
        '/api/generalLookup/ruleleftoperands',
        { ruleType: ruleTypeId ?? 0, ...(isGuid(tenantId) ? { tenantId } : {}) },
        { signal },
      ),
    enabled: typeof ruleTypeId === 'number',
    staleTime: 5 * 60_000,
  });
}

/** The choices of a condition's value for a kind of operand, from what the tenant has. */
export function useConditionInputOptions(
  routeTenantId: string,
  type: LeftOperandType | undefined,
  ruleTenantId: string | null,
  enabled: boolean,
) {
  return useQuery({
    queryKey: ['rulelookup', 'conditionInputOptions', routeTenantId, type ?? '', ruleTenantId ?? ''],
    queryFn: ({ signal }) =>
      apiGet<ConditionInputOption[]>(
        `/api/${pathId(routeTenantId)}/rulelookup/conditionInputOptions/${pathId(type ?? '')}`,
        isGuid(ruleTenantId) ? { tenantId: ruleTenantId } : undefined,
        { signal },
      ),
    enabled: enabled && isGuid(routeTenantId) && type !== undefined,
    staleTime: 60_000,
  });
}

/** GET v1/actionDefinitions/GetActionDefinitionsForRules(tenantId=): the actions a rule of the tenant may run. */
export function useRuleActionDefinitions(tenantId: string) {
  return useQuery({
    queryKey: ['rulelookup', 'actionDefinitions', tenantId],
    queryFn: ({ signal }) =>
      apiGet<RuleActionDefinition[]>(
        `/v1/actionDefinitions/GetActionDefinitionsForRules(tenantId=${pathId(tenantId)})`,
        undefined,
        { signal },
      ),
    enabled: isGuid(tenantId),
    staleTime: 60_000,
  });
}
