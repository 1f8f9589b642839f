import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { INSTALL_STATUSES, PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { upToDatePercentage, VERSION_REPORT_MESSAGES } from '@cfs/contracts/version-report';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { WORK_UNIT_STATES } from '@cfs/contracts/work-units';
import { VERSION_POLICY_DAYS_MESSAGE } from '@cfs/contracts/tenants';
import { sweepVersionPolicy } from '../src/areas/workunits/version-policy.js';
import { countsStatement, parseApply } from '../src/areas/versionreport/apply.js';
import { createTenantAs } from './factories.js';
import { createTestPortal, type TestPortal } from './harness.js';

/*
 * The version report over a fixture computed by hand (a tenant of its own, so the demo fleet
 * does not count):
 *
 *   Alpha: 1.0.0 Archived, 1.1.0 Latest, 1.2.0-beta.1 PreRelease
 *   Beta:  2.0.0 Latest, 2.1.0-rc.1 PreRelease (newer, and still not Latest)
 *   Gamma: 0.1.0-alpha PreRelease only (no Latest: whatever runs is Current)
 *
 *   dev-a  Alpha 1.1.0 Current, Beta 2.0.0 Current            compliant
 *   dev-b  Alpha 1.0.0 Outdated, Beta 2.1.0-rc.1 Outdated     not compliant
 *   dev-c  Alpha 1.2.0-beta.1 Outdated, Gamma 0.1.0-alpha Current   not compliant
 *   dev-d  Gamma 0.1.0-alpha Current                          compliant
 *   dev-g  Beta 2.0.0 Current                                 compliant
 *   dev-h  Alpha 1.1.0 Current                                compliant
 *   dev-i  Alpha 1.0.0 Outdated                               not compliant
 *   dev-e  Alpha wanted, nothing installed yet                not in the report
 *   dev-f  deleted, Alpha 1.0.0                               not in the report
 *
 * 10 rows (6 Current, 4 Outdated); devices by status: Current 5 (a c d g h), Outdated 3 (b c i);
 * packages by status: Current 3, Outdated 2 (Alpha, Beta); compliant devices 4 of 7 = 57.14 %;
 * packages on compliant devices 3, on the others 3.
 */
let portal: TestPortal;
let tenantId: string;
let tenantName: string;
let subscriptionId: string;
const versions: Record<string, string> = {};
const packages: Record<string, string> = {};
const devices: Record<string, string> = {};
const released = (day: number) => new Date(Date.UTC(2026, 0, day, 12));

async function addPackage(name: string, list: { version: string; status: number; day: number }[]) {
  const pkg = await scoped(portal.db, ALL_TENANTS)
    .insertInto('package', { tenant_id: tenantId, name, package_type_id: 1, operating_system_ids: [1] })
    .returning('package_id')
    .executeTakeFirstOrThrow();
  packages[name] = pkg.package_id;
  for (const item of list) {
    const row = await portal.db
      .insertInto('package_version')
      .values({
        package_id: pkg.package_id,
        version: item.version,
        label: item.version,
        package_version_status_id: item.status,
        file_sha256: randomBytes(32).toString('hex'),
        file_name: `${name}.zip`,
        file_size: 10,
        created: released(item.day),
      })
      .returning('package_version_id')
      .executeTakeFirstOrThrow();
    versions[`${name} ${item.version}`] = row.package_version_id;
  }
}

async function addDevice(name: string, installed: [string, string | null][], options: { deleted?: boolean } = {}) {
  const device = await scoped(portal.db, ALL_TENANTS)
    .insertInto('device', {
      tenant_id: tenantId,
      subscription_id: subscriptionId,
      name,
      operating_system_id: 1,
      is_deleted: options.deleted ?? false,
    })
    .returning('device_id')
    .executeTakeFirstOrThrow();
  devices[name] = device.device_id;
  for (const [pkg, version] of installed) {
    const versionId = version === null ? null : versions[`${pkg} ${version}`]!;
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('device_installation', {
        device_id: device.device_id,
        package_id: packages[pkg]!,
        tenant_id: tenantId,
        package_version_id: versionId ?? versions[`${pkg} 1.1.0`]!,
        installed_package_version_id: versionId,
        install_status_id: versionId === null ? INSTALL_STATUSES.Pending : INSTALL_STATUSES.Installed,
      })
      .execute();
  }
}

beforeAll(async () => {
  portal = await createTestPortal();
  const tenant = await createTenantAs(portal, 'admin', { name: `Versions ${randomBytes(3).toString('hex')}` });
  tenantId = tenant.tenantId;
  tenantName = tenant.name;
  const subscription = await scoped(portal.db, ALL_TENANTS)
    .insertInto('subscription', { tenant_id: tenantId, name: 'Plant floor' })
    .returning('subscription_id')
    .executeTakeFirstOrThrow();
  subscriptionId = subscription.subscription_id;
  const { Latest, Archived, PreRelease } = PACKAGE_VERSION_STATUSES;
  await addPackage('Alpha', [
    { version: '1.0.0', status: Archived, day: 1 },
    { version: '1.1.0', status: Latest, day: 5 },
    { version: '1.2.0-beta.1', status: PreRelease, day: 9 },
  ]);
  await addPackage('Beta', [
    { version: '2.0.0', status: Latest, day: 2 },
    { version: '2.1.0-rc.1', status: PreRelease, day: 7 },
  ]);
  await addPackage('Gamma', [{ version: '0.1.0-alpha', status: PreRelease, day: 3 }]);
  await addDevice('dev-a', [
    ['Alpha', '1.1.0'],
    ['Beta', '2.0.0'],
  ]);
  await addDevice('dev-b', [
    ['Alpha', '1.0.0'],
    ['Beta', '2.1.0-rc.1'],
  ]);
  await addDevice('dev-c', [
    ['Alpha', '1.2.0-beta.1'],
    ['Gamma', '0.1.0-alpha'],
  ]);
  await addDevice('dev-d', [['Gamma', '0.1.0-alpha']]);
  await addDevice('dev-e', [['Alpha', null]]);
  await addDevice('dev-f', [['Alpha', '1.0.0']], { deleted: true });
  await addDevice('dev-g', [['Beta', '2.0.0']]);
  await addDevice('dev-h', [['Alpha', '1.1.0']]);
  await addDevice('dev-i', [['Alpha', '1.0.0']]);
});

afterAll(async () => {
  await portal?.close();
});

interface Row {
  installationId: number;
  deviceId: string;
  deviceName: string;
  tenantId: string;
  tenantName: string;
  subscriptionName: string;
  packageName: string;
  versionStatus: string;
  installedVersion: string;
  installedVersionReleased: string;
  latestVersion: string | null;
  latestVersionReleased: string | null;
}

const ofTenant = () => `tenantId eq ${tenantId}`;

async function list(user: string, query: Record<string, string>) {
  const response = await portal.as(user, { method: 'GET', url: '/v1/compliancereport', query });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ '@odata.count'?: number; value: Row[] }>();
}

async function apply(user: string, $apply: string, $filter = ofTenant()) {
  const response = await portal.as(user, { method: 'GET', url: '/v1/compliancereport', query: { $apply, $filter } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ value: Record<string, unknown>[] }>().value;
}

const summary = (row: Row) =>
  `${row.deviceName} ${row.packageName} ${row.installedVersion} ${row.latestVersion ?? '-'} ${row.versionStatus}`;

describe('version report rows', () => {
  test('lists each device and installed package against the Latest, sorted by device name, 25 a page', async () => {
    const answer = await list('admin', { $filter: ofTenant(), $count: 'true' });
    expect(answer['@odata.count']).toBe(10);
    expect(answer.value.map(summary)).toEqual([
      'dev-a Alpha 1.1.0 1.1.0 Current',
      'dev-a Beta 2.0.0 2.0.0 Current',
      'dev-b Alpha 1.0.0 1.1.0 Outdated',
      'dev-b Beta 2.1.0-rc.1 2.0.0 Outdated',
      'dev-c Alpha 1.2.0-beta.1 1.1.0 Outdated',
      'dev-c Gamma 0.1.0-alpha - Current',
      'dev-d Gamma 0.1.0-alpha - Current',
      'dev-g Beta 2.0.0 2.0.0 Current',
      'dev-h Alpha 1.1.0 1.1.0 Current',
      'dev-i Alpha 1.0.0 1.1.0 Outdated',
    ]);
    const row = answer.value.find((item) => item.deviceName === 'dev-b' && item.packageName === 'Beta')!;
    expect(row).toMatchObject({
      deviceId: devices['dev-b'],
      tenantId,
      tenantName,
      subscriptionName: 'Plant floor',
      installedVersionReleased: released(7).toISOString(),
      latestVersionReleased: released(2).toISOString(),
    });
  });

  test('pages by 25 unless asked, and by the page size and sort asked', async () => {
    const page = await list('admin', {
      $filter: ofTenant(),
      $top: '4',
      $skip: '4',
      $orderby: 'packageName desc,deviceName',
    });
    // Gamma c d, Beta a b | g, Alpha a b c | h i
    expect(page.value.map(summary)).toEqual([
      'dev-g Beta 2.0.0 2.0.0 Current',
      'dev-a Alpha 1.1.0 1.1.0 Current',
      'dev-b Alpha 1.0.0 1.1.0 Outdated',
      'dev-c Alpha 1.2.0-beta.1 1.1.0 Outdated',
    ]);
    const outdated = await list('admin', { $filter: `${ofTenant()} and versionStatus eq 'Outdated'`, $count: 'true' });
    expect(outdated['@odata.count']).toBe(4);
    expect(outdated.value.every((item) => item.versionStatus === 'Outdated')).toBe(true);
    const searched = await list('admin', {
      $filter: `${ofTenant()} and contains(tolower(deviceName),'dev-c') and packageName eq 'Gamma'`,
    });
    expect(searched.value.map(summary)).toEqual(['dev-c Gamma 0.1.0-alpha - Current']);
    const all = await list('admin', { $top: '1000' });
    expect(all.value.filter((item) => item.tenantId === tenantId)).toHaveLength(10);
    const first = await list('admin', {});
    expect(first.value.length).toBeLessThanOrEqual(25);
  });
});

describe('version report summary', () => {
  test('counts devices and packages by version status and by compliant device, as computed by hand', async () => {
    const count = 'aggregate(deviceId with countdistinct as count)';
    expect(await apply('admin', `groupby((versionStatus),${count})`)).toEqual([
      { versionStatus: 'Current', count: 5 },
      { versionStatus: 'Outdated', count: 3 },
    ]);
    expect(await apply('admin', 'groupby((versionStatus),aggregate(packageId with countdistinct as count))')).toEqual([
      { versionStatus: 'Current', count: 3 },
      { versionStatus: 'Outdated', count: 2 },
    ]);
    const compliant = await apply('admin', `groupby((compliantDevice),${count})`);
    expect(compliant).toEqual([
      { compliantDevice: true, count: 4 },
      { compliantDevice: false, count: 3 },
    ]);
    expect(upToDatePercentage(4, 7)).toBe('57.14');
    expect(await apply('admin', 'groupby((compliantDevice),aggregate(packageId with countdistinct as count))')).toEqual(
      [
        { compliantDevice: true, count: 3 },
        { compliantDevice: false, count: 3 },
      ],
    );
  });

  test("answers the strip's counts from the devices' package counts as the general grouping does, also after installations and the Latest change", async () => {
    const forms = [
      ...['versionStatus', 'compliantDevice'].flatMap((group) =>
        ['deviceId', 'packageId'].map(
          (counted) => `groupby((${group}),aggregate(${counted} with countdistinct as count))`,
        ),
      ),
      'groupby((packageName))',
    ];
    const agree = async () => {
      for (const form of forms)
        expect(await apply('admin', form), form).toEqual(
          await apply('admin', form, `${ofTenant()} and deviceName ne 'none'`),
        );
    };
    await agree();
    // A device moves to the Latest, then back; a new Latest of Gamma makes its devices Outdated, and deleting it undoes that.
    const setAlpha = (version: string) =>
      scoped(portal.db, ALL_TENANTS)
        .updateTable('device_installation')
        .set({ installed_package_version_id: versions[`Alpha ${version}`]! })
        .where('device_id', '=', devices['dev-b']!)
        .where('package_id', '=', packages.Alpha!)
        .execute();
    await setAlpha('1.1.0');
    await agree();
    expect(await apply('admin', 'groupby((versionStatus),aggregate(deviceId with countdistinct as count))')).toEqual([
      { versionStatus: 'Current', count: 6 },
      { versionStatus: 'Outdated', count: 3 },
    ]);
    await setAlpha('1.0.0');
    const gamma = await portal.db
      .insertInto('package_version')
      .values({
        package_id: packages.Gamma!,
        version: '0.1.0',
        label: '0.1.0',
        package_version_status_id: PACKAGE_VERSION_STATUSES.Latest,
        file_sha256: randomBytes(32).toString('hex'),
        file_name: 'Gamma.zip',
        file_size: 10,
      })
      .returning('package_version_id')
      .executeTakeFirstOrThrow();
    await agree();
    expect(await apply('admin', 'groupby((compliantDevice),aggregate(deviceId with countdistinct as count))')).toEqual([
      { compliantDevice: true, count: 3 },
      { compliantDevice: false, count: 4 },
    ]);
    await portal.db.deleteFrom('package_version').where('package_version_id', '=', gamma.package_version_id).execute();
    await agree();
    expect(await apply('admin', 'groupby((compliantDevice),aggregate(deviceId with countdistinct as count))')).toEqual([
      { compliantDevice: true, count: 4 },
      { compliantDevice: false, count: 3 },
    ]);
  });

  test('answers the strip and the choices from the counts as the rows do, filtered by subscription or package too, while devices are deleted, restored and moved', async () => {
    const forms = [
      ...['versionStatus', 'compliantDevice'].flatMap((group) =>
        ['deviceId', 'packageId'].map(
          (counted) => `groupby((${group}),aggregate(${counted} with countdistinct as count))`,
        ),
      ),
      ...['packageName', 'subscriptionName', 'tenantName', 'versionStatus'].map((field) => `groupby((${field}))`),
    ];
    const other = await scoped(portal.db, ALL_TENANTS)
      .insertInto('subscription', { tenant_id: tenantId, name: 'Warehouse' })
      .returning('subscription_id')
      .executeTakeFirstOrThrow();
    const filters = () => [
      ofTenant(),
      `${ofTenant()} and subscriptionId eq ${subscriptionId}`,
      `${ofTenant()} and subscriptionName eq 'Warehouse'`,
      `${ofTenant()} and packageName eq 'Alpha'`,
      `packageId eq ${packages.Beta!} and ${ofTenant()}`,
      `${ofTenant()} and subscriptionName eq 'Plant floor' and packageName eq 'Gamma'`,
    ];
    const agree = async (step: string) => {
      for (const filter of filters())
        for (const form of forms)
          expect(await apply('admin', form, filter), `${step}: ${form} where ${filter}`).toEqual(
            await apply('admin', form, `${filter} and deviceName ne 'none'`),
          );
    };
    const device = (name: string) =>
      scoped(portal.db, ALL_TENANTS).updateTable('device').where('device_id', '=', devices[name]!);
    await agree('as loaded');
    await device('dev-b').set({ subscription_id: other.subscription_id }).execute();
    await device('dev-a').set({ subscription_id: other.subscription_id }).execute();
    await agree('two devices moved to Warehouse');
    const warehouse = await apply(
      'admin',
      'groupby((compliantDevice),aggregate(deviceId with countdistinct as count))',
      `${ofTenant()} and subscriptionName eq 'Warehouse'`,
    );
    // dev-a compliant, dev-b not.
    expect(warehouse.map((group) => [group.compliantDevice, group.count])).toEqual([
      [true, 1],
      [false, 1],
    ]);
    await device('dev-c').set({ is_deleted: true }).execute();
    await agree('dev-c deleted');
    await device('dev-f').set({ is_deleted: false }).execute();
    await agree('dev-f restored');
    await scoped(portal.db, ALL_TENANTS)
      .deleteFrom('device_installation')
      .where('device_id', '=', devices['dev-g']!)
      .execute();
    await agree("dev-g's installation removed");
    await device('dev-f').set({ is_deleted: true }).execute();
    await device('dev-c').set({ is_deleted: false }).execute();
    await device('dev-a').set({ subscription_id: subscriptionId }).execute();
    await device('dev-b').set({ subscription_id: subscriptionId }).execute();
    await scoped(portal.db, ALL_TENANTS)
      .insertInto('device_installation', {
        device_id: devices['dev-g']!,
        package_id: packages.Beta!,
        tenant_id: tenantId,
        package_version_id: versions['Beta 2.0.0']!,
        installed_package_version_id: versions['Beta 2.0.0']!,
        install_status_id: INSTALL_STATUSES.Installed,
      })
      .execute();
    await agree('as at the start');
    // The counts hold what the report's rows hold: a recount from the installations changes nothing.
    const counts = () =>
      portal.db
        .selectFrom('version_report_package_count')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .orderBy(['subscription_id', 'package_id', 'slot'])
        .execute();
    const kept = await counts();
    await sql`SELECT recount_version_report()`.execute(portal.db);
    expect(await counts()).toEqual(kept);
  });

  test('counts an installation reported while a new Latest is being uploaded against the new Latest', async () => {
    const { Latest, Archived } = PACKAGE_VERSION_STATUSES;
    const forms = [
      'groupby((versionStatus),aggregate(deviceId with countdistinct as count))',
      'groupby((versionStatus),aggregate(packageId with countdistinct as count))',
      'groupby((compliantDevice),aggregate(deviceId with countdistinct as count))',
    ];
    const agree = async (step: string) => {
      for (const form of forms)
        expect(await apply('admin', form), `${step}: ${form}`).toEqual(
          await apply('admin', form, `${ofTenant()} and deviceName ne 'none'`),
        );
    };
    const setAlpha = (device: string, version: string) =>
      scoped(portal.db, ALL_TENANTS)
        .updateTable('device_installation')
        .set({ installed_package_version_id: versions[`Alpha ${version}`]! })
        .where('device_id', '=', devices[device]!)
        .where('package_id', '=', packages.Alpha!)
        .execute();
    // The upload as the catalogue makes it: the package's row locked, the Latest archived, a new one.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    let newest = '';
    const upload = portal.db.transaction().execute(async (trx) => {
      await trx
        .selectFrom('package')
        .select('package_id')
        .where('package_id', '=', packages.Alpha!)
        .forUpdate()
        .execute();
      await trx
        .updateTable('package_version')
        .set({ package_version_status_id: Archived })
        .where('package_version_id', '=', versions['Alpha 1.1.0']!)
        .execute();
      newest = (
        await trx
          .insertInto('package_version')
          .values({
            package_id: packages.Alpha!,
            version: '1.3.0',
            label: '1.3.0',
            package_version_status_id: Latest,
            file_sha256: randomBytes(32).toString('hex'),
            file_name: 'Alpha.zip',
            file_size: 10,
          })
          .returning('package_version_id')
          .executeTakeFirstOrThrow()
      ).package_version_id;
      locked();
      await held;
    });
    await isLocked;
    // dev-i reports 1.1.0, the Latest it can still see: once the upload commits, 1.1.0 is Outdated.
    const report = setAlpha('dev-i', '1.1.0');
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await upload;
    await report;
    await agree('after the upload and the report');
    // Back as it was: 1.1.0 the Latest again, dev-i on 1.0.0.
    await portal.db.deleteFrom('package_version').where('package_version_id', '=', newest).execute();
    await portal.db
      .updateTable('package_version')
      .set({ package_version_status_id: Latest })
      .where('package_version_id', '=', versions['Alpha 1.1.0']!)
      .execute();
    await setAlpha('dev-i', '1.0.0');
    await agree('as at the start');
  });

  test('reads the counts alone for the strip and the choices, never the devices or their installations', async () => {
    const scope = { kind: 'some', tenantIds: [tenantId] } as const;
    const forms = [
      'groupby((versionStatus),aggregate(deviceId with countdistinct as count))',
      'groupby((versionStatus),aggregate(packageId with countdistinct as count))',
      'groupby((compliantDevice),aggregate(deviceId with countdistinct as count))',
      'groupby((packageName))',
      'groupby((subscriptionName))',
    ];
    for (const filter of [
      { tenantId },
      { tenantId, subscriptionName: 'Plant floor' },
      { tenantId, packageName: 'Alpha' },
    ])
      for (const form of forms) {
        const statement = countsStatement(scope, filter, parseApply(form));
        if (!statement) throw new Error(`${form} is not answered from the counts`);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`.execute(portal.db);
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, `${form} ${JSON.stringify(filter)}`).toMatch(/version_report_(device|package)_count/);
        expect(plan, `${form} ${JSON.stringify(filter)}`).not.toMatch(
          /\bdevice_installation\b|\bdevice\b(?!_)|Seq Scan on version_report/,
        );
      }
  });

  test('offers each filter value once, sorted, for the dropdowns', async () => {
    expect(await apply('admin', 'groupby((packageName))')).toEqual([
      { packageName: 'Alpha' },
      { packageName: 'Beta' },
      { packageName: 'Gamma' },
    ]);
    expect(await apply('admin', 'groupby((versionStatus))')).toEqual([
      { versionStatus: 'Current' },
      { versionStatus: 'Outdated' },
    ]);
    expect(await apply('admin', 'groupby((subscriptionName))')).toEqual([{ subscriptionName: 'Plant floor' }]);
    expect(await apply('admin', 'groupby((tenantName))')).toEqual([{ tenantName }]);
    // The counts follow the filters as the grid does.
    expect(
      await apply(
        'admin',
        'groupby((versionStatus),aggregate(deviceId with countdistinct as count))',
        `${ofTenant()} and packageName eq 'Beta'`,
      ),
    ).toEqual([
      { versionStatus: 'Current', count: 2 },
      { versionStatus: 'Outdated', count: 1 },
    ]);
  });

  test('refuses another $apply with a 400 that says which forms it takes', async () => {
    for (const bad of [
      'groupby((deviceName))',
      'aggregate(deviceId with sum as total)',
      'groupby((versionStatus),aggregate(installedVersion with countdistinct as count))',
    ]) {
      const response = await portal.as('admin', { method: 'GET', url: '/v1/compliancereport', query: { $apply: bad } });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json<{ message: string }>().message).toBe(VERSION_REPORT_MESSAGES.applyInvalid);
    }
  });
});

describe('version report access', () => {
  test("shows a tenant's rows and figures only to callers of that tenant", async () => {
    expect((await list('operator', { $filter: ofTenant(), $count: 'true' }))['@odata.count']).toBe(0);
    expect(await apply('operator', 'groupby((versionStatus),aggregate(deviceId with countdistinct as count))')).toEqual(
      [],
    );
    expect(await apply('operator', 'groupby((packageName))')).toEqual([]);
    const own = await list('operator', { $top: '100' });
    expect(own.value.every((row) => row.tenantName !== tenantName)).toBe(true);
    const exported = await portal.as('operator', {
      method: 'POST',
      url: '/v1/compliancereport/Export()',
      payload: { $filter: ofTenant() },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body.trim().split('\n')).toHaveLength(1);
  });

  test('needs Devices view for the rows, the figures and the export', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/v1/compliancereport' },
      { method: 'GET' as const, url: '/v1/compliancereport?$apply=groupby((packageName))' },
      { method: 'POST' as const, url: '/v1/compliancereport/Export()' },
    ]) {
      const response = await portal.as('enduser', request);
      expect(response.statusCode, request.url).toBe(403);
    }
    const anonymous = await portal.app.inject({ method: 'GET', url: '/v1/compliancereport' });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('version report export', () => {
  test('answers versionreport.csv with the grid columns of the page asked, cells safe from spreadsheet formulas', async () => {
    await addDevice('=HYPERLINK("http://evil.example")', [['Alpha', '1.0.0']]);
    const columns = JSON.stringify([
      { field: 'deviceName', title: 'Device' },
      { field: 'packageName', title: 'Package' },
      { field: 'versionStatus', title: 'Status' },
      { field: 'installedVersion', title: 'Installed' },
      { field: 'latestVersion', title: 'Latest' },
    ]);
    const page = await portal.as('admin', {
      method: 'POST',
      url: '/v1/compliancereport/Export()',
      payload: { $filter: ofTenant(), $top: '3', $skip: '0', columns },
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-disposition']).toBe('attachment; filename="versionreport.csv"');
    expect(page.body.trim().split('\n')).toEqual([
      'Device,Package,Status,Installed,Latest',
      `"'=HYPERLINK(""http://evil.example"")",Alpha,Outdated,1.0.0,1.1.0`,
      'dev-a,Alpha,Current,1.1.0,1.1.0',
      'dev-a,Beta,Current,2.0.0,2.0.0',
    ]);
    // Export All: every row of the filter (up to 1000), the same through GET.
    const all = await portal.as('admin', {
      method: 'GET',
      url: '/v1/compliancereport/Export()',
      query: { $filter: ofTenant(), columns },
    });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.body.trim().split('\n')).toHaveLength(12);
    await scoped(portal.db, ALL_TENANTS)
      .updateTable('device')
      .set({ is_deleted: true })
      .where('name', '=', '=HYPERLINK("http://evil.example")')
      .execute();
  });
});

describe('version policy', () => {
  test('is a tenant setting: a number of days, or none', async () => {
    const refused = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenantId}`,
      payload: { name: tenantName, versionPolicyDays: -1 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ errors: Record<string, string[]> }>().errors.versionPolicyDays).toEqual([
      VERSION_POLICY_DAYS_MESSAGE,
    ]);
    const saved = await portal.as('admin', {
      method: 'POST',
      url: `/v1/tenants/${tenantId}`,
      payload: { name: tenantName, versionPolicyDays: 30 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<{ versionPolicyDays: number | null }>().versionPolicyDays).toBe(30);
  });

  test('opens one work unit per device and package out of policy, once however many sweeps run, and resolves it with a note when the device runs the Latest', async () => {
    const units = () =>
      portal.db
        .selectFrom('version_policy_work_unit')
        .innerJoin('work_unit', 'work_unit.work_unit_id', 'version_policy_work_unit.work_unit_id')
        .select([
          'work_unit.work_unit_id',
          'work_unit.title',
          'work_unit.state_id',
          'version_policy_work_unit.device_id',
          'version_policy_work_unit.closed',
        ])
        .where('version_policy_work_unit.tenant_id', '=', tenantId)
        .orderBy('work_unit.title')
        .execute();
    // Beta 2.0.0 (released 2 Jan) is due on 1 Feb at noon, Alpha 1.1.0 (5 Jan) on 4 Feb: nothing yet on 1 Feb in the morning.
    expect((await sweepVersionPolicy(portal.db, new Date(Date.UTC(2026, 1, 1, 6)))).opened).toEqual([]);
    const [first, second] = await Promise.all([
      sweepVersionPolicy(portal.db, new Date(Date.UTC(2026, 1, 10))),
      sweepVersionPolicy(portal.db, new Date(Date.UTC(2026, 1, 10))),
    ]);
    expect(first!.opened.length + second!.opened.length).toBe(4);
    expect((await sweepVersionPolicy(portal.db, new Date(Date.UTC(2026, 1, 11)))).opened).toEqual([]);
    const opened = await units();
    expect(opened.map((unit) => unit.title)).toEqual([
      'dev-b: Alpha 1.0.0 is not the Latest 1.1.0',
      'dev-b: Beta 2.1.0-rc.1 is not the Latest 2.0.0',
      'dev-c: Alpha 1.2.0-beta.1 is not the Latest 1.1.0',
      'dev-i: Alpha 1.0.0 is not the Latest 1.1.0',
    ]);
    expect(opened.every((unit) => unit.state_id === WORK_UNIT_STATES.New && unit.closed === null)).toBe(true);
    const devI = opened.find((unit) => unit.device_id === devices['dev-i'])!;
    const relations = await portal.db
      .selectFrom('work_unit_relation')
      .select(['reference_type', 'reference_id'])
      .where('work_unit_id', '=', devI.work_unit_id)
      .execute();
    expect(relations).toEqual([{ reference_type: 'Device', reference_id: devices['dev-i'] }]);

    // dev-i is updated to the Latest: its unit is resolved with a note, the others stay open.
    await scoped(portal.db, ALL_TENANTS)
      .updateTable('device_installation')
      .set({ installed_package_version_id: versions['Alpha 1.1.0']!, package_version_id: versions['Alpha 1.1.0']! })
      .where('device_id', '=', devices['dev-i']!)
      .execute();
    const swept = await sweepVersionPolicy(portal.db, new Date(Date.UTC(2026, 1, 12)));
    expect(swept).toEqual({ opened: [], closed: [Number(devI.work_unit_id)] });
    const after = await units();
    const resolved = after.find((unit) => unit.device_id === devices['dev-i'])!;
    expect(resolved.state_id).toBe(WORK_UNIT_STATES.Resolved);
    expect(resolved.closed).not.toBeNull();
    expect(after.filter((unit) => unit.closed === null)).toHaveLength(3);
    const notes = await portal.db
      .selectFrom('work_unit_note')
      .select('detail')
      .where('work_unit_id', '=', devI.work_unit_id)
      .where('history_type', 'is', null)
      .execute();
    expect(notes.map((note) => note.detail)).toEqual(['dev-i now runs Alpha 1.1.0, the Latest version.']);
    // Nothing more to do: no second note, no new unit for dev-i.
    expect(await sweepVersionPolicy(portal.db, new Date(Date.UTC(2026, 1, 13)))).toEqual({ opened: [], closed: [] });
  });
});
