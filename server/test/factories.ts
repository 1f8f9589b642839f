import { randomBytes, randomUUID } from 'node:crypto';
import { ok, type paths, type RequestBody } from '@cfs/client';
import { hashPassword } from '../src/auth/passwords.js';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import type { EnrolmentResult } from '@cfs/contracts/agent';
import { WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { MATCH_NOTHING, searchClause } from '@cfs/contracts/values/odata';
import { WORK_UNIT_SEARCH_FIELDS } from '@cfs/contracts/values/work-units';
import { BASE_ROLES } from '../src/db/seed.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import type { TestPortal } from './harness.js';

/** A short random suffix that keeps a factory's names apart from every other row's. */
export const unique = () => randomUUID().slice(0, 8);

/** The body of a PUT that creates a row, any of its fields given by the test. */
type Fields<Path extends keyof paths> = Partial<RequestBody<Path, 'put'>>;

/**
 * Small factories for API tests: each creates through the API as a user, as a person would, with
 * the typed client (`@cfs/client`, in-process through `inject`); anything but a success fails the
 * test's setup with the answer.
 */
export async function createTenantAs(portal: TestPortal, user: string, body: Fields<'/v1/tenants'> = {}) {
  const client = await portal.client(user);
  return ok(client.PUT('/v1/tenants', { body: { name: `Tenant ${Math.random().toString(36).slice(2, 8)}`, ...body } }));
}

export async function createTokenAs(
  portal: TestPortal,
  user: string,
  tenantId: string,
  body: Fields<'/v1/tokens'> = {},
) {
  const client = await portal.client(user);
  return ok(client.PUT('/v1/tokens', { body: { tenantId, name: 'Agent token', lifetimeYears: 1, ...body } }));
}

export async function createCategoryAs(
  portal: TestPortal,
  user: string,
  tenantId: string,
  body: Fields<'/v1/workunitcategories'> = {},
) {
  const client = await portal.client(user);
  return ok(
    client.PUT('/v1/workunitcategories', {
      body: { tenantId, name: `Network ${randomUUID().slice(0, 8)}`, workUnitTypeId: 1, ...body },
    }),
  );
}

/** The work units grid's search box as it sends a term: `searchClause` over `WORK_UNIT_SEARCH_FIELDS`. */
export function workUnitSearch(term: string, exactMatch = false): string {
  return searchClause(term, exactMatch, WORK_UNIT_SEARCH_FIELDS) ?? MATCH_NOTHING;
}

/* Devices --------------------------------------------------------------------------------------
 * Made in the database, as promoting a pending device would (enrolment is the agent API's part). */
let deviceCount = 0;
export async function createDevice(
  portal: TestPortal,
  tenantId: string,
  subscriptionId: string,
  values: { name?: string; operatingSystemId?: number; locationId?: string | null } = {},
) {
  deviceCount += 1;
  const row = await portal.db
    .insertInto('device')
    .values({
      tenant_id: tenantId,
      subscription_id: subscriptionId,
      name: values.name ?? `Device ${deviceCount} ${Math.random().toString(36).slice(2, 8)}`,
      operating_system_id: values.operatingSystemId ?? 0,
      location_id: values.locationId ?? null,
      created_by: 'test',
      modified_by: 'test',
    })
    .returning(['device_id', 'name', 'tenant_id', 'subscription_id'])
    .executeTakeFirstOrThrow();
  return { deviceId: row.device_id, name: row.name, tenantId: row.tenant_id, subscriptionId: row.subscription_id };
}

/**
 * A user of one tenant (or of none) holding exactly `permissions` (a role of its own), made in the database as
 * the directory would: what a test needs to ask as someone limited to one tenant or one permission.
 */
export async function createUserIn(
  portal: TestPortal,
  userName: string,
  permissions: readonly string[],
  tenantId: string | null,
  options: { subscriptionId?: string; enabled?: boolean; displayName?: string; assignmentGroups?: string[] } = {},
): Promise<void> {
  const { db } = portal;
  const role = await db
    .insertInto('app_role')
    .values({ name: `role-${userName}`, description: 'test' })
    .returning('role_id')
    .executeTakeFirstOrThrow();
  if (permissions.length)
    await db
      .insertInto('role_permission')
      .values(permissions.map((permission) => ({ role_id: role.role_id, permission })))
      .execute();
  const user = await db
    .insertInto('app_user')
    .values({
      user_name: userName,
      display_name: options.displayName ?? userName,
      email: `${userName}@cfs.example`,
      tenant_id: tenantId,
      subscription_id: options.subscriptionId ?? null,
      enabled: options.enabled ?? true,
      assignment_groups: options.assignmentGroups ?? [],
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_role').values({ user_id: user.user_id, role_id: role.role_id }).execute();
  if (tenantId) await db.insertInto('user_tenant').values({ user_id: user.user_id, tenant_id: tenantId }).execute();
}

/**
 * A local account of `tenantId` that signs in with a password, as the embedded sign-in page takes
 * it: a base role (Operator unless `role` says otherwise, whose name travels in the token's roles
 * claim), a display name and assignment groups of its own (or the ones given: a test that signs in
 * as `planner` names it).
 */
export async function createLocalUser(
  portal: TestPortal,
  tenantId: string,
  options: { role?: string; groups?: string[]; userName?: string; displayName?: string } = {},
) {
  const tag = unique();
  const account = {
    userName: options.userName ?? `person-${tag}`,
    password: `pw-${randomUUID()}`,
    displayName: options.displayName ?? `Person ${tag}`,
    groups: options.groups ?? [`Group ${tag}`],
    tenantId,
  };
  const { db } = portal;
  const role = await db
    .selectFrom('app_role')
    .select('role_id')
    .where('name', '=', options.role ?? 'Operator')
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('app_user')
    .values({
      user_name: account.userName,
      display_name: account.displayName,
      email: `${account.userName}@cfs.example`,
      password_hash: await hashPassword(account.password),
      tenant_id: tenantId,
      assignment_groups: account.groups,
    })
    .returning('user_id')
    .executeTakeFirstOrThrow();
  await db.insertInto('user_role').values({ user_id: user.user_id, role_id: role.role_id }).execute();
  await db.insertInto('user_tenant').values({ user_id: user.user_id, tenant_id: tenantId }).execute();
  return account;
}

/* Actions --------------------------------------------------------------------------------------
 * An HTTP action (type 4) written to the database as it is stored, past the save-time check of its
 * endpoint: what the runner does with a URL is judged at the call. Contoso's unless a tenant is given. */
export async function createHttpAction(
  portal: TestPortal,
  values: { url: string; method?: string; headers?: string; body?: string; tenantId?: string | null },
): Promise<string> {
  const row = await scoped(portal.db, ALL_TENANTS)
    .insertInto('action_definition', {
      name: `Hook ${randomUUID().slice(0, 8)}`,
      action_definition_type_id: 4,
      tenant_id: values.tenantId === undefined ? DEMO.contoso : values.tenantId,
      endpoint_url: values.url,
      http_method: values.method ?? 'POST',
      headers: values.headers ?? null,
      body: values.body ?? null,
    })
    .returning('action_definition_id')
    .executeTakeFirstOrThrow();
  return row.action_definition_id;
}

export async function createSubscriptionAs(
  portal: TestPortal,
  user: string,
  tenantId: string,
  body: Fields<'/v1/subscriptions'> = {},
) {
  const client = await portal.client(user);
  return ok(client.PUT('/v1/subscriptions', { body: { tenantId, name: `Subscription ${unique()}`, ...body } }));
}

/**
 * A tenant of the test's own with a subscription and a staff member (the Operator role's permissions, or
 * `permissions`): rows made there are the only ones its staff see, whatever the demo seed holds.
 */
export async function createStaffedTenant(
  portal: TestPortal,
  options: { name?: string; permissions?: readonly string[]; body?: Fields<'/v1/tenants'> } = {},
) {
  const tenant = await createTenantAs(portal, 'admin', {
    ...options.body,
    ...(options.name === undefined ? {} : { name: options.name }),
  });
  const subscription = await createSubscriptionAs(portal, 'admin', tenant.tenantId);
  const userName = `staff-${unique()}`;
  await createUserIn(portal, userName, options.permissions ?? BASE_ROLES.Operator?.permissions ?? [], tenant.tenantId);
  return {
    tenantId: tenant.tenantId,
    name: tenant.name,
    subscriptionId: subscription.subscriptionId,
    subscriptionName: subscription.name,
    userName,
  };
}

export async function createLocationAs(
  portal: TestPortal,
  user: string,
  tenantId: string | null,
  body: Fields<'/v1/locations'> = {},
) {
  const client = await portal.client(user);
  return ok(client.PUT('/v1/locations', { body: { name: `Location ${unique()}`, tenantId, ...body } }));
}

export async function createBlockAs(
  portal: TestPortal,
  user: string,
  subscriptionId: string,
  body: Fields<'/v1/blocks'> = {},
) {
  const client = await portal.client(user);
  return ok(
    client.PUT('/v1/blocks', {
      body: { blockId: randomUUID(), subscriptionId, name: `Block ${unique()}`, blockTypeId: 1, ...body },
    }),
  );
}

/** An incident of `tenantId`, new and of severity 2 unless `body` says otherwise. */
export async function createWorkUnitAs(
  portal: TestPortal,
  user: string,
  tenantId: string,
  body: Fields<'/api/v1/workunits'> = {},
) {
  const client = await portal.client(user);
  return ok(
    client.PUT('/api/v1/workunits', {
      body: {
        workUnitId: -1,
        title: `Incident ${unique()}`,
        severityId: 2,
        stateId: WORK_UNIT_STATES.New,
        tenantId,
        workUnitTypeId: WORK_UNIT_TYPES.Incident,
        ...body,
      },
    }),
  );
}

export async function createSubcategoryAs(
  portal: TestPortal,
  user: string,
  workUnitCategoryId: number,
  body: Fields<'/v1/workunitsubcategories'> = {},
) {
  const client = await portal.client(user);
  return ok(
    client.PUT('/v1/workunitsubcategories', { body: { workUnitCategoryId, name: `Need ${unique()}`, ...body } }),
  );
}

/** A directory group of `tenantId`, as the directory holds one (no area writes them: they come from the identity provider). */
export async function createDirectoryGroup(portal: TestPortal, tenantId: string, body: { displayName?: string } = {}) {
  const tag = unique();
  const displayName = body.displayName ?? `Group ${tag}`;
  return portal.db
    .insertInto('directory_group')
    .values({ display_name: displayName, mail: `group-${tag}@groups.example`, tenant_id: tenantId })
    .returning(['display_name as displayName', 'mail'])
    .executeTakeFirstOrThrow();
}

/** A user-made action of `tenantId` (a Rule Action calling a webhook unless `body` says otherwise). */
export async function createActionDefinitionAs(
  portal: TestPortal,
  user: string,
  tenantId: string | null,
  body: Fields<'/v1/actionDefinitions'> = {},
) {
  const client = await portal.client(user);
  return ok(
    client.PUT('/v1/actionDefinitions', {
      body: {
        name: `Hook ${unique()}`,
        actionDefinitionTypeId: 3,
        tenantId,
        inputParameters: 'Url',
        endpointUrl: 'https://hooks.example/{Url}',
        ...body,
      },
    }),
  );
}

/**
 * A device enrolled as its agent enrols it: the agent asks with a tenant token, the administrator
 * promotes the pending device into a subscription, the agent asks again and takes its credential.
 * In a tenant of its own unless `tenantId` names one (with a subscription of its own there).
 */
export async function createEnrolledDevice(
  portal: TestPortal,
  options: { tenantId?: string; machineName?: string } = {},
): Promise<{ tenantId: string; deviceId: string; credential: string }> {
  const tenantId = options.tenantId ?? (await createTenantAs(portal, 'admin')).tenantId;
  const subscription = await createSubscriptionAs(portal, 'admin', tenantId);
  const token = (await createTokenAs(portal, 'admin', tenantId)).generatedToken;
  const agentKey = randomBytes(32).toString('base64url');
  const enrol = async () => {
    const response = await portal.app.inject({
      method: 'POST',
      url: '/v1/agent/enrol',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        agentKey,
        machineName: options.machineName ?? `host-${unique()}`,
        operatingSystem: 'linux',
        architecture: 'x64',
        agentVersion: '0.1.0',
      },
    });
    return response.json<EnrolmentResult>();
  };
  const pending = await enrol();
  if (pending.status !== 'pending') throw new Error(`expected a pending device, not ${JSON.stringify(pending)}`);
  const promoted = await portal.as('admin', {
    method: 'POST',
    url: '/v1/pendingdevices/batchpromote',
    payload: { pendingDeviceIds: [pending.pendingDeviceId], subscriptionId: subscription.subscriptionId },
  });
  if (promoted.statusCode !== 200) throw new Error(`promotion failed: ${promoted.body}`);
  const enrolled = await enrol();
  if (enrolled.status !== 'enrolled') throw new Error(`expected an enrolled device, not ${JSON.stringify(enrolled)}`);
  return { tenantId, deviceId: enrolled.deviceId, credential: enrolled.credential };
}
