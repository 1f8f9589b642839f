import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { RenderedEmail } from '@cfs/contracts/automation';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { BadRequestError, orNotFound } from '../../http/errors.js';
import { parseEmailParametersOr, renderEmail, type EmailContext, type EmailWorkUnit } from './templates.js';

/** A unit's link in the portal: the Work Units grid with its drawer open (spec 000 §2, `?workUnitId=`). */
export const workUnitLink = (publicUrl: string, workUnitId: number): string =>
  `${publicUrl}/workunitsv2?workUnitId=${workUnitId}`;

/** A work unit as its emails show it, with its tenant's name and internal notification address; undefined outside the scope. */
export async function findEmailWorkUnit(
  db: Db,
  scope: TenantScope,
  workUnitId: number,
  publicUrl: string,
): Promise<{ tenantId: string; tenant: EmailContext['tenant']; workUnit: EmailWorkUnit } | undefined> {
  const row = await scoped(db, scope)
    .selectFrom('work_unit')
    .innerJoin('tenant', 'tenant.tenant_id', 'work_unit.tenant_id')
    .select([
      'work_unit.tenant_id',
      'tenant.name as tenant_name',
      'tenant.internal_notification_email_address',
      'work_unit.title',
      'work_unit.description',
      'work_unit.resolution',
      'work_unit.severity_id',
      'work_unit.state_id',
      'work_unit.stakeholder_full_name',
      'work_unit.stakeholder_email_address',
      'work_unit.created',
    ])
    .where('work_unit.work_unit_id', '=', workUnitId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    tenantId: row.tenant_id,
    tenant: { name: row.tenant_name, internalAddress: row.internal_notification_email_address },
    workUnit: {
      workUnitId,
      title: row.title,
      description: row.description,
      resolution: row.resolution,
      severityId: row.severity_id,
      stateId: row.state_id,
      stakeholderName: row.stakeholder_full_name,
      stakeholderEmail: row.stakeholder_email_address,
      created: new Date(row.created),
      link: workUnitLink(publicUrl, workUnitId),
    },
  };
}

/** A tenant's name and internal notification address. */
export async function findEmailTenant(db: Db, tenantId: string): Promise<EmailContext['tenant'] | undefined> {
  const row = await scoped(db, { kind: 'some', tenantIds: [tenantId] })
    .selectFrom('tenant')
    .select(['name', 'internal_notification_email_address'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row && { name: row.name, internalAddress: row.internal_notification_email_address };
}

/** A protocol step of the tenant or shared: its action, parameters and summary. */
export async function findProtocolStep(db: Db, tenantId: string, protocolActionId: string) {
  const row = await scoped(db, { kind: 'some', tenantIds: [tenantId] })
    .selectFrom('protocol_action')
    .select(['action_definition_id', 'parameters', 'summary'])
    .where('protocol_action_id', '=', protocolActionId)
    .executeTakeFirst();
  return (
    row && {
      actionDefinitionId: row.action_definition_id,
      parameters: stringRecord(row.parameters),
      summary: row.summary,
    }
  );
}

/** A JSON object's string values (a protocol step's parameters are stored as one). */
function stringRecord(value: unknown): Record<string, string> {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * POST /v1/emailtemplates/render (spec 001 §7): the email a Send Email step would send for a work
 * unit, with the values a user typed in the Pending Actions dialog over the step's own — the
 * dialog's preview. Another tenant's unit is not found; a step that sends no email, or parameters
 * no email can be made from, are a 400 naming the field.
 */
export async function renderForWorkUnit(
  db: Db,
  scope: TenantScope,
  publicUrl: string,
  input: {
    workUnitId: number;
    protocolActionId: string;
    /** The values typed in the dialog (sent as an object or its JSON text: `actionParametersInput`). */
    userDefinedParams?: Record<string, string> | undefined;
  },
): Promise<RenderedEmail> {
  const unit = orNotFound(await findEmailWorkUnit(db, scope, input.workUnitId, publicUrl), 'The work unit');
  const step = orNotFound(await findProtocolStep(db, unit.tenantId, input.protocolActionId), 'The protocol action');
  if (step.actionDefinitionId !== BUILT_IN_ACTIONS.sendEmail.id)
    throw new BadRequestError('This protocol action does not send an email.', {
      protocolActionId: ['This protocol action does not send an email.'],
    });
  const parameters = parseEmailParametersOr(
    { ...step.parameters, ...input.userDefinedParams },
    (error) => new BadRequestError(error.message, { [error.field]: [error.message] }),
  );
  return renderEmail(
    { tenant: unit.tenant, workUnit: unit.workUnit, ruleMatch: null, test: null, summary: step.summary },
    parameters,
  );
}
