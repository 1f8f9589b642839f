import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEVICE_MESSAGES } from '@cfs/contracts/devices';
import { FLEET_MESSAGES, FREQUENCY_TYPES, OPERATION_TYPES, PACKAGE_TYPES } from '@cfs/contracts/fleet';
import {
  api,
  awaitLater,
  browser,
  checkRow,
  createToken,
  drawer,
  gridRow,
  homeTenantId,
  portalUrl,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  toastShown,
  uniqueName,
  type ListResponse,
  type Session,
} from './support';

/**
 * A real agent against the built portal (issue: the device fleet and a real agent): it enrols
 * with a tenant token, is promoted on the Pending Devices page, shows up on the Devices page with
 * its machine's CPU and memory, runs an on-demand operation and reports it, installs and removes a
 * package chosen on the Installations drawer, and is refused once
 * its token is revoked. The agent is the bundle `npm run build` makes (agent/dist/cfs-agent.cjs),
 * the same code as the single executables.
 */

const root = path.resolve(import.meta.dirname, '..', '..');
const bundle = path.join(root, 'agent', 'dist', 'cfs-agent.cjs');

async function until<T>(read: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('a real agent', () => {
  let agent: ChildProcess | undefined;
  let dataDir: string;
  const output: string[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cfs-e2e-agent-'));
  });
  afterAll(async () => {
    agent?.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('enrols, is promoted in the browser, reports CPU and memory, runs an on-demand operation, installs and removes a package, and stops once its token is revoked', async () => {
    expect(fs.existsSync(bundle), 'npm run build makes the agent bundle').toBe(true);
    const session: Session = await sessionOf(browser, 'admin');
    const tenantId = homeTenantId(session);
    const token = await createToken(session, { tenantId, name: uniqueName('E2E agent token') });
    const machineName = uniqueName('e2e-agent').replace(/\s+/g, '-');

    const scriptsPackage = uniqueName('E2E scripts');
    agent = spawn(
      process.execPath,
      [bundle, '--portal', portalUrl(), '--data', dataDir, '--name', machineName, '--script-allow', scriptsPackage],
      {
        env: { ...process.env, CFS_AGENT_TOKEN: token.generatedToken, CFS_AGENT_POLL_MS: '1500' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    agent.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    agent.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const exited = new Promise<number | null>((resolve) => agent!.once('exit', (code) => resolve(code)));
    await until(() => (output.join('').includes('Waiting for an administrator') ? true : undefined));

    // Promotion, in the browser.
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${tenantId}/pendingdevices`);
    await page.getByRole('heading', { level: 1, name: 'Pending Devices' }).waitFor();
    await searchGrid(page, machineName);
    const pendingRow = gridRow(page, machineName);
    await checkRow(pendingRow);
    await screenshot(page, 'agent-pending');
    await page.getByRole('button', { name: 'Promote', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await pendingRow.waitFor({ state: 'detached' });

    // The agent's next enrolment call hands it its device credential.
    const identityFile = path.join(dataDir, 'identity.json');
    const deviceId = await until(() => {
      if (!fs.existsSync(identityFile)) return undefined;
      const identity = JSON.parse(fs.readFileSync(identityFile, 'utf8')) as { deviceId?: string; credential?: string };
      return identity.credential ? identity.deviceId : undefined;
    });

    // Its heartbeat: the machine's CPU and memory on the Devices page.
    const heartbeat = await until(async () => {
      const packets = await api<ListResponse<{ entityId: string; message: { Metrics?: Record<string, number> } }>>(
        session,
        `/v1/packets?$filter=entityId eq ${deviceId}`,
      );
      return packets.value[0]?.message.Metrics;
    });
    expect(heartbeat.CpuPercent).toBeGreaterThanOrEqual(0);
    expect(heartbeat.CpuPercent).toBeLessThanOrEqual(100);
    expect(heartbeat.MemoryPercent).toBeGreaterThan(0);
    await page.goto(`/${tenantId}/devices`);
    await page.getByRole('heading', { level: 1, name: 'Devices' }).waitFor();
    await searchGrid(page, machineName);
    const deviceRow = gridRow(page, machineName);
    await expect
      .poll(async () => (await deviceRow.textContent()) ?? '', { timeout: 20_000 })
      .toMatch(/\d+(\.\d+)?\s?%/);
    await screenshot(page, 'agent-device-live');

    // An on-demand Availability check of the portal, made through the API and queued on the
    // Device Operations drawer; the agent runs it and its result shows in the Operation Logs.
    const available = await api<ListResponse<{ operationId: string; name: string }>>(
      session,
      `/v1/operations/GetAvailableOperationsForDevice(tenantId=${tenantId},operatingSystemId=4)?$top=100`,
    );
    const availability = available.value.find((operation) => operation.name === 'Availability');
    if (!availability) throw new Error('No Availability operation in the catalogue');
    const operation = await api<{ deviceOperationId: string }>(session, '/v1/deviceOperations', {
      method: 'PUT',
      body: {
        deviceId,
        operationId: availability.operationId,
        label: 'Portal health on demand',
        frequencyTypeId: FREQUENCY_TYPES.OnDemand,
        interval: '00:05:00',
        parameters: [
          { Name: 'Url', Source: 'PortalEntry', Value: `${portalUrl()}/healthz` },
          { Name: 'Method', Source: 'PortalEntry', Value: 'GET' },
        ],
      },
    });
    await page.goto(`/${tenantId}/devices?deviceOperationsId=${deviceId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Device Operations: ${machineName}` }).waitFor();
    const operationRow = gridRow(page, 'Portal health on demand');
    await operationRow.getByRole('button', { name: 'Enqueue' }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationEnqueued);
    const logs = await until(async () => {
      const entries = await api<{ detail: string }[]>(
        session,
        `/v1/deviceOperations/${operation.deviceOperationId}/logs`,
      );
      return entries.length > 0 ? entries : undefined;
    });
    expect(logs[0]!.detail).toMatch(/^Success: GET .*\/healthz answered 200/);
    await operationRow.getByRole('button', { name: 'Operation Logs' }).click();
    await panel
      .getByRole('table', { name: 'Operation logs' })
      .getByText(/Success: GET .*healthz answered 200/)
      .first()
      .waitFor();
    await screenshot(page, 'agent-operation-logs');

    // A script of the catalogue, on a device whose agent allows its package (--script-allow): a
    // ScriptRunner package whose version is a shell script, installed on the device, run on demand
    // from the drawer; its exit code and output show above its Operation Logs.
    const { packageId: scriptPackageId } = await api<{ packageId: string }>(session, '/v1/packages', {
      method: 'PUT',
      body: { name: scriptsPackage, packageTypeId: PACKAGE_TYPES.ScriptRunner, tenantId, operatingSystemRidsId: [4] },
    });
    const upload = new FormData();
    upload.set('packageId', scriptPackageId);
    upload.set('version', '1.0.0');
    upload.set('label', '1.0.0');
    upload.set(
      'file-0',
      new Blob(['echo "free: $(df -P . | tail -1 | wc -l) disk"\necho "no swap" >&2\n']),
      'check-disk.sh',
    );
    const uploaded = await fetch(`${portalUrl()}/v1/packages/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
      body: upload,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const { packageVersionId: scriptVersionId } = (await uploaded.json()) as { packageVersionId: string };
    await api(session, `/v1/deviceInstallations/${deviceId}/packages`, {
      method: 'POST',
      body: [{ deviceId, packageId: scriptPackageId, packageVersionId: scriptVersionId }],
    });
    await until(async () => {
      const rows = await api<{ installPackage: { packageId: string }; installedPackageVersionId: string | null }[]>(
        session,
        `/v1/devices/GetPackageInstallsWithVersions(deviceId=${deviceId})`,
      );
      return rows.some(
        (row) => row.installPackage.packageId === scriptPackageId && row.installedPackageVersionId === scriptVersionId,
      )
        ? true
        : undefined;
    });
    const { operationId: scriptOperationId } = await api<{ operationId: string }>(
      session,
      `/v1/packages/${scriptPackageId}/operations`,
      {
        method: 'PUT',
        body: {
          name: 'Check disk',
          frequencyDefinitions: [FREQUENCY_TYPES.OnDemand],
          defaultInterval: '00:05:00',
          operationType: OPERATION_TYPES.Script,
          operationResultTypeId: 1,
        },
      },
    );
    const scriptDeviceOperation = await api<{ deviceOperationId: string }>(session, '/v1/deviceOperations', {
      method: 'PUT',
      body: {
        deviceId,
        operationId: scriptOperationId,
        label: 'Disk check script',
        frequencyTypeId: FREQUENCY_TYPES.OnDemand,
        interval: '00:05:00',
        parameters: [],
      },
    });
    await page.goto(`/${tenantId}/devices?deviceOperationsId=${deviceId}`);
    await drawer(page)
      .getByRole('heading', { name: `Device Operations: ${machineName}` })
      .waitFor();
    const scriptRow = gridRow(page, 'Disk check script');
    await scriptRow.getByRole('button', { name: 'Enqueue' }).click();
    await toastShown(page, FLEET_MESSAGES.deviceOperationEnqueued);
    await scriptRow.getByRole('button', { name: 'Operation Logs' }).click();
    const runs = drawer(page).getByRole('region', { name: 'Script runs' });
    await runs.waitFor();
    // The drawer reads the runs again with its Refresh until the agent's report is in.
    await expect
      .poll(
        async () => {
          await drawer(page).getByRole('button', { name: 'Refresh' }).click();
          return runs.getByText('Exit code 0').count();
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(0);
    await runs.getByLabel('Output').getByText('free: 1 disk').waitFor();
    await runs.getByLabel('Errors').getByText('no swap').waitFor();
    await screenshot(page, 'agent-script-run');

    // The same script on the devices checked in the grid: Run Script queues it on each.
    await page.goto(`/${tenantId}/devices`);
    await searchGrid(page, machineName);
    await checkRow(gridRow(page, machineName));
    await page.getByRole('button', { name: 'Run Script' }).click();
    const runDialog = page.getByRole('dialog', { name: 'Run Script' });
    await runDialog.getByRole('combobox', { name: 'Script' }).click();
    await page.getByRole('option', { name: new RegExp(`^Check disk \\(${scriptsPackage}\\)$`) }).click();
    await runDialog.getByLabel('Timeout (seconds)').fill('0');
    await runDialog.getByText('A whole number from 1 to 3600.').waitFor();
    await runDialog.getByLabel('Timeout (seconds)').fill('30');
    await screenshot(page, 'agent-run-script-dialog');
    await runDialog.getByRole('button', { name: 'Run' }).click();
    await toastShown(page, '1 device queued.');
    await until(async () => {
      const scriptRuns = await api<{ exitCode: number | null }[]>(
        session,
        `/v1/deviceOperations/${scriptDeviceOperation.deviceOperationId}/scriptruns`,
      );
      return scriptRuns.length >= 2 ? true : undefined;
    });
    const completed = await until(async () => {
      const row = await api<{ operationComplete: boolean; completionToken: string | null }>(
        session,
        `/v1/deviceOperations/${operation.deviceOperationId}`,
      );
      return row.operationComplete ? row : undefined;
    });
    expect(completed.completionToken).toBeNull();

    // Inventory, in the browser: the agent reported this machine's system and packages once enrolled.
    await until(async () => {
      const inventory = await api<{ reported: string | null }>(session, `/v1/devices/${deviceId}/inventory`);
      return inventory.reported ?? undefined;
    });
    await page.goto(`/${tenantId}/devices?deviceInventoryId=${deviceId}`);
    const inventoryPanel = drawer(page);
    await inventoryPanel.getByRole('heading', { name: `Device Inventory: ${machineName}` }).waitFor();
    await inventoryPanel.getByText(`(${os.cpus().length} cores)`).waitFor();
    await inventoryPanel.getByRole('heading', { name: /^Software \(\d+\)$/ }).waitFor();
    const packages = inventoryPanel.getByRole('table', { name: 'Software' }).getByRole('row');
    expect(await packages.count()).toBeGreaterThan(10);
    await inventoryPanel.getByLabel('Search Software').fill('libc6');
    expect(await packages.filter({ hasText: 'libc6' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'agent-inventory');
    await inventoryPanel.getByLabel('Search Software').fill('no-such-package');
    await inventoryPanel.getByText('No software matches “no-such-package”.').waitFor();
    await page.goto(`/${tenantId}/devices?deviceInventoryId=not-a-device`);
    await drawer(page).getByText('This device does not exist.').waitFor();

    // Software across the fleet: the machine's libc6 found by name and by version, exported with
    // every matching row, and its device's name back to the Inventory. dpkg names a package
    // installed for several architectures with its own ("libc6:amd64").
    const [libc] = (
      await api<ListResponse<{ name: string; version: string }>>(
        session,
        `/v1/software?$filter=${encodeURIComponent(`tenantId eq ${tenantId} and (name eq 'libc6' or startswith(name,'libc6:'))`)}`,
      )
    ).value;
    expect(libc?.version).toMatch(/^\d/);
    await page.goto(`/${tenantId}/software`);
    await searchGrid(page, 'libc6');
    const libcRow = page
      .getByRole('row')
      .filter({ has: page.getByRole('gridcell', { name: libc!.name, exact: true }) });
    await libcRow.getByRole('link', { name: `${machineName}: inventory` }).waitFor();
    const versionFilter = page.getByRole('group', { name: 'Version filter' });
    const below = awaitLater(
      page.waitForResponse((response) =>
        (new URL(response.url()).searchParams.get('$filter') ?? '').includes(`version lt '${libc!.version}'`),
      ),
    );
    await versionFilter.getByLabel('Version number').fill(libc!.version);
    await below;
    await libcRow.waitFor({ state: 'detached' });
    await versionFilter.getByRole('combobox', { name: 'Version' }).click();
    await page.getByRole('option', { name: 'At or above' }).click();
    await libcRow.waitFor();
    expect(new URL(page.url()).searchParams.toString()).toContain('version');
    await screenshot(page, 'software');
    const exported = awaitLater(page.waitForResponse((response) => response.url().includes('/v1/software/Export()')));
    const download = awaitLater(page.waitForEvent('download'));
    await page.getByRole('button', { name: 'Export All' }).click();
    expect(new URL((await exported).url()).searchParams.get('$top')).toBeNull();
    const file = await download;
    expect(file.suggestedFilename()).toBe('software.csv');
    const csv = fs.readFileSync((await file.path()) ?? '', 'utf8');
    expect(csv).toContain(`${libc!.name},${libc!.version}`);
    expect(csv).toContain(machineName);
    await libcRow.getByRole('link', { name: `${machineName}: inventory` }).click();
    await drawer(page)
      .getByRole('heading', { name: `Device Inventory: ${machineName}` })
      .waitFor();

    // Installations, in the browser: the agent installs the version chosen of the catalogue's CFS
    // Agent package; set to None, the package shows Removal Pending until the agent has removed its
    // files, then Removed (the drawer shows the state of each opening: reopened here).
    const packageFolder = path.join(dataDir, 'packages', 'CFS_Agent');
    const openInstallations = async () => {
      await page.goto(`/${tenantId}/devices?deviceInstallationsId=${deviceId}`);
      const installations = drawer(page);
      await installations.getByRole('heading', { name: `Device Installations: ${machineName}` }).waitFor();
      return installations.getByRole('row').filter({ hasText: 'CFS Agent' });
    };
    const statusAfterReopening = async () => (await openInstallations()).getByRole('cell').nth(1).textContent();
    const chooseVersion = async (option: RegExp) => {
      const line = await openInstallations();
      await line.getByRole('combobox').click();
      await page.getByRole('listbox').getByRole('option', { name: option }).click();
      await drawer(page).getByRole('button', { name: 'Save' }).click();
      await page.getByText(DEVICE_MESSAGES.installationsSaved).first().waitFor();
      return line;
    };
    // The agent is held (SIGSTOP) while the drawer shows what was just saved: a running agent may
    // act on it before the drawer has read it back.
    const held = async <T>(step: () => Promise<T>): Promise<T> => {
      agent!.kill('SIGSTOP');
      try {
        return await step();
      } finally {
        agent!.kill('SIGCONT');
      }
    };
    await held(async () => {
      const installing = await chooseVersion(/^1\.0\.0/);
      await installing.getByRole('cell', { name: 'Pending', exact: true }).waitFor();
    });
    await expect.poll(statusAfterReopening, { timeout: 30_000, interval: 1000 }).toBe('Installed');
    expect(fs.readdirSync(packageFolder)).toEqual(['1.0.0']);
    await screenshot(page, 'agent-installed');
    await held(async () => {
      const removing = await chooseVersion(/^None$/);
      await removing.getByRole('cell', { name: 'Removal Pending', exact: true }).waitFor();
    });
    await expect.poll(statusAfterReopening, { timeout: 30_000, interval: 1000 }).toBe('Removed');
    expect(fs.existsSync(packageFolder)).toBe(false);
    await screenshot(page, 'agent-removed');

    // The token revoked: the agent's next call is refused and it stops.
    await api(session, `/v1/tokens/${token.tokenGrantId}/revoke`, { method: 'PUT' });
    expect(await exited).toBe(3);
    expect(output.join('')).toContain('The portal refused this agent: The token has been revoked.');
  }, 180_000);
});
