import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import {
  ACCESS_REQUEST_FINISH_DAYS,
  ACCESS_REQUEST_TITLE_LABEL,
  ACCESS_REQUEST_TYPE_LABELS,
  type AccessRequestFields,
} from '@cfs/contracts/access-request';
import { SEVERITIES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { systemPrincipal } from '../../auth/system-principal.js';
import type { Config } from '../../config.js';
import { scoped } from '../../db/scoped.js';
import type { Db } from '../../db/database.js';
import { createWorkUnit } from './commands.js';

const DAY_MS = 24 * 3600 * 1000;
/** The form's id where a user's would stand in the audit trail: it names no user. */
const ACCESS_REQUEST_ACTOR_ID = '00000000-0000-4000-8000-00000000ac01';

/**
 * The tenant whose service desk receives access requests: the configured ACCESS_REQUEST_TENANT_ID,
 * else the installation's first tenant (the one created first: its service tenant). A visitor has
 * no tenant of their own, so the request cannot belong to one.
 */
async function requestTenant(db: Db, config: Config): Promise<string | undefined> {
  if (config.accessRequestTenantId) return config.accessRequestTenantId;
  // Across tenants by design: the visitor is signed in nowhere; only the first tenant's id is read.
  const first = await scoped(db, ALL_TENANTS)
    .selectFrom('tenant')
    .select('tenant_id')
    .orderBy('created')
    .orderBy('tenant_id')
    .executeTakeFirst();
  return first?.tenant_id;
}

type CheckedForm = AccessRequestFields & { environment: string };

const LABELS: [keyof AccessRequestFields, string][] = [
  ['firstName', 'First name'],
  ['middleInitial', 'Middle initial'],
  ['lastName', 'Last name'],
  ['suffix', 'Suffix'],
  ['email', 'Email'],
  ['phone', 'Phone'],
  ['targetAccountName', 'Target account name'],
  ['environment', 'Environment'],
  ['citizenship', 'Citizenship'],
  ['designation', 'Designation'],
  ['grade', 'Grade'],
  ['companyName', 'Company name'],
  ['organization', 'Organization'],
];

function describe(form: CheckedForm): string {
  const lines = [`Request type: ${ACCESS_REQUEST_TYPE_LABELS[form.requestType]}`];
  for (const [key, label] of LABELS) {
    const value = form[key];
    if (typeof value === 'string' && value.trim() !== '') lines.push(`${label}: ${value.trim()}`);
  }
  lines.push('The requester acknowledged both statements of the form.');
  return lines.join('\n');
}

/**
 * An access request as the work unit spec 001 §7 describes: titled "{environment} Account Request",
 * Sev3, planned from now to two days later, with the requester as stakeholder and the form's
 * fields in its description and properties. It looks up no account, so the answer never says
 * whether one exists.
 */
export async function createAccessRequest(db: Db, config: Config, form: CheckedForm): Promise<boolean> {
  const tenantId = await requestTenant(db, config);
  if (!tenantId) return false;
  const now = new Date();
  const fullName = [form.firstName, form.middleInitial, form.lastName, form.suffix]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(' ');
  const { acknowledgePolicy: _policy, acknowledgeAccuracy: _accuracy, ...fields } = form;
  await createWorkUnit(db, systemPrincipal(tenantId, { id: ACCESS_REQUEST_ACTOR_ID, name: 'Access request form' }), {
    title: `${form.environment} ${ACCESS_REQUEST_TITLE_LABEL}`,
    description: describe(form),
    severityId: SEVERITIES.Sev3,
    stateId: WORK_UNIT_STATES.New,
    tenantId,
    workUnitTypeId: WORK_UNIT_TYPES.Request,
    source: 'Access Request',
    stakeHolderFullName: fullName.slice(0, 200),
    stakeHolderEmailAddress: form.email.trim(),
    stakeHolderPhoneNumber: form.phone.trim(),
    plannedStartTime: now.toISOString(),
    plannedFinishTime: new Date(now.getTime() + ACCESS_REQUEST_FINISH_DAYS * DAY_MS).toISOString(),
    properties: JSON.stringify({ accessRequest: fields }),
  });
  return true;
}
