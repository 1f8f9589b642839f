import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { PENDING_DEVICE_MESSAGES } from '@cfs/contracts/pending-devices';
import type { PendingDevice } from '@cfs/contracts/pending-devices';
import type { JsonOf } from '../src/lib/json-types';
import {
  browser,
  createToken,
  enrolAgent,
  gridRow,
  homeTenantId,
  screenshot,
  searchGrid,
  serverCall,
  sessionOf,
  signedInPage,
  uniqueName,
  type ListResponse,
  type Session,
} from './support';

/**
 * Pending Devices in the browser (spec 002 §2, §4, §5): agents enrol through the agent API with a
 * tenant token (each test its own, under a unique machine-name prefix), then the operator
 * promotes or deletes them in batches of fewer than 25, after confirmation.
 */

/** Agents that enrol with a token of the user's tenant: each becomes a pending device. */
async function enrolAgents(
  session: Session,
  prefix: string,
  count: number,
  operatingSystem = 'win32',
): Promise<string[]> {
  const { generatedToken } = await createToken(session);
  const names: string[] = [];
  for (let index = 1; index <= count; index++) {
    const machineName = `${prefix}-${String(index).padStart(2, '0')}`;
    await enrolAgent(generatedToken, machineName, operatingSystem);
    names.push(machineName);
  }
  return names;
}

/** Selects a row's checkbox; a click that lands while the grid lays its columns out again is made again. */
async function select(row: Locator): Promise<void> {
  const box = row.getByRole('checkbox');
  await expect
    .poll(async () => {
      if (!(await box.isChecked())) await box.click();
      return box.isChecked();
    })
    .toBe(true);
}

describe('pending devices (operator)', () => {
  async function openPage(): Promise<{ page: Page; session: Session }> {
    const session = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${homeTenantId(session)}/pendingdevices`);
    await page.getByRole('heading', { level: 1, name: 'Pending Devices' }).waitFor();
    return { page, session };
  }

  test('lists enrolled agents by machine name; Promote asks first, then moves the device out of the list into the devices', async () => {
    const { page, session } = await openPage();
    const prefix = uniqueName('PD').replace(' ', '-');
    const names = await enrolAgents(session, prefix, 3);
    await searchGrid(page, prefix);
    const rows = page.locator('.MuiDataGrid-row');
    await expect.poll(() => rows.allTextContents()).toEqual(names.map((name) => expect.stringContaining(name)));
    for (const header of ['Machine Name', 'Operating System', 'Architecture', 'IP Address', 'Last Ping'])
      await page.getByRole('columnheader', { name: header }).waitFor();

    const promote = page.getByRole('button', { name: 'Promote', exact: true });
    const remove = page.getByRole('button', { name: 'Delete', exact: true });
    expect(await promote.isDisabled()).toBe(true);
    expect(await remove.isDisabled()).toBe(true);

    await select(gridRow(page, names[0]!));
    await screenshot(page, 'pending-devices-selected');
    await promote.click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(PENDING_DEVICE_MESSAGES.promoteConfirm(1)).waitFor();
    await dialog.getByRole('button', { name: 'No' }).click();
    await expect.poll(() => gridRow(page, names[0]!).count()).toBe(1);

    await promote.click();
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await page.getByText(PENDING_DEVICE_MESSAGES.promoted(1)).waitFor();
    await expect.poll(() => gridRow(page, names[0]!).count()).toBe(0);
    const left = await serverCall<ListResponse<JsonOf<PendingDevice>>>(
      page,
      `/v1/pendingdevices?$filter=startswith(machineName,'${prefix}')`,
    );
    expect(left.value.map((row) => row.machineName).sort()).toEqual(names.slice(1));
    const devices = await serverCall<ListResponse<{ name: string; subscriptionId: string }>>(
      page,
      `/v1/devices?$filter=name eq '${names[0]!}'`,
    );
    expect(devices.value).toEqual([
      expect.objectContaining({ name: names[0], subscriptionId: session.me.subscriptionId }),
    ]);

    await select(gridRow(page, names[1]!));
    await remove.click();
    await dialog.getByText(PENDING_DEVICE_MESSAGES.deleteConfirm(1)).waitFor();
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await page.getByText(PENDING_DEVICE_MESSAGES.deleted(1)).waitFor();
    await expect.poll(() => gridRow(page, names[1]!).count()).toBe(0);
    await gridRow(page, names[2]!).waitFor();
  });

  test('disables Promote and Delete at 25 selected with "Please select fewer than 25 Devices."', async () => {
    const { page, session } = await openPage();
    const prefix = uniqueName('PD25').replace(' ', '-');
    await enrolAgents(session, prefix, 25);
    await searchGrid(page, prefix);
    await page.getByRole('combobox', { name: /Rows per page/i }).click();
    await page.getByRole('option', { name: '50', exact: true }).click();
    await expect.poll(() => page.locator('.MuiDataGrid-row').count()).toBe(25);
    await page.getByRole('checkbox', { name: /Select all rows/i }).check();
    await page.getByText(PENDING_DEVICE_MESSAGES.tooManySelected).waitFor();
    expect(await page.getByRole('button', { name: 'Promote', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'pending-devices-too-many');
    // One fewer is allowed.
    await gridRow(page, `${prefix}-25`).getByRole('checkbox').uncheck();
    await expect.poll(() => page.getByRole('button', { name: 'Promote', exact: true }).isDisabled()).toBe(false);
    expect(await page.getByText(PENDING_DEVICE_MESSAGES.tooManySelected).count()).toBe(0);
  });

  test('hides devices whose last ping is older than a day until Show Inactive Devices', async () => {
    const { page } = await openPage();
    // The demo's Contoso has agents that stopped pinging days ago.
    await searchGrid(page, 'ct-');
    await gridRow(page, 'ct-web-03').waitFor();
    expect(await gridRow(page, 'CT-LAB-OLD').count()).toBe(0);
    await screenshot(page, 'pending-devices');
    await page.getByRole('button', { name: 'Show Inactive Devices' }).click();
    await gridRow(page, 'CT-LAB-OLD').waitFor();
    await page.waitForURL((url) => url.searchParams.get('inactive') === 'show');
    await page.getByRole('button', { name: 'Hide Inactive Devices' }).click();
    await expect.poll(() => gridRow(page, 'CT-LAB-OLD').count()).toBe(0);
  });
});
