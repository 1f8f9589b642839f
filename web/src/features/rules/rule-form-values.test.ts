import { describe, expect, it } from 'vitest';
import { BUILT_IN_ACTIONS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { RULE_MESSAGES } from '@cfs/contracts/rules';
import type { ResolverOptions } from 'react-hook-form';
import {
  emptyCondition,
  formPathOf,
  ruleFormResolver,
  recoveryDropped,
  ruleFormValues,
  toRuleInput,
  withTenantCondition,
  type RuleFormValues,
} from './rule-form-values';

const tenantId = '6f1a2c3e-8b4d-4e5f-9a6b-7c8d9e0f1a2b';
const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<RuleFormValues>;
const valid = (): RuleFormValues => ({
  ...ruleFormValues(undefined, tenantId),
  name: 'High CPU',
  ruleTypeId: RULE_TYPES.Ingestion,
  conditions: [...withTenantCondition([], tenantId), { ...emptyCondition(), LeftOperand: 1, RightOperand: 'down' }],
  matchActions: [{ ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } }],
});
const messages = async (values: RuleFormValues) => {
  const result = await ruleFormResolver(values, undefined, options);
  return JSON.parse(JSON.stringify(result.errors)) as Record<string, unknown>;
};

describe('the rule form', () => {
  it('starts a new rule enabled, with a 5-minute lifetime, every day and New York, and the tenant condition first (spec 002 §4, §5)', () => {
    const values = ruleFormValues(undefined, tenantId);
    expect(values).toMatchObject({
      enabled: true,
      matchLifetime: '00:05:00',
      timeLimited: false,
      time: { TimeZoneId: 'America/New_York', DaysOfWeek: [0, 1, 2, 3, 4, 5, 6] },
    });
    expect(values.conditions).toEqual([
      {
        Type: 0,
        LeftOperand: 20,
        LeftOperandFieldName: null,
        Operator: OPERATORS.Equals,
        RightOperand: tenantId,
        OccurrencePattern: null,
      },
    ]);
  });

  it('adds, replaces and removes the tenant condition with the tenant', () => {
    const other = { ...emptyCondition(), LeftOperand: 1, RightOperand: 'x' };
    const withOne = withTenantCondition([other], tenantId);
    expect(withOne.map((condition) => condition.LeftOperand)).toEqual([20, 1]);
    const changed = withTenantCondition(withOne, '8e7d6c5b-4a3f-4e2d-8c1b-0a9f8e7d6c5b');
    expect(changed[0]!.RightOperand).toBe('8e7d6c5b-4a3f-4e2d-8c1b-0a9f8e7d6c5b');
    expect(changed).toHaveLength(2);
    expect(withTenantCondition(changed, null)).toEqual([other]);
  });

  it('sends timeConditions as null when the switch is off, and as JSON text when on', () => {
    expect(toRuleInput(valid()).timeConditions).toBeNull();
    const on = toRuleInput({
      ...valid(),
      timeLimited: true,
      time: { ...valid().time, DaysOfWeek: [3, 1], DailyStartTime: '08:00:00' },
    });
    expect(JSON.parse(on.timeConditions ?? '')).toMatchObject({
      TimeZoneId: 'America/New_York',
      DaysOfWeek: [1, 3],
      DailyStartTime: '08:00:00',
      DaysOfMonth: null,
    });
  });

  it('says when an occurrence pattern would drop a recovering rule’s Pending For and recovery conditions, and keeps them in the form', () => {
    const recovering: RuleFormValues = {
      ...valid(),
      closesOn: 'recovery',
      pendingFor: '00:00:30',
      ownRecovery: true,
      recoveryConditions: [{ ...emptyCondition(), LeftOperand: 1, RightOperand: 'up' }],
    };
    expect(recoveryDropped(recovering)).toBe(false);
    expect(toRuleInput(recovering)).toMatchObject({ closesOn: 'recovery', pendingFor: '00:00:30' });
    const patterned = {
      ...recovering,
      conditions: recovering.conditions.map((condition, index) =>
        index === 1 ? { ...condition, OccurrencePattern: '3/3' } : condition,
      ),
    };
    expect(recoveryDropped(patterned)).toBe(true);
    expect(toRuleInput(patterned)).toMatchObject({ closesOn: 'expiry', pendingFor: null, recoveryConditions: null });
    // A rule that closes when its lifetime runs out, or of another type, loses nothing.
    expect(recoveryDropped({ ...patterned, closesOn: 'expiry' })).toBe(false);
    expect(recoveryDropped({ ...patterned, ruleTypeId: RULE_TYPES.History })).toBe(false);
  });

  it('drops the value of IsEmpty and IsNotEmpty conditions', () => {
    const values = valid();
    values.conditions[1] = { ...values.conditions[1]!, Operator: OPERATORS.IsEmpty, RightOperand: 'left over' };
    expect(toRuleInput(values).conditions[1]!.RightOperand).toBeNull();
  });

  it('puts the spec’s messages on the form’s fields', async () => {
    expect(await messages(valid())).toEqual({});
    const errors = await messages({
      ...valid(),
      name: '',
      ruleTypeId: null,
      matchLifetime: '00:01:00',
      conditions: [],
    });
    expect(errors).toMatchObject({
      name: { message: RULE_MESSAGES.nameRequired },
      ruleTypeId: { message: 'Please select a Rule Type' },
      matchLifetime: { message: 'Must be at least 5 minutes.' },
      conditions: { message: 'Condtions are required for rules.' },
    });
    const maintenance = {
      ...valid(),
      ruleTypeId: RULE_TYPES.Maintenance,
      conditions: [...withTenantCondition([], tenantId)],
    };
    expect(await messages(maintenance)).toMatchObject({
      timeLimited: { message: 'Time limitations are required for Maintenance rules.' },
    });
    const noDays = await messages({ ...maintenance, timeLimited: true, time: { ...maintenance.time, DaysOfWeek: [] } });
    expect(noDays).toMatchObject({
      time: { DaysOfWeek: { message: 'At least one day should be selected when using a Maintenance rule.' } },
    });
    const noZone = await messages({
      ...valid(),
      timeLimited: true,
      time: { ...valid().time, TimeZoneId: '', StartRange: 'invalid' },
    });
    expect(noZone).toMatchObject({
      time: {
        TimeZoneId: { message: 'A timezone is required.' },
        StartRange: { message: 'Please enter a valid date' },
      },
    });
  });

  it('maps the server’s time limitation fields onto the form’s', () => {
    expect(formPathOf('timeConditions')).toBe('timeLimited');
    expect(formPathOf('timeConditions.DaysOfWeek')).toBe('time.DaysOfWeek');
    expect(formPathOf('conditions.1.RightOperand')).toBe('conditions.1.RightOperand');
  });
});
