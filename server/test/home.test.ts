import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_STATUSES, PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import type {
  HomeCommunications,
  HomeCompliance,
  HomeDevices,
  HomeRuleMatches,
  HomeWorkUnits,
} from '@cfs/contracts/home';
import { SEVERITIES, WORK_UNIT_STATES, WORK_UNIT_TYPES } from '@cfs/contracts/work-units';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { DEMO } from '../src/db/demo-ids.js';
import { scoped } from '../src/db/scoped.js';
import { createTenantAs, createUserIn } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

let portal: TestPortal;
/** A tenant of its own, filled with the fixture below, so every figure is known by hand. */
let tenantId: string;
let busyRuleId: string;
let quietRuleId: string;

const MINUTE = 60_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const later = (ms: number) => new Date(Date.now() + ms);

async function seedFixture(): Promise<void> {
  const db = scoped(portal.db, ALL_TENANTS);
  const unit = (severityId: number, stateId: number) => ({
    tenant_id: tenantId,
    title: `Unit ${severityId}/${stateId}`,
    severity_id: severityId,
    state_id: stateId,
    work_unit_type_id: WORK_UNIT_TYPES.Incident,
  });
  await db
    .insertInto('work_unit', [
      unit(SEVERITIES.Sev0, WORK_UNIT_STATES.New),
      unit(SEVERITIES.Sev0, WORK_UNIT_STATES.New),
      unit(SEVERITIES.Sev0, WORK_UNIT_STATES.InProgress),
      unit(SEVERITIES.Sev2, WORK_UNIT_STATES.Acknowledged),
      unit(SEVERITIES.Sev4, WORK_UNIT_STATES.OnHold),
      // Finished work is not open: never counted.
      unit(SEVERITIES.Sev0, WORK_UNIT_STATES.Resolved),
      unit(SEVERITIES.Sev1, WORK_UNIT_STATES.Closed),
      unit(SEVERITIES.Sev2, WORK_UNIT_STATES.Canceled),
    ])
    .execute();

  const subscription = await db
    .insertInto('subscription', { tenant_id: tenantId, name: 'Home fixture' })
    .returning('subscription_id')
    .executeTakeFirstOrThrow();
  const device = (name: string, heartbeatSeconds: number, lastContact: Date | null, isDeleted = false) => ({
    tenant_id: tenantId,
    subscription_id: subscription.subscription_id,
    name,
    heartbeat_interval: heartbeatSeconds,
    last_contact: lastContact,
    is_deleted: isDeleted,
  });
  const devices = await db
    .insertInto('device', [
      // Online: last contact within two heartbeat intervals.
      device('fresh', 60, ago(30_000)),
      device('one-missed', 60, ago(90_000)),
      device('slow-beat', 3600, ago(90 * MINUTE)),
      // Offline: two intervals missed, or never heard from.
      device('silent', 60, ago(3 * MINUTE)),
      device('never', 60, null),
      // Deleted devices are not counted at all.
      device('deleted', 60, ago(1000), true),
    ])
    .returning(['device_id', 'name'])
    .execute();
  const deviceId = (name: string) => devices.find((row) => row.name === name)!.device_id;

  // A package of the tenant with versions 1.2.0 (archived), 1.10.0 (Latest) and 2.0.0-beta (pre-release).
  const pkg = await db
    .insertInto('package', { tenant_id: tenantId, name: 'Home agent', package_type_id: 1 })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  const version = (text: string, status: number) => ({
    package_id: pkg.package_id,
    version: text,
    label: text,
    package_version_status_id: status,
    file_sha256: 'x',
    file_name: 'a.zip',
    file_size: 1,
  });
  const versions = await portal.db
    .insertInto('package_version')
    .values([
      version('1.2.0', PACKAGE_VERSION_STATUSES.Archived),
      version('1.10.0', PACKAGE_VERSION_STATUSES.Latest),
      version('2.0.0-beta', PACKAGE_VERSION_STATUSES.PreRelease),
      version('1.10.0-rc.1', PACKAGE_VERSION_STATUSES.Archived),
    ])
    .returning(['package_version_id', 'version'])
    .execute();
  const versionId = (text: string) => versions.find((row) => row.version === text)!.package_version_id;
  const installed = (name: string, text: string) => ({
    device_id: deviceId(name),
    package_id: pkg.package_id,
    tenant_id: tenantId,
    install_status_id: INSTALL_STATUSES.Installed,
    installed_package_version_id: versionId(text),
  });
  await db
    .insertInto('device_installation', [
      // 1.2.0 < 1.10.0 by number, not by text: out of date.
      installed('fresh', '1.2.0'),
      // The release candidate comes before its release: out of date.
      installed('silent', '1.10.0-rc.1'),
      // On the Latest: current.
      installed('one-missed', '1.10.0'),
      // Ahead of it on a pre-release: not the Latest, so Outdated, as the version report counts it.
      installed('slow-beat', '2.0.0-beta'),
      // A deleted device is not counted even when out of date.
      installed('deleted', '1.2.0'),
    ])
    .execute();

  const rule = (name: string) => ({
    tenant_id: tenantId,
    name,
    rule_type_id: 1,
    conditions: JSON.stringify([]),
    match_lifetime_seconds: 300,
  });
  const rules = await db
    .insertInto('rule', [rule('Busy rule'), rule('Quiet rule'), rule('Expired rule')])
    .returning(['rule_id', 'name'])
    .execute();
  const ruleId = (name: string) => rules.find((row) => row.name === name)!.rule_id;
  busyRuleId = ruleId('Busy rule');
  quietRuleId = ruleId('Quiet rule');
  const match = (rule: string, subject: string, expires: Date) => ({
    tenant_id: tenantId,
    rule_id: ruleId(rule),
    subject_id: subject,
    first_match: ago(MINUTE),
    last_match: ago(MINUTE),
    expires,
    completion_processed: expires < new Date(),
  });
  await db
    .insertInto('rule_match', [
      match('Busy rule', 'a', later(5 * MINUTE)),
      match('Busy rule', 'b', later(5 * MINUTE)),
      match('Busy rule', 'c', later(MINUTE)),
      match('Quiet rule', 'a', later(MINUTE)),
      // Expired: inactive, not counted.
      match('Expired rule', 'a', ago(MINUTE)),
      match('Busy rule', 'd', ago(MINUTE)),
    ])
    .execute();

  const communication = (status: string, nextUpdate: Date | null) => ({
    tenant_id: tenantId,
    title: `Comm ${status}`,
    service_manager: 'Oscar Operator',
    status,
    next_update: nextUpdate,
  });
  await db
    .insertInto('work_unit_communication', [
      communication('Investigating', ago(MINUTE)),
      communication('ConfirmedImpact', ago(MINUTE)),
      communication('ServiceRestored', later(30 * MINUTE)),
      communication('Investigating', null),
      // Closed: neither open nor overdue, whatever their next update says.
      communication('Resolved', ago(MINUTE)),
      communication('Cancelled', ago(MINUTE)),
    ])
    .execute();
}

beforeAll(async () => {
  portal = await createTestPortal();
  tenantId = (await createTenantAs(portal, 'admin')).tenantId;
  await seedFixture();
  await createUserIn(portal, 'home-workunits-only', ['WorkUnits:view'], tenantId);
  await createUserIn(portal, 'home-devices-only', ['Devices:view'], tenantId);
});
afterAll(async () => {
  await portal?.close();
});

const tile = <T>(user: string, name: string, tenant = tenantId) =>
  portal
    .as(user, { method: 'GET', url: `/v1/home/${name}?tenantId=${tenant}` })
    .then((response) => ({ status: response.statusCode, body: response.json<T>(), headers: response.headers }));

describe('home dashboard', () => {
  it('counts open work units by severity and state, leaving out Resolved, Closed and Canceled', async () => {
    const { status, body } = await tile<HomeWorkUnits>('admin', 'workunits');
    expect(status).toBe(200);
    expect(body).toEqual({
      open: 5,
      counts: [
        { severityId: SEVERITIES.Sev0, stateId: WORK_UNIT_STATES.New, count: 2 },
        { severityId: SEVERITIES.Sev0, stateId: WORK_UNIT_STATES.InProgress, count: 1 },
        { severityId: SEVERITIES.Sev2, stateId: WORK_UNIT_STATES.Acknowledged, count: 1 },
        { severityId: SEVERITIES.Sev4, stateId: WORK_UNIT_STATES.OnHold, count: 1 },
      ],
    });
  });

  it('counts devices online within two heartbeat intervals, offline otherwise, and out of date as the version report counts them (any package not on its Latest)', async () => {
    const { status, body, headers } = await tile<HomeDevices>('admin', 'devices');
    expect(status).toBe(200);
    expect(body).toEqual({ total: 5, online: 3, offline: 2, outOfDate: 3 });
    expect(headers['cache-control']).toBe('no-store');
  });

  it('marks the same devices online in the devices grid, and filters the grid to the offline ones', async () => {
    const response = await portal.as('admin', {
      method: 'GET',
      url: `/v1/devices?$filter=tenantId eq ${tenantId} and isOnline eq false&$orderby=name asc`,
    });
    expect(response.statusCode).toBe(200);
    const rows = response.json<{ value: { name: string; isOnline: boolean }[] }>().value;
    expect(rows.map((row) => [row.name, row.isOnline])).toEqual([
      ['never', false],
      ['silent', false],
    ]);
  });

  it('counts active rule matches (not yet expired) and names the rules with the most', async () => {
    const { status, body } = await tile<HomeRuleMatches>('admin', 'rulematches');
    expect(status).toBe(200);
    expect(body).toEqual({
      active: 4,
      topRules: [
        { ruleId: busyRuleId, name: 'Busy rule', count: 3 },
        { ruleId: quietRuleId, name: 'Quiet rule', count: 1 },
      ],
    });
  });

  it('counts open communications and the overdue ones among them (next update past)', async () => {
    const { status, body } = await tile<HomeCommunications>('admin', 'communications');
    expect(status).toBe(200);
    expect(body).toEqual({ open: 4, overdue: 2 });
  });

  it('gives this week’s share of controls set and the non-compliant count of each control set, for the week of the date asked', async () => {
    const db = scoped(portal.db, ALL_TENANTS);
    const controlSet = await db
      .selectFrom('control_set')
      .select(['control_set_id', 'name'])
      .where('tenant_id', 'is', null)
      .orderBy('name')
      .executeTakeFirstOrThrow();
    const controls = await portal.db
      .selectFrom('control')
      .select('control_id')
      .where('control_set_id', '=', controlSet.control_set_id)
      .orderBy('sort_order')
      .execute();
    const status = (index: number, checkDate: string, value: string) => ({
      tenant_id: tenantId,
      control_id: controls[index]!.control_id,
      check_date: checkDate,
      status: value,
    });
    // The week of Wednesday 2026-03-11 starts on Sunday 2026-03-08 (the week spans the daylight-saving change of 2026-03-08 in the US).
    await db
      .insertInto('control_status', [
        status(0, '2026-03-08', 'Compliant'),
        status(1, '2026-03-08', 'NonCompliant'),
        status(2, '2026-03-08', 'Notset'),
        status(3, '2026-03-01', 'NonCompliant'),
        status(4, '2026-03-15', 'Exempt'),
      ])
      .execute();
    const response = await portal.as('admin', {
      method: 'GET',
      url: `/v1/home/compliance?tenantId=${tenantId}&checkDate=2026-03-11`,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<HomeCompliance>();
    expect(body.weekStart).toBe('2026-03-08');
    const figures = body.controlSets.find((row) => row.controlSetId === controlSet.control_set_id);
    expect(figures).toEqual({
      controlSetId: controlSet.control_set_id,
      name: controlSet.name,
      controls: controls.length,
      set: 2,
      percentSet: Math.round((2 * 10_000) / controls.length) / 100,
      nonCompliant: 1,
    });
    // Another set of the installation: nothing set this week.
    for (const other of body.controlSets.filter((row) => row.controlSetId !== controlSet.control_set_id))
      expect(other).toMatchObject({ set: 0, nonCompliant: 0, percentSet: 0 });
    const bad = await portal.as('admin', {
      method: 'GET',
      url: `/v1/home/compliance?tenantId=${tenantId}&checkDate=2026-02-30`,
    });
    expect(bad.statusCode).toBe(400);
  });

  it('answers each tile only with its own area’s view permission', async () => {
    expect((await tile('home-workunits-only', 'workunits')).status).toBe(200);
    for (const name of ['devices', 'rulematches', 'communications', 'compliance'])
      expect((await tile('home-workunits-only', name)).status).toBe(403);
    expect((await tile<HomeDevices>('home-devices-only', 'devices')).body).toEqual({
      total: 5,
      online: 3,
      offline: 2,
      outOfDate: 3,
    });
    expect((await tile('home-devices-only', 'workunits')).status).toBe(403);
    expect((await tile('enduser', 'workunits', DEMO.contoso)).status).toBe(403);
  });

  it('answers 404 for a tenant outside the caller’s, and counts only the tenant asked for', async () => {
    for (const name of ['workunits', 'devices', 'rulematches', 'communications']) {
      const response = await tile<{ message: string }>('operator', name);
      expect(response.status).toBe(404);
      expect(response.body.message).toBe('The tenant was not found.');
    }
    // The fixture's rows are not Contoso's: the operator's own figures do not include them.
    const contoso = await tile<HomeCommunications>('operator', 'communications', DEMO.contoso);
    expect(contoso.status).toBe(200);
    const adminContoso = await tile<HomeCommunications>('admin', 'communications', DEMO.contoso);
    expect(adminContoso.body).toEqual(contoso.body);
    const contosoDevices = await tile<HomeDevices>('operator', 'devices', DEMO.contoso);
    const counted = await scoped(portal.db, ALL_TENANTS)
      .selectFrom('device')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('tenant_id', '=', DEMO.contoso)
      .where('is_deleted', '=', false)
      .executeTakeFirstOrThrow();
    expect(contosoDevices.body.total).toBe(Number(counted.n));
  });

  it('refuses a missing or malformed tenant id with 400', async () => {
    expect((await portal.as('admin', { method: 'GET', url: '/v1/home/workunits' })).statusCode).toBe(400);
    expect((await portal.as('admin', { method: 'GET', url: '/v1/home/workunits?tenantId=nope' })).statusCode).toBe(400);
  });
});
