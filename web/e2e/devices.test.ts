import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { DEVICE_MESSAGES } from '@cfs/contracts/devices';
import { FLEET_MESSAGES, INSTALL_STATUSES, PACKAGE_TYPES, PACKAGE_VERSION_STATUSES } from '@cfs/contracts/fleet';
import { ACTIONS_FIELD } from '../src/components/grid-model';
import {
  api,
  awaitLater,
  browser,
  choose,
  createSubscription,
  createTenant,
  drawer,
  gridRow,
  moreAction,
  portalDatabase,
  screenshot,
  searchGrid,
  sessionOf,
  sidewaysOverflow,
  signedInPage,
  truncatedHeaders,
  uniqueName,
  type Session,
} from './support';

/**
 * The Devices screen in the browser (spec 002 §2 Devices, §8; Welcome page). Devices come from
 * promoting an agent's pending device, which is not this screen's: each test puts the devices,
 * packets, logs and packages it needs into the portal's database, in a tenant of its own made
 * through the API.
 */

interface DeviceRow {
  deviceId: string;
  name: string;
  heartbeatInterval: number;
  traceMinutes: number;
  traceExpiration: string | null;
  restartAgentFlag: boolean;
}

describe('devices (admin)', () => {
  let admin: Session;
  let db: pg.Client;
  let tenantId: string;
  let subscriptionId: string;

  beforeAll(async () => {
    admin = await sessionOf(browser, 'admin');
    ({ tenantId } = await createTenant(admin));
    ({ subscriptionId } = await createSubscription(admin, tenantId));
    db = await portalDatabase();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
  });

  async function device(name: string, values: { locationId?: string } = {}): Promise<string> {
    const { rows } = await db.query<{ device_id: string }>(
      `INSERT INTO device (tenant_id, subscription_id, name, location_id, operating_system_id) VALUES ($1, $2, $3, $4, 1) RETURNING device_id`,
      [tenantId, subscriptionId, name, values.locationId ?? null],
    );
    return rows[0]!.device_id;
  }

  async function devicesPage(page: Page, name: string) {
    await page.goto(`/${tenantId}/devices`);
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    // Acted on once the search has answered: a row of the unfiltered page would be replaced under the click.
    await searchGrid(page, name);
    const row = gridRow(page, name).first();
    await row.waitFor();
    return row;
  }

  const read = (deviceId: string) => api<DeviceRow>(admin, `/v1/devices/${deviceId}`);

  test('the grid shows CPU %, Memory % and Age of the latest packet, N/A without one, and the location', async () => {
    const prefix = uniqueName('Live');
    const { rows } = await db.query<{ location_id: string }>(
      `INSERT INTO location (tenant_id, name) VALUES ($1, 'Server room') RETURNING location_id`,
      [tenantId],
    );
    const live = await device(`${prefix} reporting`, { locationId: rows[0]!.location_id });
    await device(`${prefix} silent`);
    await db.query(
      `INSERT INTO packet_latest (entity_id, tenant_id, timestamp, message) VALUES ($1, $2, now() - interval '5 minutes', $3)`,
      [live, tenantId, JSON.stringify({ entityId: live, Metrics: { CpuPercent: 42.5, MemoryPercent: 61 } })],
    );
    const page = await signedInPage(browser, 'admin');
    const reporting = await devicesPage(page, prefix);

    for (const header of ['Name', 'CPU %', 'Memory %', 'Age', 'Location', 'Device ID', 'Enabled'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    const cells = gridRow(page, `${prefix} reporting`);
    expect(await cells.locator('[data-field="cpuPercent"]').textContent()).toBe('42.5%');
    expect(await cells.locator('[data-field="memoryPercent"]').textContent()).toBe('61.0%');
    expect(await cells.locator('[data-field="packetTimestamp"]').textContent()).toBe('5 min ago');
    expect(await cells.locator('[data-field="location"]').textContent()).toBe('Server room');
    expect(await cells.locator('[data-field="deviceId"]').textContent()).toBe(live);
    const silent = gridRow(page, `${prefix} silent`);
    expect(await silent.locator('[data-field="cpuPercent"]').textContent()).toBe('N/A');
    expect(await silent.locator('[data-field="packetTimestamp"]').textContent()).toBe('N/A');
    expect(await reporting.isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Promote Pending Devices' }).waitFor();
    expect(await page.getByRole('link', { name: 'Promote Pending Devices' }).getAttribute('href')).toBe(
      `/${tenantId}/pendingdevices`,
    );
    await screenshot(page, 'devices-grid');
  });

  test('the Device ID filter lists the device with that id by equality; an invalid GUID shows its message and is not sent', async () => {
    const prefix = uniqueName('Filtered');
    const wanted = await device(`${prefix} wanted`);
    await device(`${prefix} other`);
    const page = await signedInPage(browser, 'admin');
    const sent: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/v1/devices') sent.push(url.searchParams.get('$filter') ?? '');
    });
    await page.goto(`/${tenantId}/devices`);
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    await page.getByRole('columnheader', { name: 'Device ID' }).hover();
    await page.getByRole('columnheader', { name: 'Device ID' }).getByRole('button', { name: /menu/i }).click();
    await page.getByRole('menuitem', { name: 'Filter' }).click();
    const value = page.getByRole('textbox', { name: 'Value' });
    // Typed at once: the column chosen, coming back through the address, does not empty the box.
    await value.fill('not-a-guid');
    await page.getByText('Please enter a valid GUID.').waitFor();
    await page.waitForTimeout(600);
    expect(await value.inputValue()).toBe('not-a-guid');
    expect(await page.getByRole('combobox', { name: 'Column' }).textContent()).toBe('Device ID');
    const answered = awaitLater(
      page.waitForResponse(
        (response) =>
          new URL(response.url()).pathname === '/v1/devices' &&
          (new URL(response.url()).searchParams.get('$filter') ?? '').includes(wanted),
      ),
    );
    await value.fill(wanted);
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(new URL(response.url()).searchParams.get('$filter')).toMatch(new RegExp(`(^| and )deviceId eq ${wanted}$`));
    await page.keyboard.press('Escape');
    await gridRow(page, `${prefix} wanted`).waitFor();
    // The answer is in; the grid may still be drawing the rows of before, both devices among them.
    await expect.poll(() => gridRow(page, `${prefix} other`).count()).toBe(0);
    expect(sent.some((filter) => filter.includes('not-a-guid') || filter.includes('tolower(deviceId)'))).toBe(false);
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'devices-filtered-by-id-1440');
  });

  test('a failed list call shows its error in the grid, with no rows and no pager, and Try Again loads it', async () => {
    const name = uniqueName('Listed');
    await device(name);
    const page = await signedInPage(browser, 'admin');
    let refuse = true;
    // No live stream: other files' devices would have the grid ask again by itself, and load once
    // calls pass, before Try Again is clicked. Without it the grid polls every 30 s.
    await page.route('**/v1/live?*', (route) => route.abort());
    await page.route(
      (url) => url.pathname === '/v1/devices',
      (route) =>
        refuse
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              body: JSON.stringify({ message: 'tolower takes one text field', errors: {} }),
            })
          : route.fallback(),
    );
    await page.goto(`/${tenantId}/devices`);
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    const failure = page.locator('.MuiDataGrid-root').getByRole('alert');
    await failure.getByText('The list could not be loaded.').waitFor();
    await failure.getByText('tolower takes one text field').waitFor();
    expect(await page.getByText('No rows').count()).toBe(0);
    expect(await page.getByText(/of more than/).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Go to next page' }).count()).toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });
    await screenshot(page, 'devices-list-failed-1440');
    await page.setViewportSize({ width: 375, height: 800 });
    await failure.getByText('tolower takes one text field').waitFor();
    await screenshot(page, 'devices-list-failed-375');
    await page.setViewportSize({ width: 1400, height: 900 });
    refuse = false;
    await failure.getByRole('button', { name: 'Try Again' }).click();
    await searchGrid(page, name);
    await gridRow(page, name).waitFor();
    expect(await failure.count()).toBe(0);
  });

  test('at 1400 px the grid fits without scrolling sideways, with every header whole and the less frequent actions in one menu', async () => {
    const name = uniqueName('Laptop');
    await device(name);
    const page = await signedInPage(browser, 'admin', { width: 1400 });
    const row = await devicesPage(page, name);
    await screenshot(page, 'devices-1400');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await truncatedHeaders(page)).toEqual([]);
    const buttons = await row
      .locator(`[data-field="${ACTIONS_FIELD}"]`)
      .getByRole('button')
      .evaluateAll((found) => found.map((button) => button.getAttribute('aria-label')));
    expect(buttons).toEqual(['Edit Device', 'Operations', 'Logs', 'More Actions']);
    await row.getByRole('button', { name: 'More Actions' }).click();
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual([
      'Restart Agent',
      'Toggle Tracing',
      'Installations',
      'Packets',
      'Inventory',
      'Delete Device',
    ]);
    await screenshot(page, 'devices-more-actions');
    await menu.getByRole('menuitem', { name: 'Inventory' }).click();
    // The menu's click opens the panel, not the row's Edit Device.
    await drawer(page)
      .getByRole('heading', { name: `Device Inventory: ${name}` })
      .waitFor();
    await expect.poll(() => menu.count()).toBe(0);
  });

  test('at 375 px the grid reads each device by its whole name beside its CPU and actions, every header whole, without scrolling sideways', async () => {
    const name = uniqueName('Warehouse scanner');
    await device(name);
    const page = await signedInPage(browser, 'admin', { width: 375, height: 800 });
    const row = await devicesPage(page, name);
    await screenshot(page, 'devices-375');
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    expect(await truncatedHeaders(page)).toEqual([]);
    // The essential columns that did not fit gave way (Age, Online, Enabled), from the last listed back.
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers.map((header) => header.trim())).toEqual(['Name', 'CPU %', 'Actions']);
    // The name is read whole, on one line or wrapped, never cut off.
    const cell = row.locator('[data-field="name"]');
    expect(await cell.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    const link = cell.getByRole('link', { name });
    const [linkBox, cellBox] = [await link.boundingBox(), await cell.boundingBox()];
    expect(linkBox!.x + linkBox!.width).toBeLessThanOrEqual(cellBox!.x + cellBox!.width);
    expect(cellBox!.width).toBeGreaterThanOrEqual(120);
    // A column that gave way is there in the column panel, and shown from it: the user's choice
    // wins, and the last essential column left (CPU %) gives way to it.
    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Online' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('columnheader', { name: 'Online' }).waitFor();
    await expect
      .poll(async () => (await page.getByRole('columnheader').allTextContents()).map((header) => header.trim()))
      .toEqual(['Name', 'Online', 'Actions']);
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

  test('Edit Device shows the validation messages, then saves the name, heartbeat and location', async () => {
    const name = uniqueName('Editable');
    const deviceId = await device(name);
    const dock = uniqueName('Loading dock');
    await db.query(`INSERT INTO location (tenant_id, name) VALUES ($1, $2)`, [tenantId, dock]);
    const page = await signedInPage(browser, 'admin');
    const row = await devicesPage(page, name);
    await row.getByRole('button', { name: 'Edit Device' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Device: ${name}` }).waitFor();
    await panel.getByRole('textbox', { name: 'Name' }).fill('');
    await panel.getByRole('textbox', { name: 'Description' }).fill('x'.repeat(501));
    await panel.getByRole('spinbutton', { name: 'Heartbeat Interval (seconds)' }).fill('1000000000');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(DEVICE_MESSAGES.nameRequired).waitFor();
    await panel.getByText(DEVICE_MESSAGES.descriptionTooLong).waitFor();
    await panel.getByText(DEVICE_MESSAGES.heartbeatRange).waitFor();
    await screenshot(page, 'device-edit-invalid');
    await panel.getByRole('textbox', { name: 'Name' }).fill(`${name} renamed`);
    await panel.getByRole('textbox', { name: 'Description' }).fill('Front desk');
    await panel.getByRole('spinbutton', { name: 'Heartbeat Interval (seconds)' }).fill('300');
    await choose(panel, page, 'Location', dock);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(DEVICE_MESSAGES.saved).first().waitFor();
    await screenshot(page, 'device-edit-saved');
    // The open drawer hides the page from the accessibility tree: closed, the grid shows the new name.
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await gridRow(page, `${name} renamed`).waitFor();
    expect(await gridRow(page, `${name} renamed`).locator('[data-field="location"]').textContent()).toBe(dock);
    expect(await read(deviceId)).toMatchObject({ name: `${name} renamed`, heartbeatInterval: 300 });
  });

  test('Toggle Tracing sets one hour of tracing; Operations opens the device operations; Restart Agent says it is queued', async () => {
    const name = uniqueName('Traced');
    const deviceId = await device(name);
    const page = await signedInPage(browser, 'admin');
    const row = await devicesPage(page, name);
    await moreAction(row, 'Toggle Tracing');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Tracing: ${name}` }).waitFor();
    for (const option of [
      'No Change',
      'Disabled',
      '10 minutes',
      '30 minutes',
      '1 hour',
      '4 hours',
      '8 hours',
      '24 hours',
    ])
      await panel.getByRole('radio', { name: option, exact: true }).waitFor();
    await panel.getByRole('radio', { name: '1 hour', exact: true }).check();
    await screenshot(page, 'device-tracing');
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByText(DEVICE_MESSAGES.tracingSaved).first().waitFor();
    await panel.getByText(/^Tracing until /).waitFor();
    await screenshot(page, 'device-tracing-saved');
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    const traced = await read(deviceId);
    expect(traced.traceMinutes).toBe(60);
    expect(new Date(traced.traceExpiration ?? 0).getTime()).toBeGreaterThan(Date.now() + 55 * 60_000);

    await row.getByRole('button', { name: 'Operations' }).click();
    const operations = drawer(page);
    await operations.getByRole('heading', { name: `Device Operations: ${name}` }).waitFor();
    expect(new URL(page.url()).searchParams.get('deviceOperationsId')).toBe(deviceId);
    await operations.getByRole('button', { name: 'Close', exact: true }).click();
    await operations.waitFor({ state: 'hidden' });

    await moreAction(row, 'Restart Agent');
    await page.getByText(FLEET_MESSAGES.restartQueued(name)).first().waitFor();
    expect((await read(deviceId)).restartAgentFlag).toBe(true);
    await screenshot(page, 'device-restart');
  });

  test('Logs shows the newest entries first, with Refresh and Auto-Refresh; a device without logs says so', async () => {
    const name = uniqueName('Logged');
    const deviceId = await device(name);
    await db.query(
      `INSERT INTO device_log (tenant_id, device_id, created, entry_type, detail) VALUES ($1, $2, now() - interval '2 hours', 'Info', 'Agent started'), ($1, $2, now() - interval '1 hour', 'Error', 'Disk almost full')`,
      [tenantId, deviceId],
    );
    const quiet = await device(`${name} quiet`);
    const page = await signedInPage(browser, 'admin');
    await devicesPage(page, name);
    await gridRow(page, `${name} quiet`).waitFor();
    await gridRow(page, name).filter({ hasNotText: 'quiet' }).getByRole('button', { name: 'Logs' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Device Logs: ${name}` }).waitFor();
    const details = panel.locator('tbody tr td:nth-child(3)');
    await expect.poll(() => details.allTextContents()).toEqual(['Disk almost full', 'Agent started']);
    await panel.getByRole('switch', { name: 'Auto-Refresh (30 sec)' }).waitFor();
    await db.query(
      `INSERT INTO device_log (tenant_id, device_id, entry_type, detail) VALUES ($1, $2, 'Info', 'Just now')`,
      [tenantId, deviceId],
    );
    await panel.getByRole('button', { name: 'Refresh' }).click();
    await expect.poll(() => details.allTextContents()).toEqual(['Just now', 'Disk almost full', 'Agent started']);
    await screenshot(page, 'device-logs');
    await page.goto(`/${tenantId}/devices?deviceLogsId=${quiet}`);
    await drawer(page).getByText(FLEET_MESSAGES.noLogs).waitFor();
  });

  test('Installations lists the packages with their versions; choosing one and saving makes it Pending', async () => {
    const name = uniqueName('Installing');
    const deviceId = await device(name);
    const packageName = uniqueName('Watcher');
    const { rows } = await db.query<{ package_id: string }>(
      `INSERT INTO package (tenant_id, name, package_type_id, operating_system_ids) VALUES ($1, $2, $3, '{1}') RETURNING package_id`,
      [tenantId, packageName, PACKAGE_TYPES.Watcher],
    );
    const packageId = rows[0]!.package_id;
    for (const version of ['1.0.0', '1.1.0']) {
      await db.query(
        `INSERT INTO package_version (package_id, version, label, package_version_status_id, file_sha256, file_name, file_size) VALUES ($1, $2, $2, $3, $4, 'w.zip', 1)`,
        [
          packageId,
          version,
          version === '1.1.0' ? PACKAGE_VERSION_STATUSES.Latest : PACKAGE_VERSION_STATUSES.Archived,
          '0'.repeat(64),
        ],
      );
    }
    const page = await signedInPage(browser, 'admin');
    const row = await devicesPage(page, name);
    await moreAction(row, 'Installations');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Device Installations: ${name}` }).waitFor();
    const line = panel.getByRole('row').filter({ hasText: packageName });
    await line.getByText('Available For Install').waitFor();
    await line.getByRole('combobox').click();
    await page
      .getByRole('listbox')
      .getByRole('option', { name: /^1\.1\.0/ })
      .click();
    await screenshot(page, 'device-installations-chosen');
    await panel.getByRole('button', { name: 'Save' }).click();
    await page.getByText(DEVICE_MESSAGES.installationsSaved).first().waitFor();
    await line.getByText('Pending').waitFor();
    const saved = await api<{ installPackage: { packageId: string }; installStatus: number }[]>(
      admin,
      `/v1/devices/GetPackageInstallsWithVersions(deviceId=${deviceId})`,
    );
    expect(saved.find((item) => item.installPackage.packageId === packageId)?.installStatus).toBe(
      INSTALL_STATUSES.Pending,
    );
    await screenshot(page, 'device-installations-saved');
  });

  test('Delete Device asks first, then deletes; a device with operations is refused with the spec text', async () => {
    const name = uniqueName('Retired');
    await device(name);
    const busyName = uniqueName('Busy');
    const busy = await device(busyName);
    const { rows } = await db.query<{ package_id: string }>(
      `INSERT INTO package (tenant_id, name, package_type_id) VALUES ($1, $2, $3) RETURNING package_id`,
      [tenantId, uniqueName('Ops'), PACKAGE_TYPES.Command],
    );
    const operation = await db.query<{ operation_id: string }>(
      `INSERT INTO operation (package_id, name, frequency_type_ids, operation_type_id, operation_result_type_id) VALUES ($1, 'Ping', '{1}', 3, 1) RETURNING operation_id`,
      [rows[0]!.package_id],
    );
    await db.query(
      `INSERT INTO device_operation (tenant_id, device_id, operation_id, label, frequency_type_id) VALUES ($1, $2, $3, 'Ping', 1)`,
      [tenantId, busy, operation.rows[0]!.operation_id],
    );

    const page = await signedInPage(browser, 'admin');
    const row = await devicesPage(page, name);
    await moreAction(row, 'Delete Device');
    const dialog = page.getByRole('dialog', { name: 'Delete Device' });
    await dialog.getByText(DEVICE_MESSAGES.deleteConfirm(name)).waitFor();
    await screenshot(page, 'device-delete-confirm');
    await dialog.getByRole('button', { name: 'Yes' }).click();
    await page.getByText(FLEET_MESSAGES.deviceDeleted(name)).first().waitFor();
    await gridRow(page, name).waitFor({ state: 'detached' });

    const busyRow = await devicesPage(page, busyName);
    await moreAction(busyRow, 'Delete Device');
    await page.getByRole('dialog', { name: 'Delete Device' }).getByRole('button', { name: 'Yes' }).click();
    await page.getByText(FLEET_MESSAGES.deleteDeviceRefused(busyName)).first().waitFor();
    await gridRow(page, busyName).waitFor();
    await screenshot(page, 'device-delete-refused');
  });

  test('the Welcome page offers the Windows agent download from the tenant settings', async () => {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${tenantId}`);
    const button = page.getByRole('link', { name: DEVICE_MESSAGES.downloadAgent });
    await button.waitFor();
    expect(await button.getAttribute('href')).toBe(`${inject('portalUrl')}/downloads/agent/cfs-agent-win-x64.exe`);
    await screenshot(page, 'welcome-download');

    // The install commands name this portal and its Linux and Windows agents; the token comes from a file, never the command line.
    await page.getByRole('button', { name: DEVICE_MESSAGES.installAgent }).click();
    const dialog = page.getByRole('dialog', { name: DEVICE_MESSAGES.installAgent });
    expect(await dialog.getByLabel('Linux install commands').textContent()).toBe(
      [
        `curl -fLo cfs-agent ${inject('portalUrl')}/downloads/agent/cfs-agent-linux-x64 && chmod +x cfs-agent`,
        `sudo ./cfs-agent install --portal ${inject('portalUrl')} --token-file token.txt`,
      ].join('\n'),
    );
    expect(await dialog.getByLabel('Linux uninstall command').textContent()).toBe(
      'sudo /opt/cfs-agent/cfs-agent uninstall',
    );
    expect(await dialog.getByLabel('Windows install commands').textContent()).toBe(
      [
        `Invoke-WebRequest -Uri ${inject('portalUrl')}/downloads/agent/cfs-agent-win-x64.exe -OutFile cfs-agent-win-x64.exe -UseBasicParsing`,
        `.\\cfs-agent-win-x64.exe install --portal ${inject('portalUrl')} --token-file token.txt`,
      ].join('\n'),
    );
    expect(await dialog.getByLabel('Windows uninstall command').textContent()).toBe(
      '& "$env:ProgramFiles\\CFS Agent\\cfs-agent.exe" uninstall',
    );
    await dialog.getByRole('link', { name: 'Tokens' }).waitFor();
    await screenshot(page, 'welcome-install-agent');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});
