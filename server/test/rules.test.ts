import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ACTIONS, LEFT_OPERANDS, OPERATORS, RULE_TYPES } from '@cfs/contracts/monitoring';
import { RULE_MESSAGES } from '@cfs/contracts/rules';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { createActionDefinitionAs, createDevice, createStaffedTenant, createTokenAs, unique } from './factories.js';
import { auditTrail, createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

type Condition = {
  Type: number;
  LeftOperand: number;
  LeftOperandFieldName: string | null;
  Operator: number;
  RightOperand: string | null;
  OccurrencePattern: string | null;
};
type Rule = {
  ruleId: string;
  name: string;
  enabled: boolean;
  tenantId: string | null;
  subscriptionId: string | null;
  ruleTypeId: number;
  matchLifetime: string;
  timeConditions: string | null;
  conditions: Condition[];
  matchActions: { ActionDefinitionId: string; Parameters: Record<string, string> }[];
  tenant?: { name: string } | null;
  subscription?: { name: string } | null;
};
type ErrorAnswer = { message: string; errors: Record<string, string[]> };

const stamp = () => Math.random().toString(36).slice(2, 8);
const valueCondition = (value = 'down') => ({
  Type: 0,
  LeftOperand: LEFT_OPERANDS.Value.id,
  Operator: OPERATORS.Equals,
  RightOperand: value,
});
const setRed = { ActionDefinitionId: BUILT_IN_ACTIONS.setColor.id, Parameters: { Color: 'Red' } };
const body = (values: Record<string, unknown> = {}) => ({
  name: `Rule ${stamp()}`,
  ruleTypeId: RULE_TYPES.Ingestion,
  tenantId: DEMO.contoso,
  matchLifetime: '00:05:00',
  conditions: [valueCondition()],
  matchActions: [setRed],
  ...values,
});
const create = (user: string, payload: Record<string, unknown>) =>
  portal.as(user, { method: 'PUT', url: '/v1/rules', payload });
const update = (user: string, ruleId: string, payload: Record<string, unknown>) =>
  portal.as(user, { method: 'POST', url: `/v1/rules/${ruleId}`, payload });
async function created(user: string, values: Record<string, unknown> = {}): Promise<Rule> {
  const response = await create(user, body(values));
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Rule>();
}
const list = async (user: string, query: string) => {
  const response = await portal.as(user, { method: 'GET', url: `/v1/rules?$count=true&$top=100&${query}` });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ '@odata.count': number; value: Rule[] }>();
};
/** The 400's text for one field. */
async function refusal(response: Awaited<ReturnType<typeof create>>, field: string): Promise<string[] | undefined> {
  expect(response.statusCode, response.body).toBe(400);
  return response.json<ErrorAnswer>().errors[field];
}

describe('rules: create, read, update', () => {
  it('creates a rule with its tenant condition first, lifetime as HH:mm:ss, and records it in the change history', async () => {
    const rule = await created('operator', {
      name: 'Disk almost full',
      matchLifetime: '01:30:00',
      subscriptionId: DEMO.contosoProduction,
      useSlidingExpiration: true,
    });
    expect(rule).toMatchObject({
      name: 'Disk almost full',
      enabled: true,
      tenantId: DEMO.contoso,
      subscriptionId: DEMO.contosoProduction,
      matchLifetime: '01:30:00',
      timeConditions: null,
    });
    expect(rule.conditions[0]).toEqual({
      Type: 0,
      LeftOperand: 20,
      LeftOperandFieldName: null,
      Operator: OPERATORS.Equals,
      RightOperand: DEMO.contoso,
      OccurrencePattern: null,
    });
    expect(rule.conditions[1]).toMatchObject({ LeftOperand: LEFT_OPERANDS.Value.id, RightOperand: 'down' });
    const stored = await portal.db
      .selectFrom('rule')
      .select('match_lifetime_seconds')
      .where('rule_id', '=', rule.ruleId)
      .executeTakeFirstOrThrow();
    expect(stored.match_lifetime_seconds).toBe(5400);
    const read = await portal.as('operator', { method: 'GET', url: `/v1/rules/${rule.ruleId}` });
    expect(read.json()).toMatchObject({ name: 'Disk almost full', createdBy: 'operator' });
    const audit = await auditTrail(portal.db, 'rule', rule.ruleId);
    expect(audit.map((row) => row.action)).toEqual(['create']);
  });

  it('keeps one tenant condition, first, when the form already sent it elsewhere', async () => {
    const tenantFirst = { Type: 1, LeftOperand: 20, Operator: OPERATORS.Equals, RightOperand: DEMO.contoso };
    const rule = await created('operator', { conditions: [valueCondition('a'), tenantFirst, valueCondition('b')] });
    expect(rule.conditions.map((condition) => condition.LeftOperand)).toEqual([20, 1, 1]);
    expect(rule.conditions[0]!.Type).toBe(0);
    expect(rule.conditions.map((condition) => condition.RightOperand)).toEqual([DEMO.contoso, 'a', 'b']);
  });

  it('drops the tenant condition with the tenant, and refuses one naming another tenant', async () => {
    const rule = await created('admin');
    const cleared = await update(
      'admin',
      rule.ruleId,
      body({ name: rule.name, tenantId: null, conditions: [valueCondition()] }),
    );
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<Rule>().conditions.map((condition) => condition.LeftOperand)).toEqual([1]);
    const mismatch = await create(
      'operator',
      body({ conditions: [{ LeftOperand: 20, Operator: 1, RightOperand: DEMO.fabrikam }, valueCondition()] }),
    );
    expect(await refusal(mismatch, 'conditions.0.RightOperand')).toEqual([RULE_MESSAGES.tenantConditionMismatch]);
  });

  it('updates a rule, stores its time limitations as JSON and answers them as JSON text, and records what changed', async () => {
    const rule = await created('operator');
    const time = {
      TimeZoneId: 'America/New_York',
      DaysOfWeek: [1, 2, 3],
      DailyStartTime: '08:00:00',
      DailyEndTime: '17:00:00',
      StartRange: null,
      EndRange: null,
      DaysOfMonth: null,
    };
    const response = await update(
      'operator',
      rule.ruleId,
      body({ name: `${rule.name} edited`, timeConditions: JSON.stringify(time), matchLifetime: '00:10:00' }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const saved = response.json<Rule>();
    expect(JSON.parse(saved.timeConditions ?? 'null')).toEqual(time);
    expect(saved.matchLifetime).toBe('00:10:00');
    const row = (await list('operator', `$filter=ruleId eq ${rule.ruleId}`)).value[0]!;
    expect(JSON.parse(row.timeConditions ?? 'null')).toEqual(time);
    expect(row.matchLifetime).toBe('00:10:00');
    const audit = await auditTrail(portal.db, 'rule', rule.ruleId);
    expect(audit.map((entry) => entry.action)).toEqual(['create', 'update']);
    expect(audit[1]!.changes).toMatchObject({
      name: { from: rule.name, to: `${rule.name} edited` },
      matchLifetime: { from: '00:05:00', to: '00:10:00' },
    });
  });

  it('sends an empty time limitation as null', async () => {
    const rule = await created('operator', { timeConditions: '' });
    expect(rule.timeConditions).toBeNull();
  });
});

describe('rules: the list', () => {
  it('lists by name with tenant and subscription expanded, enabled ones by the grid’s filter, searched by name', async () => {
    const tag = stamp();
    const staff = await createStaffedTenant(portal);
    const own = { tenantId: staff.tenantId };
    await created(staff.userName, { ...own, name: `B ${tag}`, subscriptionId: staff.subscriptionId });
    await created(staff.userName, { ...own, name: `A ${tag}`, enabled: false });
    const all = await list(staff.userName, `$expand=tenant,subscription&$filter=contains(tolower(name),'${tag}')`);
    expect(all.value.map((row) => row.name)).toEqual([`A ${tag}`, `B ${tag}`]);
    expect(all.value[1]).toMatchObject({
      tenant: { name: staff.name },
      subscription: { name: staff.subscriptionName },
    });
    const enabled = await list(staff.userName, `$filter=enabled eq true and contains(tolower(name),'${tag}')`);
    expect(enabled.value.map((row) => row.name)).toEqual([`B ${tag}`]);
  });

  it('shows a tenant its own rules and the installation’s, never another tenant’s', async () => {
    const shared = await created('admin', { tenantId: null, name: `Shared ${stamp()}` });
    const fabrikam = await created('operator2', { tenantId: DEMO.fabrikam, name: `Fabrikam ${stamp()}` });
    const seen = (await list('operator', '$orderby=name')).value.map((row) => row.ruleId);
    expect(seen).toContain(shared.ruleId);
    expect(seen).not.toContain(fabrikam.ruleId);
    expect(
      (await list('operator', '')).value.every((row) => row.tenantId === null || row.tenantId === DEMO.contoso),
    ).toBe(true);
  });
});

describe('rules: the spec’s validation messages (002 §5 Rule)', () => {
  it('"Please enter a rule name"', async () => {
    expect(await refusal(await create('operator', body({ name: ' ' })), 'name')).toEqual([RULE_MESSAGES.nameRequired]);
    expect(RULE_MESSAGES.nameRequired).toBe('Please enter a rule name');
  });

  it('"Please select a Rule Type"', async () => {
    expect(await refusal(await create('operator', body({ ruleTypeId: undefined })), 'ruleTypeId')).toEqual([
      'Please select a Rule Type',
    ]);
    expect(await refusal(await create('operator', body({ ruleTypeId: 9 })), 'ruleTypeId')).toEqual([
      'Please select a Rule Type',
    ]);
  });

  it('"Lifetime is required" and a lifetime of at least 5 minutes', async () => {
    expect(await refusal(await create('operator', body({ matchLifetime: '' })), 'matchLifetime')).toEqual([
      'Lifetime is required',
    ]);
    expect(await refusal(await create('operator', body({ matchLifetime: undefined })), 'matchLifetime')).toEqual([
      'Lifetime is required',
    ]);
    expect(await refusal(await create('operator', body({ matchLifetime: '00:04:59' })), 'matchLifetime')).toEqual([
      'Must be at least 5 minutes.',
    ]);
  });

  it('"Condtions are required for rules."', async () => {
    expect(await refusal(await create('operator', body({ conditions: [] })), 'conditions')).toEqual([
      'Condtions are required for rules.',
    ]);
    expect(await refusal(await create('operator', body({ conditions: undefined })), 'conditions')).toEqual([
      'Condtions are required for rules.',
    ]);
  });

  it('"Time limitations are required for Maintenance rules." and "At least one day should be selected when using a Maintenance rule."', async () => {
    const maintenance = {
      ruleTypeId: RULE_TYPES.Maintenance,
      conditions: [
        { LeftOperand: LEFT_OPERANDS.Device.id, Operator: OPERATORS.Equals, RightOperand: crypto.randomUUID() },
      ],
    };
    expect(await refusal(await create('operator', body(maintenance)), 'timeConditions')).toEqual([
      'Time limitations are required for Maintenance rules.',
    ]);
    const noDay = await create(
      'operator',
      body({ ...maintenance, timeConditions: JSON.stringify({ TimeZoneId: 'America/New_York', DaysOfWeek: [] }) }),
    );
    expect(await refusal(noDay, 'timeConditions.DaysOfWeek')).toEqual([
      'At least one day should be selected when using a Maintenance rule.',
    ]);
    const saved = await create(
      'operator',
      body({ ...maintenance, timeConditions: JSON.stringify({ TimeZoneId: 'America/New_York', DaysOfWeek: [6, 0] }) }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('"A timezone is required." and "Please enter a valid date"', async () => {
    expect(
      await refusal(
        await create('operator', body({ timeConditions: JSON.stringify({ TimeZoneId: '' }) })),
        'timeConditions.TimeZoneId',
      ),
    ).toEqual(['A timezone is required.']);
    expect(
      await refusal(
        await create('operator', body({ timeConditions: JSON.stringify({ DaysOfWeek: [1] }) })),
        'timeConditions.TimeZoneId',
      ),
    ).toEqual(['A timezone is required.']);
    const badDate = await create(
      'operator',
      body({ timeConditions: JSON.stringify({ TimeZoneId: 'Europe/Dublin', StartRange: 'not a date' }) }),
    );
    expect(await refusal(badDate, 'timeConditions.StartRange')).toEqual(['Please enter a valid date']);
  });

  it('refuses a tenant outside the caller’s and a subscription of another tenant', async () => {
    expect(
      await refusal(
        await create('operator', body({ tenantId: DEMO.fabrikam, conditions: [valueCondition()] })),
        'tenantId',
      ),
    ).toEqual(['Please choose a tenant.']);
    const foreign = await create('operator', body({ subscriptionId: DEMO.fabrikamProduction }));
    expect(await refusal(foreign, 'subscriptionId')).toEqual(["The subscription must belong to the rule's tenant."]);
    const tenantless = await create('admin', body({ tenantId: null, subscriptionId: DEMO.contosoProduction }));
    expect(await refusal(tenantless, 'subscriptionId')).toEqual(["The subscription must belong to the rule's tenant."]);
  });

  it('refuses a left operand the rule type does not offer', async () => {
    const response = await create(
      'operator',
      body({ conditions: [{ LeftOperand: LEFT_OPERANDS.WorkUnitEvent.id, Operator: 1, RightOperand: '1' }] }),
    );
    expect(await refusal(response, 'conditions.0.LeftOperand')).toEqual([RULE_MESSAGES.leftOperandNotForType]);
  });
});

describe('rules: actions and patterns', () => {
  it('accepts Set Colour, Create Work Unit and Send Email, and refuses a protocol-only action, an unknown one and another tenant’s', async () => {
    const createWorkUnit = {
      ActionDefinitionId: BUILT_IN_ACTIONS.createWorkUnit.id,
      Parameters: { SeverityId: '2', TenantId: DEMO.contoso, ProtocolId: '' },
    };
    const email = {
      ActionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
      Parameters: {
        Template: 'Simple',
        IsImportant: 'true',
        ExtraParameters: JSON.stringify({ To: 'oncall@contoso.example' }),
      },
    };
    const ok = await create('operator', body({ matchActions: [setRed, email], expirationActions: [createWorkUnit] }));
    expect(ok.statusCode, ok.body).toBe(200);
    const protocolOnly = await scoped(portal.db, ALL_TENANTS)
      .insertInto('action_definition', {
        tenant_id: DEMO.contoso,
        name: `Protocol only ${stamp()}`,
        action_definition_type_id: 2,
      })
      .returning('action_definition_id')
      .executeTakeFirstOrThrow();
    const notForRules = { ActionDefinitionId: protocolOnly.action_definition_id, Parameters: {} };
    const unknown = { ActionDefinitionId: crypto.randomUUID(), Parameters: {} };
    const other = await createStaffedTenant(portal, { name: `Hidden tenant ${unique()}` });
    const otherAction = await createActionDefinitionAs(portal, other.userName, other.tenantId, {
      name: `Hidden hook ${unique()}`,
    });
    const foreign = { ActionDefinitionId: otherAction.actionDefinitionId, Parameters: {} };
    const refused = await create(
      'operator',
      body({ matchActions: [setRed, notForRules], expirationActions: [unknown, foreign] }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ErrorAnswer>().errors).toEqual({
      'matchActions.1.ActionDefinitionId': [RULE_MESSAGES.actionNotForRules],
      'expirationActions.0.ActionDefinitionId': [RULE_MESSAGES.actionNotForRules],
      'expirationActions.1.ActionDefinitionId': [RULE_MESSAGES.actionNotForRules],
    });
    // The refusal names neither the other tenant nor its action.
    expect(refused.body).not.toContain(other.name);
    expect(refused.body).not.toContain(otherAction.name);
    expect(
      await refusal(
        await create('operator', body({ matchActions: [{ ActionDefinitionId: 'nope', Parameters: {} }] })),
        'matchActions.0.ActionDefinitionId',
      ),
    ).toEqual([RULE_MESSAGES.actionRequired]);
  });

  it('refuses a pattern RE2 cannot run (look-around, back-references, broken syntax) on that condition’s value, and keeps one it can', async () => {
    for (const pattern of ['(?=a)b', '(a)\\1', '([a-z']) {
      const response = await create(
        'operator',
        body({
          conditions: [valueCondition(), { LeftOperand: 1, Operator: OPERATORS.Matches, RightOperand: pattern }],
        }),
      );
      expect(await refusal(response, 'conditions.1.RightOperand')).toEqual([RULE_MESSAGES.patternInvalid]);
    }
    const notMatches = await create(
      'operator',
      body({
        conditions: [
          { LeftOperand: 2, LeftOperandFieldName: 'Host', Operator: OPERATORS.NotMatches, RightOperand: '(?<=x)y' },
        ],
      }),
    );
    expect(await refusal(notMatches, 'conditions.0.RightOperand')).toEqual([RULE_MESSAGES.patternInvalid]);
    const fine = await create(
      'operator',
      body({
        conditions: [
          { LeftOperand: 2, LeftOperandFieldName: 'Host', Operator: OPERATORS.Matches, RightOperand: '^web-\\d+$' },
        ],
      }),
    );
    expect(fine.statusCode, fine.body).toBe(200);
  });

  it('offers a tenant’s rules the rule actions of the tenant and the installation', async () => {
    const own = await scoped(portal.db, ALL_TENANTS)
      .insertInto('action_definition', {
        tenant_id: DEMO.contoso,
        name: `Contoso webhook ${stamp()}`,
        action_definition_type_id: 4,
        input_parameters: 'Url,Body',
      })
      .returning('action_definition_id')
      .executeTakeFirstOrThrow();
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('action_definition', {
        tenant_id: DEMO.contoso,
        name: `Protocol only ${stamp()}`,
        action_definition_type_id: 2,
      })
      .execute();
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/actionDefinitions/GetActionDefinitionsForRules(tenantId=${DEMO.contoso})`,
    });
    expect(response.statusCode, response.body).toBe(200);
    const actions = response.json<
      {
        actionDefinitionId: string;
        name: string;
        inputParameters: string | null;
        actionDefinitionTypeId: number;
        tenantId: string | null;
      }[]
    >();
    const ids = actions.map((action) => action.actionDefinitionId);
    expect(ids).toEqual(
      expect.arrayContaining([
        BUILT_IN_ACTIONS.setColor.id,
        BUILT_IN_ACTIONS.createWorkUnit.id,
        own.action_definition_id,
      ]),
    );
    // Send Email tells of the match: usable by rules as by protocols.
    expect(ids).toContain(BUILT_IN_ACTIONS.sendEmail.id);
    expect(actions.find((action) => action.actionDefinitionId === BUILT_IN_ACTIONS.setColor.id)).toMatchObject({
      name: 'Set Colour',
      inputParameters: 'Color',
      actionDefinitionTypeId: 6,
    });
    expect(
      actions.every(
        (action) =>
          [3, 4, 6].includes(action.actionDefinitionTypeId) ||
          action.actionDefinitionId === BUILT_IN_ACTIONS.createWorkUnit.id ||
          action.actionDefinitionId === BUILT_IN_ACTIONS.sendEmail.id,
      ),
    ).toBe(true);
    expect(actions.every((action) => action.tenantId === null || action.tenantId === DEMO.contoso)).toBe(true);
    expect(
      (
        await portal.as('operator', {
          method: 'GET',
          url: `/v1/actionDefinitions/GetActionDefinitionsForRules(tenantId=${DEMO.fabrikam})`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('lists the rules that run an action (GetRulesForAction), the caller’s only', async () => {
    const hook = await scoped(portal.db, ALL_TENANTS)
      .insertInto('action_definition', {
        tenant_id: null,
        name: `Shared hook ${stamp()}`,
        action_definition_type_id: 3,
      })
      .returning('action_definition_id')
      .executeTakeFirstOrThrow();
    const runs = { ActionDefinitionId: hook.action_definition_id, Parameters: {} };
    const onMatch = await created('operator', { name: `On match ${stamp()}`, matchActions: [runs] });
    const onExpiry = await created('operator', {
      name: `On expiry ${stamp()}`,
      matchActions: [],
      expirationActions: [runs],
    });
    await created('operator2', { tenantId: DEMO.fabrikam, matchActions: [runs] });
    await created('operator');
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/rules/GetRulesForAction(actionDefinitionId=${hook.action_definition_id})`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual(
      [
        { ruleId: onExpiry.ruleId, name: onExpiry.name },
        { ruleId: onMatch.ruleId, name: onMatch.name },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    );
  });
});

describe('rules: toggle, copy, delete', () => {
  it('toggles enabled with its own call, at either spelling, and records it', async () => {
    const rule = await created('operator');
    const off = await portal.as('operator', { method: 'POST', url: `/v1/rules/${rule.ruleId}/toggledisabled` });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<Rule>().enabled).toBe(false);
    // The spec's spelling is answered too, though the document names only the one above.
    const on = await portal.as('operator', { method: 'POST', url: `/v1/rules/toggledisabled/${rule.ruleId}` });
    expect(on.json<Rule>().enabled).toBe(true);
    const audit = await portal.db
      .selectFrom('audit_event')
      .select('changes')
      .where('entity_type', '=', 'rule')
      .where('entity_id', '=', rule.ruleId)
      .where('action', '=', 'update')
      .orderBy('audit_event_id')
      .execute();
    expect(audit.map((entry) => entry.changes)).toEqual([
      { enabled: { from: true, to: false } },
      { enabled: { from: false, to: true } },
    ]);
  });

  it("documents the toggle once, and the rule's id as ruleId on every path", async () => {
    const document = (await portal.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { operationId?: string; parameters?: { name: string; in: string }[] }>>;
    }>();
    expect(document.paths['/v1/rules/{ruleId}/toggledisabled']?.post?.operationId).toBe('toggleRuleDisabled');
    expect(document.paths['/v1/rules/toggledisabled/{ruleId}']).toBeUndefined();
    const rulePaths = Object.keys(document.paths).filter((path) => path.startsWith('/v1/rules/{'));
    expect(rulePaths.every((path) => path.startsWith('/v1/rules/{ruleId}'))).toBe(true);
    expect(document.paths['/v1/rules/{ruleId}']?.delete?.parameters).toContainEqual(
      expect.objectContaining({ name: 'ruleId', in: 'path' }),
    );
  });

  it('copies a rule as "Copy of {name}", disabled, with its conditions and actions (spec 002 §4)', async () => {
    const rule = await created('operator', { subscriptionId: DEMO.contosoStaging, matchLifetime: '02:00:00' });
    const response = await portal.as('operator', { method: 'POST', url: `/v1/rules/${rule.ruleId}/copy` });
    expect(response.statusCode, response.body).toBe(200);
    const copy = response.json<Rule>();
    expect(copy.ruleId).not.toBe(rule.ruleId);
    expect(copy).toMatchObject({
      name: `Copy of ${rule.name}`,
      enabled: false,
      tenantId: DEMO.contoso,
      subscriptionId: DEMO.contosoStaging,
      matchLifetime: '02:00:00',
    });
    expect(copy.conditions).toEqual(rule.conditions);
    expect(copy.matchActions).toEqual(rule.matchActions);
  });

  it('deletes a rule with its matches', async () => {
    const rule = await created('operator');
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('rule_match', {
        rule_id: rule.ruleId,
        tenant_id: DEMO.contoso,
        subject_id: crypto.randomUUID(),
        first_match: new Date(),
        last_match: new Date(),
        expires: new Date(Date.now() + 300_000),
      })
      .execute();
    const response = await portal.as('operator', { method: 'DELETE', url: `/v1/rules/${rule.ruleId}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ message: 'Rule deleted successfully.' });
    expect((await portal.as('operator', { method: 'GET', url: `/v1/rules/${rule.ruleId}` })).statusCode).toBe(404);
    const matches = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('rule_match')
      .select('rule_match_id')
      .where('rule_id', '=', rule.ruleId)
      .execute();
    expect(matches).toEqual([]);
    const audit = await auditTrail(portal.db, 'rule', rule.ruleId);
    expect(audit.map((entry) => entry.action)).toEqual(['create', 'delete']);
  });
});

describe('rules: permissions and tenants', () => {
  it('refuses callers without the Rules permissions', async () => {
    expect((await portal.as('enduser', { method: 'GET', url: '/v1/rules' })).statusCode).toBe(403);
    expect((await create('enduser', body())).statusCode).toBe(403);
    expect(
      (await portal.as('enduser', { method: 'GET', url: '/api/generalLookup/ruleleftoperands?ruleType=1' })).statusCode,
    ).toBe(403);
  });

  it('hides and protects another tenant’s rule: 404 to read, edit, toggle, copy or delete it', async () => {
    const rule = await created('operator2', { tenantId: DEMO.fabrikam });
    const paths: [string, string][] = [
      ['GET', `/v1/rules/${rule.ruleId}`],
      ['POST', `/v1/rules/${rule.ruleId}/toggledisabled`],
      ['POST', `/v1/rules/toggledisabled/${rule.ruleId}`],
      ['POST', `/v1/rules/${rule.ruleId}/copy`],
      ['DELETE', `/v1/rules/${rule.ruleId}`],
    ];
    for (const [method, url] of paths)
      expect((await portal.as('operator', { method: method as 'GET', url })).statusCode, `${method} ${url}`).toBe(404);
    expect((await update('operator', rule.ruleId, body())).statusCode).toBe(404);
    const still = await portal.as('operator2', { method: 'GET', url: `/v1/rules/${rule.ruleId}` });
    expect(still.json<Rule>()).toMatchObject({ name: rule.name, enabled: true });
  });

  it('lets only a caller of all tenants create or change a rule of every tenant (tenantless)', async () => {
    expect((await create('operator', body({ tenantId: null }))).statusCode).toBe(403);
    const shared = await created('admin', { tenantId: null });
    expect(shared.conditions.map((condition) => condition.LeftOperand)).toEqual([1]);
    for (const [method, url] of [
      ['POST', `/v1/rules/${shared.ruleId}/toggledisabled`],
      ['POST', `/v1/rules/toggledisabled/${shared.ruleId}`],
      ['POST', `/v1/rules/${shared.ruleId}/copy`],
      ['DELETE', `/v1/rules/${shared.ruleId}`],
    ] as const) {
      expect((await portal.as('operator', { method, url })).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await update('operator', shared.ruleId, body({ tenantId: DEMO.contoso }))).statusCode).toBe(403);
    expect((await portal.as('operator', { method: 'GET', url: `/v1/rules/${shared.ruleId}` })).statusCode).toBe(200);
  });
});

describe('rule lookups', () => {
  it('rule types, operators with labels, occurrence options, and time zones with America/New_York first', async () => {
    const types = (await portal.as('operator', { method: 'GET', url: '/api/generalLookup/ruletypes' })).json<
      { id: number; name: string }[]
    >();
    expect(types).toEqual([
      { id: 1, name: 'Ingestion' },
      { id: 2, name: 'Correlation' },
      { id: 3, name: 'History' },
      { id: 4, name: 'WorkUnit' },
      { id: 5, name: 'Maintenance' },
      { id: 6, name: 'Aggregation' },
    ]);
    const operators = (await portal.as('operator', { method: 'GET', url: '/api/generalLookup/operators' })).json<
      { id: number; name: string; label: string }[]
    >();
    expect(operators).toHaveLength(14);
    expect(operators.find((operator) => operator.id === 6)).toEqual({
      id: 6,
      name: 'GreaterThanOrEqual',
      label: 'Greater Than Or Equal',
    });
    const occurrences = (
      await portal.as('operator', { method: 'GET', url: '/api/generalLookup/occuranceoptions' })
    ).json<{ value: string; name: string }[]>();
    expect(occurrences[0]).toEqual({ value: '1/1', name: 'Every occurrence' });
    const zones = (await portal.as('operator', { method: 'GET', url: '/api/generalLookup/timezones' })).json<
      string[]
    >();
    expect(zones[0]).toBe('America/New_York');
    expect(zones).toContain('Europe/Dublin');
    expect(zones.filter((zone) => zone === 'America/New_York')).toHaveLength(1);
  });

  it('left operands by rule type, and 404 for another tenant', async () => {
    const lookup = (query: string) =>
      portal.as('operator', { method: 'GET', url: `/api/generalLookup/ruleleftoperands?${query}` });
    const workUnit = (await lookup(`ruleType=4&tenantId=${DEMO.contoso}`)).json<
      { id: number; name: string; type: string; field: boolean }[]
    >();
    expect(workUnit.map((operand) => operand.name)).toEqual([
      'Work Unit Event',
      'Work Unit Type',
      'Severity',
      'Work Unit State',
      'Work Unit Title',
      'Tenant',
    ]);
    const history = (await lookup('ruleType=3')).json<{ id: number; type: string; field: boolean }[]>();
    expect(history.find((operand) => operand.id === 8)).toMatchObject({ type: 'timespan', field: false });
    expect(history.find((operand) => operand.id === 3)).toMatchObject({ type: 'number', field: true });
    expect((await lookup('ruleType=9')).statusCode).toBe(400);
    expect((await lookup(`ruleType=1&tenantId=${DEMO.fabrikam}`)).statusCode).toBe(404);
  });

  it('condition input options from what the tenant has, and none from another tenant', async () => {
    const options = (type: string, user = 'operator', tenantId: string = DEMO.contoso, query = '') =>
      portal.as(user, { method: 'GET', url: `/api/${tenantId}/rulelookup/conditionInputOptions/${type}${query}` });
    const device = await createDevice(portal, DEMO.contoso, DEMO.contosoProduction, { name: `Rules box ${stamp()}` });
    const token = await createTokenAs(portal, 'admin', DEMO.contoso);
    const named = crypto.randomUUID();
    for (const [entityId, message] of [
      [device.deviceId, { Value: 1 }],
      [named, { Value: 2, Properties: { BlockName: 'Boiler temperature' } }],
    ] as const) {
      const sent = await portal.app.inject({
        method: 'POST',
        url: '/v1/packets',
        headers: { authorization: `Bearer ${token.generatedToken}` },
        payload: { entityId, timestamp: new Date().toISOString(), message },
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    const entities = (await options('entity')).json<{ value: string; label: string }[]>();
    expect(entities).toEqual(
      expect.arrayContaining([
        { value: device.deviceId, label: `${device.name} (${device.deviceId})` },
        { value: named, label: `Boiler temperature (${named})` },
      ]),
    );
    const devices = (await options('device')).json<{ value: string; label: string }[]>();
    expect(devices).toContainEqual({ value: device.deviceId, label: device.name });
    // The caller's tenants: a staff member of one tenant of the test's own is offered that one.
    const staff = await createStaffedTenant(portal);
    const tenants = (await options('tenant', staff.userName, staff.tenantId)).json<
      { value: string; label: string }[]
    >();
    expect(tenants).toEqual([{ value: staff.tenantId, label: staff.name }]);
    expect((await options('workUnitEvent')).json<{ label: string }[]>().map((option) => option.label)).toEqual([
      'OnNew',
      'OnAcknowledged',
      'OnHold',
      'OnResolved',
      'OnClosed',
      'OnCanceled',
      'OnTimer',
      'OnChange',
      'OnInProgress',
      'OnMitigated',
      'OnResponseWarning',
      'OnResponseBreach',
      'OnResolutionWarning',
      'OnResolutionBreach',
    ]);
    expect((await options('severity')).json()).toContainEqual({ value: '0', label: 'Sev0' });
    expect((await options('workUnitState')).json()).toContainEqual({ value: '3', label: 'In Progress' });
    const types = (await options('workUnitType')).json<{ label: string }[]>().map((option) => option.label);
    expect(types).toContain('User Request');
    expect(types).not.toContain('Legacy');
    for (const typed of ['text', 'number', 'timespan']) expect((await options(typed)).json()).toEqual([]);
    expect((await options('nonsense')).statusCode).toBe(400);
    expect((await options('device', 'operator', DEMO.fabrikam)).statusCode).toBe(404);
    expect((await options('device', 'operator', DEMO.contoso, `?tenantId=${DEMO.fabrikam}`)).statusCode).toBe(404);
    const fabrikamDevices = (await options('device', 'operator2', DEMO.fabrikam)).json<{ value: string }[]>();
    expect(fabrikamDevices.map((option) => option.value)).not.toContain(device.deviceId);
  });
});
