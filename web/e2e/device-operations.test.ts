import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { FLEET_MESSAGES } from '@cfs/contracts/fleet';
import type { DeviceOperation } from '@cfs/contracts/device-operations';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  browser,
  createToken,
  drawer,
  enrolAgent,
  gridRow,
  homeTenantId,
  portalDatabase,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  uniqueName,
  type ListResponse,
  type Session,
  toastShown,
} from './support';

/**
 * The Device Operations drawer in the browser (spec 002 §2 Devices, §4, §5, §8): each test makes
 * its own devices (agents that enrol and are promoted) and its own package and operation through
 * the API, then adds, edits, queues, disables, clones and deletes operations in the drawer.
 */

/** A device of the user's tenant: an agent enrols with a tenant token and is promoted. */
async function createDevice(session: Session, name: string): Promise<string> {
  const { generatedToken } = await createToken(session);
  const pendingDeviceId = await enrolAgent(generatedToken, name);
  const promoted = await api<{ deviceIds: string[] }>(session, '/v1/pendingdevices/batchpromote', {
    method: 'POST',
    body: [pendingDeviceId],
  });
  return promoted.deviceIds[0]!;
}

/** A package of the tenant for Windows with one operation that runs on demand or recurring and needs a Url. */
async function createOperation(session: Session, name: string): Promise<string> {
  const pkg = await api<{ packageId: string }>(session, '/v1/packages', {
    method: 'PUT',
    body: {
      name: uniqueName('E2E package'),
      tenantId: homeTenantId(session),
      packageTypeId: 1,
      operatingSystemRidsId: [1],
    },
  });
  const operation = await api<{ operationId: string }>(session, `/v1/packages/${pkg.packageId}/operations`, {
    method: 'PUT',
    body: {
      name,
      description: 'Checks that an address answers',
      parameterDefinitions: [
        { Name: 'Url', Description: 'The address to check', Required: true, Source: 'PortalEntry', DefaultValue: '' },
      ],
      frequencyDefinitions: [1, 2],
      defaultInterval: '00:05:00',
      operationType: 3,
      operationResultTypeId: 2,
    },
  });
  return operation.operationId;
}

describe('device operations (operator)', () => {
  /** The operation's package as the agent reports it installed on the device. */
  async function install(deviceId: string, operationId: string): Promise<void> {
    const db = await portalDatabase();
    try {
      await db.query(
        `INSERT INTO device_installation (device_id, tenant_id, package_id, install_status_id)
         SELECT device.device_id, device.tenant_id, operation.package_id, 2 FROM device, operation WHERE device.device_id = $1 AND operation.operation_id = $2`,
        [deviceId, operationId],
      );
    } finally {
      await db.end();
    }
  }

  const operationsOf = async (session: Session, deviceId: string) =>
    (
      await api<ListResponse<JsonOf<DeviceOperation>>>(
        session,
        `/v1/deviceOperations?$filter=deviceId eq ${deviceId} and isDeleted eq false&$orderby=label`,
      )
    ).value;

  async function openDrawer(session: Session, page: Page, deviceId: string, deviceName: string): Promise<Locator> {
    await page.goto(`/${homeTenantId(session)}/devices?deviceOperationsId=${deviceId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Device Operations: ${deviceName}` }).waitFor();
    return panel;
  }

  test("adds an operation through the picker (offering only the operations of packages installed on the device) with the form's rules, queues it on demand, edits it and reads its logs", async () => {
    const session = await sessionOf(browser, 'operator');
    const deviceName = uniqueName('E2E-OPS').replace(' ', '-');
    const deviceId = await createDevice(session, deviceName);
    const probes = uniqueName('E2E Probe');
    const operationName = `${probes} installed`;
    await install(deviceId, await createOperation(session, operationName));
    await createOperation(session, `${probes} elsewhere`);
    const page = await signedInPage(browser, 'operator', { width: 1440 });
    const panel = await openDrawer(session, page, deviceId, deviceName);

    await panel.getByRole('button', { name: 'Add Operation' }).click();
    await panel.getByRole('heading', { name: 'Add Operation' }).waitFor();
    await searchGrid(panel, probes);
    await gridRow(page, operationName).waitFor();
    expect(await gridRow(page, `${probes} elsewhere`).count()).toBe(0);
    await screenshot(page, 'device-operations-picker');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'device-operations-picker-375');
    await page.setViewportSize({ width: 1440, height: 900 });
    await gridRow(page, operationName).getByRole('button', { name: operationName }).click();
    await panel.getByRole('heading', { name: `Create Device Operation: ${operationName}` }).waitFor();

    // Only the frequencies the operation allows; a new one starts at 00:05:00.
    expect(await panel.getByRole('textbox', { name: 'Interval' }).inputValue()).toBe('00:05:00');
    await panel.getByRole('combobox', { name: 'Frequency' }).click();
    const options = page.getByRole('listbox').getByRole('option');
    await expect.poll(() => options.allTextContents()).toEqual(['On Demand', 'Recurring']);
    await options.filter({ hasText: 'On Demand' }).click();

    await panel.getByRole('textbox', { name: 'Interval' }).fill('');
    await panel.getByRole('button', { name: 'Create', exact: true }).click();
    await panel.getByText('Label is required').waitFor();
    await panel.getByText('Interval is required').waitFor();
    await panel.getByRole('textbox', { name: 'Interval' }).fill('00:00:10');
    await panel.getByText('Interval must be at least 30 seconds.').waitFor();
    await panel.getByRole('textbox', { name: 'Interval' }).fill('00:01:00');
    await panel.getByRole('textbox', { name: 'Label' }).fill('Homepage');
    // The server's text for a required parameter left empty.
    await panel.getByRole('button', { name: 'Create', exact: true }).click();
    await toastShown(page, 'Url is required.');
    await panel.getByRole('textbox', { name: 'Url Value' }).fill('https://contoso.example');
    await screenshot(page, 'device-operation-form');
    await panel.getByRole('button', { name: 'Create', exact: true }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationCreated);

    const row = gridRow(page, 'Homepage');
    await row.waitFor();
    await row.getByRole('button', { name: 'Enqueue' }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationEnqueued);
    await row.getByText('Queued').waitFor();
    await screenshot(page, 'device-operations-queued');
    const [queued] = await operationsOf(session, deviceId);
    expect(queued).toMatchObject({
      label: 'Homepage',
      frequencyTypeId: 1,
      operationComplete: false,
      interval: '00:01:00',
    });
    expect(queued?.completionToken).toBeTruthy();
    await row.getByRole('button', { name: 'Dequeue' }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationDequeued);
    await expect.poll(() => row.getByText('Queued').count()).toBe(0);

    await row.getByRole('button', { name: 'Edit Operation' }).click();
    await panel.getByRole('heading', { name: `Edit Device Operation: ${operationName}` }).waitFor();
    expect(await panel.getByRole('textbox', { name: 'Url Value' }).inputValue()).toBe('https://contoso.example');
    await panel.getByRole('textbox', { name: 'Label' }).fill('Homepage check');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationUpdated);
    const edited = gridRow(page, 'Homepage check');
    await edited.waitFor();

    await edited.getByRole('button', { name: 'Operation Logs' }).click();
    await panel.getByRole('heading', { name: 'Operation Logs: Homepage check' }).waitFor();
    await panel.getByText(FLEET_MESSAGES.noLogs).waitFor();
    await panel.getByRole('button', { name: 'Back to Operations' }).click();
    await gridRow(page, 'Homepage check').waitFor();
  });

  test('clones the chosen operations to another device, disables one out of the list and deletes one after confirmation', async () => {
    const session = await sessionOf(browser, 'operator');
    const sourceName = uniqueName('E2E-SRC').replace(' ', '-');
    const targetName = uniqueName('E2E-DST').replace(' ', '-');
    const sourceId = await createDevice(session, sourceName);
    const targetId = await createDevice(session, targetName);
    const operationId = await createOperation(session, uniqueName('E2E Probe'));
    for (const label of ['Alpha', 'Beta']) {
      await api(session, '/v1/deviceOperations', {
        method: 'PUT',
        body: {
          deviceId: sourceId,
          operationId,
          label,
          frequencyTypeId: 2,
          interval: '00:05:00',
          parameters: [{ Name: 'Url', Source: 'PortalEntry', Value: 'https://x.example' }],
        },
      });
    }
    const page = await signedInPage(browser, 'operator');
    const panel = await openDrawer(session, page, sourceId, sourceName);
    await gridRow(page, 'Alpha').waitFor();
    await gridRow(page, 'Beta').waitFor();

    await panel.getByRole('button', { name: 'Clone Operations' }).click();
    await panel.getByRole('heading', { name: 'Clone Device Operations' }).waitFor();
    // Every operation starts chosen; a target is required and the source is not offered.
    await expect.poll(() => panel.getByRole('checkbox', { checked: true }).count()).toBe(2);
    await panel.getByRole('button', { name: 'Clone', exact: true }).click();
    await panel.getByText('Please choose a target device.').waitFor();
    await panel.getByRole('combobox', { name: 'Target Device' }).click();
    const targets = page.getByRole('listbox').getByRole('option');
    await targets.filter({ hasText: targetName }).waitFor();
    expect(await targets.filter({ hasText: sourceName }).count()).toBe(0);
    await targets.filter({ hasText: targetName }).click();
    await panel.getByRole('checkbox', { name: 'Beta' }).uncheck();
    await screenshot(page, 'device-operations-clone');
    await panel.getByRole('button', { name: 'Clone', exact: true }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationsCloned);
    expect((await operationsOf(session, targetId)).map((row) => row.label)).toEqual(['Alpha']);

    await gridRow(page, 'Alpha').getByRole('button', { name: 'Disable Operation' }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationDisabled);
    await expect.poll(() => gridRow(page, 'Alpha').count()).toBe(0);
    await panel.getByLabel('Show Disabled').check();
    await gridRow(page, 'Alpha').getByText('Disabled').waitFor();

    await gridRow(page, 'Beta').getByRole('button', { name: 'Delete Operation' }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: 'Delete Operation: Beta' });
    await dialog.getByRole('button', { name: 'Yes' }).click();
    // Once the server has answered: the grid may show no Beta row for a moment while it is read again.
    await toastShown(page, FLEET_MESSAGES.deviceOperationDeleted);
    await expect.poll(() => gridRow(page, 'Beta').count()).toBe(0);
    expect((await operationsOf(session, sourceId)).map((row) => row.label)).toEqual(['Alpha']);
  });
});
