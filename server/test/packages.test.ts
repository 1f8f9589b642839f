import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_STATUSES, PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { PACKAGE_MESSAGES } from '@cfs/contracts/packages';
import { ALL_TENANTS } from '../src/auth/tenant-scope.js';
import { scoped } from '../src/db/scoped.js';
import { DEMO } from '../src/db/demo-ids.js';
import { removeFiles } from '../src/areas/packages/versions.js';
import { fileStoreOf, storedPath } from '../src/files/content-store.js';
import { auditTrail, createTestPortal, openSecondInstance, type TestPortal } from './harness.js';
import { filesUnder, multipart } from './upload-helpers.js';

let portal: TestPortal;
beforeAll(async () => {
  portal = await createTestPortal();
});
afterAll(async () => {
  await portal?.close();
});

type Version = {
  packageVersionId: string;
  version: string;
  label: string;
  packageVersionStatusId: number;
  fileName: string;
  fileSha256: string;
  fileSize: number;
};
type Operation = {
  operationId: string;
  name: string;
  operationType: number;
  frequencyDefinitions: number[];
  defaultInterval: string;
  operationResultTypeId: number;
  parameterDefinitions: Record<string, unknown>[];
};
type PackageRow = {
  packageId: string;
  name: string;
  tenantId: string | null;
  operatingSystemRidsId: number[];
  operations?: Operation[];
  versions?: Version[];
  tenant?: { name: string } | null;
};

const upload = (user: string, fields: Record<string, string>, file?: { fileName: string; content: string | Buffer }) =>
  portal.as(user, { method: 'POST', url: '/v1/packages/upload', ...multipart(fields, file) });

/** The status of the answer to `user`'s request. */
const statusAs = async (user: string, options: InjectOptions) => (await portal.as(user, options)).statusCode;
/** The status of the answer to `user`'s upload. */
const uploadStatus = async (...request: Parameters<typeof upload>) => (await upload(...request)).statusCode;

const createPackage = async (user: string, body: Record<string, unknown> = {}) => {
  const response = await portal.as(user, {
    method: 'PUT',
    url: '/v1/packages',
    payload: {
      name: `Package ${randomUUID().slice(0, 6)}`,
      packageTypeId: 3,
      tenantId: DEMO.contoso,
      operatingSystemRidsId: [4],
      ...body,
    },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<PackageRow>();
};

/** The portal's stored file of a hash, as the agent's download reads it. */
const openStored = (sha256: string) => fileStoreOf(portal.config).open(portal.db, sha256);

const readPackage = async (user: string, id: string) =>
  (await portal.as(user, { method: 'GET', url: `/v1/packages/${id}` })).json<
    PackageRow & { operations: Operation[]; versions: Version[] }
  >();

/** An operation of the package (`metricOperation`), added through the API as `user`. */
const addOperation = async (user: string, packageId: string) =>
  (
    await portal.as(user, { method: 'PUT', url: `/v1/packages/${packageId}/operations`, payload: metricOperation })
  ).json<Operation>();

/** A device of the tenant's subscription, written to the database (enrolment is the agent API's part). */
const insertDevice = (tenantId: string, subscriptionId: string) =>
  scoped(portal.db, ALL_TENANTS)
    .insertInto('device', {
      tenant_id: tenantId,
      subscription_id: subscriptionId,
      name: `dev-${randomUUID().slice(0, 6)}`,
    })
    .returning('device_id')
    .executeTakeFirstOrThrow();

/** The device runs the operation (a recurring device operation), written to the database. */
const insertDeviceOperation = (tenantId: string, deviceId: string, operationId: string, label: string) =>
  scoped(portal.db, ALL_TENANTS)
    .insertInto('device_operation', {
      tenant_id: tenantId,
      device_id: deviceId,
      operation_id: operationId,
      label,
      frequency_type_id: 2,
    })
    .execute();

/** The actions of a package's change history, oldest first. */
const historyOf = async (packageId: string) =>
  (await auditTrail(portal.db, 'package', packageId)).map((row) => row.action);

const metricOperation = {
  name: 'Queue Depth',
  frequencyDefinitions: [2],
  defaultInterval: '00:02:00',
  operationType: 6,
  operationResultTypeId: 2,
};

describe('packages', () => {
  it('seeds the shared CFS Agent with an operation of every type, and a stored file for each version', async () => {
    const response = await portal.as('operator', {
      method: 'GET',
      url: `/v1/packages?$filter=name eq 'CFS Agent'&$expand=operations,versions,tenant`,
    });
    expect(response.statusCode).toBe(200);
    const [agent] = response.json<{ value: PackageRow[] }>().value;
    expect(agent).toMatchObject({ tenantId: null, tenant: null, operatingSystemRidsId: [1, 2, 4] });
    const operations = agent!.operations!;
    expect(operations.map((operation) => operation.name).sort()).toEqual([
      'Api Read',
      'Availability',
      'Metric',
      'Read File',
      'Sign In',
      'Synthetic',
    ]);
    expect(new Set(operations.map((operation) => operation.operationType))).toEqual(new Set([1, 2, 3, 4, 5, 6]));
    expect(operations.find((operation) => operation.name === 'Metric')).toMatchObject({
      frequencyDefinitions: [1, 2],
      defaultInterval: '00:01:00',
      operationResultTypeId: 2,
      parameterDefinitions: [],
    });
    const availability = operations.find((operation) => operation.name === 'Availability')!;
    expect(availability).toMatchObject({
      frequencyDefinitions: [1, 2],
      defaultInterval: '00:01:00',
      operationResultTypeId: 1,
    });
    expect(availability.parameterDefinitions).toEqual([
      expect.objectContaining({ Name: 'Url', Source: 'PortalEntry', Required: true }),
      expect.objectContaining({ Name: 'Method', Source: 'PortalEntry', DefaultValue: 'GET' }),
    ]);
    const password = operations
      .find((operation) => operation.name === 'Sign In')!
      .parameterDefinitions.find((parameter) => parameter.Name === 'Password');
    expect(password).toMatchObject({
      Source: 'SecuredValue',
      SecuredValues: [
        expect.objectContaining({
          PlaceholderKeyForSecretValue: expect.any(String),
          SecuredSourceKeyToGetSecretValue: expect.any(String),
        }),
      ],
    });
    const versions = agent!.versions!;
    expect(
      versions
        .filter((version) => version.packageVersionStatusId === PACKAGE_VERSION_STATUSES.Latest)
        .map((version) => version.version),
    ).toEqual(['1.1.0']);
    for (const version of versions) {
      const stored = await openStored(version.fileSha256);
      expect(stored?.size).toBe(version.fileSize);
      stored?.stream.destroy();
    }
  });

  it('shows another tenant’s packages to nobody else: not listed, 404 to read, edit, delete or upload to', async () => {
    const own = await createPackage('operator', { name: `Contoso tool ${randomUUID().slice(0, 6)}` });
    const theirs = await createPackage('operator2', { tenantId: DEMO.fabrikam, name: 'Fabrikam only' });
    const names = (await portal.as('operator', { method: 'GET', url: '/v1/packages?$top=100' }))
      .json<{ value: PackageRow[] }>()
      .value.map((row) => row.name);
    expect(names).toContain(own.name);
    expect(names).not.toContain(theirs.name);
    expect(await statusAs('operator', { method: 'GET', url: `/v1/packages/${theirs.packageId}` })).toBe(404);
    expect(
      await statusAs('operator', {
        method: 'POST',
        url: `/v1/packages/${theirs.packageId}`,
        payload: { name: 'Mine', packageTypeId: 1, tenantId: DEMO.contoso },
      }),
    ).toBe(404);
    expect(await statusAs('operator', { method: 'DELETE', url: `/v1/packages/${theirs.packageId}` })).toBe(404);
    expect(
      await statusAs('operator', {
        method: 'PUT',
        url: `/v1/packages/${theirs.packageId}/operations`,
        payload: metricOperation,
      }),
    ).toBe(404);
    expect(
      await uploadStatus(
        'operator',
        { packageId: theirs.packageId, version: '1.0.0', label: 'x' },
        { fileName: 'a.sh', content: 'echo' },
      ),
    ).toBe(404);
    const refused = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/packages',
      payload: { name: 'Into Fabrikam', packageTypeId: 1, tenantId: DEMO.fabrikam },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.tenantId).toBeDefined();
    expect((await readPackage('operator2', theirs.packageId)).name).toBe('Fabrikam only');
  });

  it('lets only a caller of all tenants create or change a shared package and its operations', async () => {
    expect(
      await statusAs('operator', {
        method: 'PUT',
        url: '/v1/packages',
        payload: { name: 'Shared', packageTypeId: 1, tenantId: null },
      }),
    ).toBe(403);
    const agent = await createPackage('admin', {
      tenantId: null,
      name: `Installation-wide ${randomUUID().slice(0, 6)}`,
    });
    expect(
      (await portal.as('operator', { method: 'GET', url: `/v1/packages?$filter=name eq '${agent.name}'` })).json<{
        value: PackageRow[];
      }>().value,
    ).toHaveLength(1);
    expect(
      await statusAs('operator', {
        method: 'POST',
        url: `/v1/packages/${agent.packageId}`,
        payload: { name: 'Hijacked', packageTypeId: 4, tenantId: DEMO.contoso },
      }),
    ).toBe(403);
    expect(
      await statusAs('operator', {
        method: 'PUT',
        url: `/v1/packages/${agent.packageId}/operations`,
        payload: metricOperation,
      }),
    ).toBe(403);
    expect(
      await uploadStatus(
        'operator',
        { packageId: agent.packageId, version: '9.0.0', label: 'x' },
        { fileName: 'a.js', content: 'x' },
      ),
    ).toBe(403);
    expect((await readPackage('admin', agent.packageId)).name).toBe(agent.name);
    const shared = await createPackage('admin', { tenantId: null, name: 'Installation-wide' });
    expect(shared.tenantId).toBeNull();
  });

  it('validates a package with the form’s messages', async () => {
    const response = await portal.as('operator', {
      method: 'PUT',
      url: '/v1/packages',
      payload: { name: ' ', tenantId: DEMO.contoso, referenceUrl: 'not a url' },
    });
    expect(response.statusCode).toBe(400);
    const { errors } = response.json<{ errors: Record<string, string[]> }>();
    expect(errors.name).toEqual(['Name is required']);
    expect(errors.packageTypeId).toEqual(['Package Type is required']);
    expect(errors.referenceUrl).toEqual(['Please enter a valid URL.']);
  });

  it('creates, edits and deletes an operation, with its parameter definitions and the interval rules', async () => {
    const pkg = await createPackage('operator');
    const secured = {
      Name: 'Token',
      Source: 'SecuredValue',
      Required: true,
      SecuredValues: [{ PlaceholderKeyForSecretValue: '{{Token}}', SecuredSourceKeyToGetSecretValue: 'api/token' }],
    };
    const created = await portal.as('operator', {
      method: 'PUT',
      url: `/v1/packages/${pkg.packageId}/operations`,
      payload: { ...metricOperation, parameterDefinitions: [{ Name: 'Queue' }, secured] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const operation = created.json<Operation>();
    expect(operation.parameterDefinitions).toEqual([
      { Name: 'Queue', Description: null, Required: false, Source: 'PortalEntry', DefaultValue: null },
      { ...secured, Description: null, DefaultValue: null },
    ]);
    const bad = await portal.as('operator', {
      method: 'POST',
      url: `/v1/packages/${pkg.packageId}/operations/${operation.operationId}`,
      payload: { ...metricOperation, defaultInterval: '00:00:20', frequencyDefinitions: [] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toMatchObject({
      defaultInterval: ['Interval must be at least 00:00:30'],
      frequencyDefinitions: ['Choose at least one frequency'],
    });
    const badFormat = await portal.as('operator', {
      method: 'PUT',
      url: `/v1/packages/${pkg.packageId}/operations`,
      payload: { ...metricOperation, defaultInterval: '5 minutes' },
    });
    expect(badFormat.json().errors.defaultInterval).toEqual(['Interval must be written HH:mm:ss']);
    const missing = await portal.as('operator', {
      method: 'PUT',
      url: `/v1/packages/${pkg.packageId}/operations`,
      payload: { ...metricOperation, defaultInterval: '' },
    });
    expect(missing.json().errors.defaultInterval).toEqual(['Interval is required']);
    const updated = await portal.as('operator', {
      method: 'POST',
      url: `/v1/packages/${pkg.packageId}/operations/${operation.operationId}`,
      payload: { ...metricOperation, name: 'Queue Length', defaultInterval: '00:00:30' },
    });
    expect(updated.json()).toMatchObject({
      name: 'Queue Length',
      defaultInterval: '00:00:30',
      parameterDefinitions: [],
    });
    expect((await readPackage('operator', pkg.packageId)).operations.map((row) => row.name)).toEqual(['Queue Length']);
    expect(
      await statusAs('operator', {
        method: 'DELETE',
        url: `/v1/packages/${pkg.packageId}/operations/${operation.operationId}`,
      }),
    ).toBe(204);
    expect((await readPackage('operator', pkg.packageId)).operations).toEqual([]);
    expect(await historyOf(pkg.packageId)).toEqual([
      'create',
      'create operation',
      'update operation',
      'delete operation',
    ]);
  });

  it('gives uploaded versions their SemVer statuses: a higher stable version is Latest and archives the previous, a lower one is Archived, a pre-release is PreRelease', async () => {
    const pkg = await createPackage('operator');
    const send = async (version: string, content = `echo ${version}`) => {
      const response = await upload(
        'operator',
        { packageId: pkg.packageId, version, label: `Build ${version}`, tenantId: DEMO.contoso },
        { fileName: `run-${version}.sh`, content },
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<Version>();
    };
    const statusOf = async () =>
      Object.fromEntries(
        (await readPackage('operator', pkg.packageId)).versions.map((version) => [
          version.version,
          version.packageVersionStatusId,
        ]),
      );
    const first = await send('1.0.0');
    expect(first.packageVersionStatusId).toBe(PACKAGE_VERSION_STATUSES.Latest);
    await send('1.1.0');
    expect(await statusOf()).toEqual({
      '1.0.0': PACKAGE_VERSION_STATUSES.Archived,
      '1.1.0': PACKAGE_VERSION_STATUSES.Latest,
    });
    await send('0.9.0');
    await send('2.0.0-beta.1');
    expect(await statusOf()).toEqual({ '1.0.0': 2, '1.1.0': 1, '0.9.0': 2, '2.0.0-beta.1': 3 });
    const stored = await fs.readFile(storedPath(path.join(portal.config.dataDir, 'files'), first.fileSha256), 'utf8');
    expect(stored).toBe('echo 1.0.0');
    expect(first.fileSha256).toBe(createHash('sha256').update('echo 1.0.0').digest('hex'));

    const invalid = await upload(
      'operator',
      { packageId: pkg.packageId, version: '1.2', label: 'x' },
      { fileName: 'a', content: 'a' },
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors.version).toEqual(['Version must be a SemVer 2 version, e.g. 1.2.3 or 1.3.0-beta.1']);
    // A lenient reading would store "v1.3.0" as 1.3.0 and make it Latest, which cannot be deleted.
    for (const version of ['v1.3.0', '=1.3.0', 'V2.0.0', '01.3.0']) {
      const lenient = await upload(
        'operator',
        { packageId: pkg.packageId, version, label: 'x' },
        { fileName: 'a', content: `lenient ${version}` },
      );
      expect(lenient.statusCode, version).toBe(400);
      expect(lenient.json().errors.version, version).toEqual([
        'Version must be a SemVer 2 version, e.g. 1.2.3 or 1.3.0-beta.1',
      ]);
    }
    const duplicate = await upload(
      'operator',
      { packageId: pkg.packageId, version: '1.1.0', label: 'again' },
      { fileName: 'a', content: 'other' },
    );
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().errors.version).toEqual(['Version 1.1.0 already exists for this package.']);
    const empty = await upload('operator', { packageId: pkg.packageId, version: '3.0.0', label: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toMatchObject({ label: ['Label is required'], file: ['File is required'] });
    expect(Object.keys(await statusOf())).toHaveLength(4);
    // Uploads are recorded on the package: its history tells the whole story.
    expect(await historyOf(pkg.packageId)).toEqual([
      'create',
      'upload version',
      'upload version',
      'upload version',
      'upload version',
    ]);
  });

  it('refuses to delete the Latest version, deletes an archived one and its file', async () => {
    const pkg = await createPackage('operator');
    const send = async (version: string) =>
      (
        await upload(
          'operator',
          { packageId: pkg.packageId, version, label: version },
          { fileName: 'f.txt', content: `only ${version} ${pkg.packageId}` },
        )
      ).json<Version>();
    const old = await send('1.0.0');
    const latest = await send('1.0.1');
    const refused = await portal.as('operator', {
      method: 'DELETE',
      url: `/v1/packages/${pkg.packageId}/versions/${latest.packageVersionId}`,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('The Latest version cannot be deleted.');
    expect(
      await statusAs('operator', {
        method: 'DELETE',
        url: `/v1/packages/${pkg.packageId}/versions/${old.packageVersionId}`,
      }),
    ).toBe(204);
    expect((await readPackage('operator', pkg.packageId)).versions.map((version) => version.version)).toEqual([
      '1.0.1',
    ]);
    expect(await openStored(old.fileSha256)).toBeNull();
  });

  it("removes a stored file only while no version names it, checked again under the file's lock", async () => {
    const pkg = await createPackage('operator');
    const kept = (
      await upload(
        'operator',
        { packageId: pkg.packageId, version: '1.0.0', label: 'kept' },
        { fileName: 'k.txt', content: `kept ${pkg.packageId}` },
      )
    ).json<Version>();
    // As a delete on another instance would after its commit, while an upload of the same content committed meanwhile.
    await removeFiles(portal.db, portal.config, [kept.fileSha256]);
    expect(await openStored(kept.fileSha256)).not.toBeNull();
  });

  it('refuses a file over the configured cap with 413 and keeps nothing of it', async () => {
    const small = await openSecondInstance(portal, { PACKAGE_UPLOAD_MAX_MB: '0.01' });
    try {
      const pkg = await createPackage('operator');
      const before = await filesUnder(portal.config.dataDir);
      const response = await small.as('operator', {
        method: 'POST',
        url: '/v1/packages/upload',
        ...multipart(
          { packageId: pkg.packageId, version: '1.0.0', label: 'Big' },
          { fileName: 'big.bin', content: Buffer.alloc(50_000, 7) },
        ),
      });
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe('The file is larger than the 0.01 MB limit.');
      expect(await filesUnder(portal.config.dataDir)).toEqual(before);
      expect((await readPackage('operator', pkg.packageId)).versions).toEqual([]);
      const fits = await small.as('operator', {
        method: 'POST',
        url: '/v1/packages/upload',
        ...multipart(
          { packageId: pkg.packageId, version: '1.0.0', label: 'Small' },
          { fileName: 'small.bin', content: Buffer.alloc(5_000, 7) },
        ),
      });
      expect(fits.statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('answers a body the multipart reader cannot parse with 400, not 500', async () => {
    const pkg = await createPackage('operator');
    const { payload } = multipart(
      { packageId: pkg.packageId, version: '1.0.0', label: 'x' },
      { fileName: 'a.sh', content: 'echo' },
    );
    const response = await portal.as('operator', {
      method: 'POST',
      url: '/v1/packages/upload',
      headers: { 'content-type': 'multipart/form-data' },
      payload,
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      message: PACKAGE_MESSAGES.uploadFailed,
      errors: { file: [PACKAGE_MESSAGES.uploadUnreadable] },
    });
  });

  it('answers an unterminated multipart body with 400 and keeps nothing: no version, no file', async () => {
    const pkg = await createPackage('operator');
    const { payload, headers } = multipart(
      { packageId: pkg.packageId, version: '1.0.0', label: 'Cut short' },
      { fileName: 'cut.bin', content: `cut short ${pkg.packageId}` },
    );
    const before = await filesUnder(portal.config.dataDir);
    // The body ends inside the file part: no closing boundary (a client that stopped sending).
    const cut = payload.subarray(0, payload.lastIndexOf('\r\n--'));
    const response = await portal.as('operator', { method: 'POST', url: '/v1/packages/upload', headers, payload: cut });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      message: PACKAGE_MESSAGES.uploadFailed,
      errors: { file: [PACKAGE_MESSAGES.uploadUnreadable] },
    });
    const versions = await portal.db
      .selectFrom('package_version')
      .select('package_version_id')
      .where('package_id', '=', pkg.packageId)
      .execute();
    expect(versions).toEqual([]);
    expect((await filesUnder(portal.config.dataDir)).filter((file) => !before.includes(file))).toEqual([]);
  });

  it('keeps an uploaded file’s base name as data only: a name that climbs out of the store writes nothing outside it', async () => {
    const pkg = await createPackage('operator');
    const names = ['../../x', '..\\..\\x', '/tmp/cfs-absolute-x', '../../../../../../etc/cfs-x'];
    const before = await filesUnder(portal.config.dataDir);
    for (const [index, fileName] of names.entries()) {
      const response = await upload(
        'operator',
        { packageId: pkg.packageId, version: `1.0.${String(index)}`, label: 'Traversal' },
        { fileName, content: `traversal ${String(index)} ${pkg.packageId}` },
      );
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json<Version>().fileName).toBe(fileName.split(/[\\/]/).pop());
    }
    const added = (await filesUnder(portal.config.dataDir)).filter((file) => !before.includes(file));
    expect(added).toHaveLength(names.length);
    for (const file of added) expect(file).toMatch(/^files\/sha256\/[0-9a-f]{2}\/[0-9a-f]{64}$/);
    const outside = [
      path.resolve(portal.config.dataDir, 'x'),
      path.resolve(portal.config.dataDir, 'files', 'x'),
      path.resolve(portal.config.dataDir, '..', 'x'),
      '/tmp/cfs-absolute-x',
      '/etc/cfs-x',
    ];
    for (const file of outside) await expect(fs.stat(file)).rejects.toThrow();
  });

  it('refuses to delete a package a device holds or whose operation a device runs, and deletes it once free', async () => {
    const pkg = await createPackage('operator');
    const operation = await addOperation('operator', pkg.packageId);
    const db = scoped(portal.db, ALL_TENANTS);
    const device = await insertDevice(DEMO.contoso, DEMO.contosoProduction);
    await db
      .insertInto('device_installation', {
        device_id: device.device_id,
        package_id: pkg.packageId,
        tenant_id: DEMO.contoso,
        install_status_id: INSTALL_STATUSES.Installed,
      })
      .execute();
    const held = await portal.as('operator', { method: 'DELETE', url: `/v1/packages/${pkg.packageId}` });
    expect(held.statusCode).toBe(400);
    expect(held.json().message).toBe(
      'The package cannot be deleted while a device has it installed or wanted, or a device operation uses one of its operations.',
    );
    await db
      .updateTable('device_installation')
      .set({ install_status_id: INSTALL_STATUSES.Removed })
      .where('device_id', '=', device.device_id)
      .execute();
    await insertDeviceOperation(DEMO.contoso, device.device_id, operation.operationId, 'Queue');
    expect(await statusAs('operator', { method: 'DELETE', url: `/v1/packages/${pkg.packageId}` })).toBe(400);
    expect(
      await statusAs('operator', {
        method: 'DELETE',
        url: `/v1/packages/${pkg.packageId}/operations/${operation.operationId}`,
      }),
    ).toBe(400);
    await db.deleteFrom('device_operation').where('device_id', '=', device.device_id).execute();
    expect(await statusAs('operator', { method: 'DELETE', url: `/v1/packages/${pkg.packageId}` })).toBe(204);
    expect(await statusAs('operator', { method: 'GET', url: `/v1/packages/${pkg.packageId}` })).toBe(404);
  });

  it("keeps a shared package shared while other tenants' devices use it, and lets it become their own tenant's", async () => {
    const pkg = await createPackage('admin', { tenantId: null });
    const operation = await addOperation('admin', pkg.packageId);
    const device = await insertDevice(DEMO.fabrikam, DEMO.fabrikamProduction);
    await insertDeviceOperation(DEMO.fabrikam, device.device_id, operation.operationId, 'Runs here');
    const edit = (tenantId: string | null) =>
      portal.as('admin', {
        method: 'POST',
        url: `/v1/packages/${pkg.packageId}`,
        payload: { name: pkg.name, packageTypeId: 3, operatingSystemRidsId: [4], tenantId },
      });
    const toContoso = await edit(DEMO.contoso);
    expect(toContoso.statusCode).toBe(400);
    expect(toContoso.json().errors.tenantId).toEqual([
      'Devices of other tenants use this package: it can stay shared, or belong to their tenant.',
    ]);
    expect((await readPackage('admin', pkg.packageId)).tenantId).toBeNull();
    expect((await edit(DEMO.fabrikam)).statusCode).toBe(200);
  });

  it('refuses callers without the Packages permission', async () => {
    expect(await statusAs('enduser', { method: 'GET', url: '/v1/packages' })).toBe(403);
    expect(
      await statusAs('enduser', {
        method: 'PUT',
        url: '/v1/packages',
        payload: { name: 'x', packageTypeId: 1, tenantId: DEMO.contoso },
      }),
    ).toBe(403);
    expect(
      await uploadStatus(
        'enduser',
        { packageId: randomUUID(), version: '1.0.0', label: 'x' },
        { fileName: 'a', content: 'a' },
      ),
    ).toBe(403);
  });
});
