import fs from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { COMMUNICATION_MESSAGES, type Communication } from '@cfs/contracts/communications';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  awaitLater,
  browser,
  choose,
  createTenant,
  createWorkUnit,
  drawer,
  gridRow,
  homeTenantId,
  newContext,
  screenshot,
  screenshotAtWidths,
  searchGrid,
  sessionOf,
  settled,
  signedInPage,
  uniqueName,
  type ListResponse,
  type Session,
} from './support';

type CommunicationRow = JsonOf<Communication>;

/**
 * Work Unit Communications as staff use them (spec 001 §2): create one, link work units, write
 * past and next steps, notify the tenant's internal address, read both reports, publish the
 * external one for a signed-out customer and revoke it; the Overdue badge and filter; a Resolved
 * communication without a next update and with a root cause.
 */
describe('work unit communications', () => {
  let admin: Session;
  let tenant: { tenantId: string; name: string; internalNotificationEmailAddress: string | null };
  let communicationsPath: string;

  beforeAll(async () => {
    admin = await sessionOf(browser, 'admin');
    // A tenant of the test's own, with an internal notification address the outbox keeps mail for.
    tenant = await createTenant(admin, {
      name: uniqueName('E2E comms tenant'),
      internalNotificationEmailAddress: `noc-${uniqueName('x').slice(2)}@comms.example`,
    });
    communicationsPath = `/${homeTenantId(admin)}/workunitcommunications`;
  }, 120_000);

  function createCommunication(fields: Partial<CommunicationRow> & { title: string }): Promise<CommunicationRow> {
    return api<CommunicationRow>(admin, '/v1/workunitcommunications', {
      method: 'PUT',
      body: { tenantId: tenant.tenantId, serviceManager: 'operator@contoso.example', ...fields },
    });
  }

  /** The communication's drawer, opened from its address, once it shows the communication's heading. */
  async function openCommunication(communication: CommunicationRow, query = '') {
    const page = await signedInPage(browser, 'admin');
    await page.goto(`${communicationsPath}?publicWuCommId=${communication.publicWorkUnitCommunicationId}${query}`);
    const panel = drawer(page);
    await panel
      .getByRole('heading', { name: `WUCOMM #${communication.publicWorkUnitCommunicationId}: ${communication.title}` })
      .waitFor();
    return { page, panel };
  }

  /** The communication's drawer on its Activities tab, with its Next and Past steps. */
  async function openActivities(communication: CommunicationRow) {
    const { page, panel } = await openCommunication(communication, '&tab=activities');
    const next = panel.getByRole('region', { name: 'Next steps' });
    const past = panel.getByRole('region', { name: 'Past steps' });
    return { page, panel, next, past };
  }

  async function openRowAction(page: Page, title: string, action: string): Promise<void> {
    await gridRow(page, title).getByRole('button', { name: action }).click();
  }

  test('staff create, link, add steps, notify, report, publish and revoke a communication', async () => {
    const tag = uniqueName('Relay').split(' ')[1] ?? 'tag';
    const first = await createWorkUnit(admin, { tenantId: tenant.tenantId, title: `Mail relay ${tag} queue stuck` });
    const second = await createWorkUnit(admin, { tenantId: tenant.tenantId, title: `Mail relay ${tag} bounces` });
    // Wide enough for every column (narrower, the grid leaves the last ones to its column panel).
    const page = await signedInPage(browser, 'admin', { width: 2400 });
    await page.goto(communicationsPath);
    for (const header of [
      'WUCOMM #',
      'Title',
      'Tenant',
      'Status',
      'Service Manager',
      'Current Impact',
      'Next Update',
      'Created',
    ]) {
      // The sorted column's name holds its sort button too.
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    }

    // Create: the drawer starts Investigating; title, tenant and service manager are required.
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Communication' }).waitFor();
    expect(await panel.getByRole('combobox', { name: 'Status' }).textContent()).toContain('Open - Investigating');
    await panel.getByRole('textbox', { name: 'Title' }).fill('  ');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(COMMUNICATION_MESSAGES.titleRequired).waitFor();
    await panel.getByText(COMMUNICATION_MESSAGES.serviceManagerRequired).waitFor();

    const title = `Mail delays ${tag}`;
    await panel.getByRole('textbox', { name: 'Title' }).fill(title);
    await choose(panel, page, 'Tenant', tenant.name);
    const manager = panel.getByRole('combobox', { name: 'Service Manager' });
    await manager.fill('Oscar');
    await page.getByRole('option', { name: /Oscar Operator/ }).click();
    await panel.getByRole('textbox', { name: 'Current Impact' }).fill('Outbound mail is delayed by up to an hour.');
    await panel.getByRole('textbox', { name: 'Internal Bridge' }).fill('bridge-42');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(COMMUNICATION_MESSAGES.saved).first().waitFor();
    await page.waitForURL((url) => /^\d+$/.test(url.searchParams.get('publicWuCommId') ?? ''));
    const publicId = Number(new URL(page.url()).searchParams.get('publicWuCommId'));
    await panel.getByRole('heading', { name: `WUCOMM #${publicId}: ${title}` }).waitFor();
    const saved = (
      await api<ListResponse<CommunicationRow>>(
        admin,
        `/v1/workunitcommunications?$filter=publicWorkUnitCommunicationId eq ${publicId}`,
      )
    ).value[0];
    if (!saved) throw new Error('The communication was not saved');
    expect(saved).toMatchObject({
      title,
      tenantId: tenant.tenantId,
      status: 'Investigating',
      internalBridge: 'bridge-42',
    });
    expect(saved.serviceManager).toMatch(/@/);
    await settled(panel);
    await screenshot(page, 'communications-drawer');

    // Linked work units: search (debounced), add two; remove one and add it again.
    await panel.getByRole('tab', { name: /Work Units/ }).click();
    const link = async (unit: { workUnitId: number; title: string }) => {
      const search = panel.getByRole('combobox', { name: 'Search work units' });
      await search.fill(`relay ${tag}`);
      await page.getByRole('option', { name: `#${unit.workUnitId} ${unit.title}` }).click();
      await panel.getByRole('button', { name: 'Add', exact: true }).click();
      await panel
        .getByRole('list', { name: 'Linked work units' })
        .getByText(`#${unit.workUnitId} ${unit.title}`)
        .waitFor();
    };
    await link(first);
    await link(second);
    await panel.getByRole('button', { name: `Remove work unit #${first.workUnitId}` }).click();
    await panel.getByText(`#${first.workUnitId} ${first.title}`).waitFor({ state: 'detached' });
    await link(first);
    await expect
      .poll(async () =>
        (await api<CommunicationRow>(admin, `/v1/workunitcommunications/${saved.workUnitCommunicationId}`)).workUnits
          ?.map((unit) => unit.workUnitId)
          .sort(),
      )
      .toEqual([first.workUnitId, second.workUnitId].sort());
    await screenshot(page, 'communications-linked-work-units');

    // Activities: a past step for staff only, a customer-facing next step.
    await panel.getByRole('tab', { name: /Activities/ }).click();
    await panel.getByRole('button', { name: 'Add Past step' }).click();
    let step = panel.getByRole('form', { name: 'New past step' });
    expect(await step.getByRole('checkbox', { name: 'Complete' }).isChecked()).toBe(true);
    await step.getByRole('textbox', { name: 'Details' }).fill('Paged the relay team on bridge-42');
    await step.getByRole('button', { name: 'Save & Close' }).click();
    await panel.getByRole('region', { name: 'Past steps' }).getByText('Paged the relay team on bridge-42').waitFor();
    await panel.getByRole('button', { name: 'Add Next step' }).click();
    step = panel.getByRole('form', { name: 'New next step' });
    await step.getByRole('textbox', { name: 'Details' }).fill('Restart the relay and drain the queue');
    await step.getByRole('checkbox', { name: 'Customer facing' }).check();
    await step.getByRole('button', { name: 'Save & Close' }).click();
    await panel
      .getByRole('region', { name: 'Next steps' })
      .getByText('Restart the relay and drain the queue')
      .waitFor();
    await settled(panel);
    await screenshot(page, 'communications-activities');
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await panel.waitFor({ state: 'hidden' });

    // Notify Internal: the spec's message, and the email kept in the outbox for the tenant's address.
    await searchGrid(page, title);
    await screenshot(page, 'communications-grid');
    await openRowAction(page, title, 'Notify Internal');
    await page.getByText(COMMUNICATION_MESSAGES.notifySent).waitFor();
    await expect
      .poll(
        async () =>
          (
            await api<ListResponse<{ to: string; subject: string }>>(
              admin,
              `/v1/emailOutbox?$filter=tenantId eq ${tenant.tenantId}`,
            )
          ).value.map((mail) => mail.to),
        { timeout: 30_000 },
      )
      .toContain(tenant.internalNotificationEmailAddress);

    // The internal report shows every step and the internal bridge.
    await openRowAction(page, title, 'Internal Report');
    let dialog = page.getByRole('dialog', { name: 'Internal Report' });
    await dialog.getByText(`WUCOMM #${publicId}: ${title}`).waitFor();
    await dialog.getByRole('table', { name: 'Activities' }).getByText('Paged the relay team on bridge-42').waitFor();
    await dialog
      .getByRole('table', { name: 'Activities' })
      .getByText('Restart the relay and drain the queue')
      .waitFor();
    await dialog
      .getByRole('row', { name: /Internal Bridge/ })
      .getByText('bridge-42')
      .waitFor();
    await settled(dialog);
    await screenshot(page, 'communications-internal-report');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });

    // The external report: customer-facing steps only, nothing internal; publish its link.
    await openRowAction(page, title, 'External Report');
    dialog = page.getByRole('dialog', { name: 'External Report' });
    await dialog
      .getByRole('table', { name: 'Activities' })
      .getByText('Restart the relay and drain the queue')
      .waitFor();
    expect(await dialog.getByText('Paged the relay team on bridge-42').count()).toBe(0);
    expect(await dialog.getByText('bridge-42').count()).toBe(0);
    expect(await dialog.getByRole('row', { name: /Service Manager/ }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Publish link' }).click();
    const linkBox = dialog.getByRole('textbox', { name: 'Published link' });
    await linkBox.waitFor();
    const published = await linkBox.inputValue();
    expect(published).toMatch(/\/status\/[A-Za-z0-9_-]{22,}$/);
    await settled(dialog);
    await screenshot(page, 'communications-external-report');

    // A customer, signed out, reads it.
    const customer = await newContext(browser);
    try {
      const publicPage = await customer.newPage();
      await publicPage.goto(published);
      await publicPage.getByRole('heading', { name: `WUCOMM #${publicId}: ${title}` }).waitFor();
      await publicPage.getByText('Restart the relay and drain the queue').waitFor();
      expect(await publicPage.getByText('Paged the relay team').count()).toBe(0);
      expect(await publicPage.getByText('bridge-42').count()).toBe(0);
      expect(await publicPage.getByRole('button', { name: 'Login' }).count()).toBe(0);
      await screenshot(publicPage, 'communications-public-report');

      // Revoked, the same link is no longer available.
      await dialog.getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('dialog', { name: 'Revoke link' }).getByRole('button', { name: 'Yes' }).click();
      await dialog.getByRole('button', { name: 'Publish link' }).waitFor();
      await publicPage.reload();
      await publicPage.getByText(COMMUNICATION_MESSAGES.reportNotPublished).waitFor();
      await screenshot(publicPage, 'communications-public-report-revoked');
    } finally {
      await customer.close();
    }
  });

  test('an overdue communication shows the badge and the Overdue filter finds it', async () => {
    const tag = uniqueName('Overdue').split(' ')[1] ?? 'tag';
    const overdue = await createCommunication({
      title: `Storage latency ${tag}`,
      nextUpdate: new Date(Date.now() - 60 * 60_000).toISOString(),
      currentImpact: 'Slow disks',
    });
    const onTime = await createCommunication({
      title: `Storage upgrade ${tag}`,
      nextUpdate: new Date(Date.now() + 24 * 60 * 60_000).toISOString(),
    });
    const page = await signedInPage(browser, 'admin');
    await page.goto(communicationsPath);
    await searchGrid(page, tag);
    await gridRow(page, onTime.title).waitFor();
    await gridRow(page, overdue.title).getByText('Overdue', { exact: true }).waitFor();
    expect(await gridRow(page, onTime.title).getByText('Overdue', { exact: true }).count()).toBe(0);

    const filtered = awaitLater(
      page.waitForResponse((response) =>
        (new URL(response.url()).searchParams.get('$filter') ?? '').includes('isOverdue eq true'),
      ),
    );
    await page.getByRole('group', { name: 'Filters' }).getByRole('switch', { name: 'Overdue' }).click();
    await filtered;
    await gridRow(page, onTime.title).waitFor({ state: 'detached' });
    await gridRow(page, overdue.title).waitFor();
    expect(new URL(page.url()).searchParams.get('search')).toContain('isOverdue');

    // Export All: the same filter, up to 1000 rows (spec 001 §9), as CSV with the overdue one.
    const exported = awaitLater(
      page.waitForResponse((response) => response.url().includes('/v1/workunitcommunications/Export()')),
    );
    const download = awaitLater(page.waitForEvent('download'));
    await page.getByRole('button', { name: 'Export All' }).click();
    const query = new URL((await exported).url()).searchParams;
    expect(query.get('$top')).toBe('1000');
    expect(query.get('$filter')).toContain('isOverdue eq true');
    const file = await download;
    expect(file.suggestedFilename()).toBe('workunitcommunications.csv');
    const csv = await fs.readFile((await file.path()) ?? '', 'utf8');
    expect(csv).toContain(overdue.title);
    expect(csv).not.toContain(onTime.title);
    await screenshot(page, 'communications-overdue');
  });

  test('the published report reads the communication again every minute', async () => {
    const communication = await createCommunication({
      title: uniqueName('Printing slow'),
      currentImpact: 'Print jobs wait a few minutes',
    });
    const { externalReportPath } = await api<{ externalReportPath: string }>(
      admin,
      `/v1/workunitcommunications/${communication.workUnitCommunicationId}/externalReport`,
      { method: 'POST' },
    );
    // Publishing again keeps the link.
    expect(
      (
        await api<{ externalReportPath: string }>(
          admin,
          `/v1/workunitcommunications/${communication.workUnitCommunicationId}/externalReport`,
          { method: 'POST' },
        )
      ).externalReportPath,
    ).toBe(externalReportPath);
    const customer = await newContext(browser);
    try {
      await customer.clock.install();
      const publicPage = await customer.newPage();
      await publicPage.goto(externalReportPath);
      await publicPage.getByText('Print jobs wait a few minutes').waitFor();
      await api(admin, `/v1/workunitcommunications/${communication.workUnitCommunicationId}`, {
        method: 'POST',
        body: {
          title: communication.title,
          tenantId: tenant.tenantId,
          serviceManager: communication.serviceManager,
          status: 'ServiceRestored',
          currentImpact: 'None',
        },
      });
      await publicPage.clock.runFor(30_000);
      expect(await publicPage.getByText('Open - Service Restored').count()).toBe(0);
      await publicPage.clock.runFor(31_000);
      await publicPage.getByText('Open - Service Restored').waitFor();
      expect(await publicPage.getByText('Print jobs wait a few minutes').count()).toBe(0);
    } finally {
      await customer.close();
    }
  });

  test('completing a next step makes it a past step; a deleted step is gone', async () => {
    const communication = await createCommunication({ title: uniqueName('Badge readers offline') });
    const activity = (details: string) =>
      api(admin, '/v1/workunitcommunicationactivities', {
        method: 'PUT',
        body: { workUnitCommunicationId: communication.workUnitCommunicationId, activityType: 'TaskActivity', details },
      });
    await activity('Replace the reader controller');
    await activity('Call the vendor');
    const { page, panel, next, past } = await openActivities(communication);
    await next.getByText('Replace the reader controller').waitFor();

    await next
      .getByRole('listitem')
      .filter({ hasText: 'Replace the reader controller' })
      .getByRole('button', { name: 'Edit activity' })
      .click();
    const form = panel.getByRole('form', { name: 'Edit activity' });
    await form.getByRole('checkbox', { name: 'Complete' }).check();
    await form.getByRole('button', { name: 'Save & Close' }).click();
    await past.getByText('Replace the reader controller').waitFor();
    await past.getByText(/Completed /).waitFor();

    await next
      .getByRole('listitem')
      .filter({ hasText: 'Call the vendor' })
      .getByRole('button', { name: 'Delete activity' })
      .click();
    await page.getByRole('dialog', { name: 'Delete activity' }).getByRole('button', { name: 'Yes' }).click();
    await next.getByText('No next steps.').waitFor();
    const stored = await api<ListResponse<{ details: string; activityType: string; isComplete: boolean }>>(
      admin,
      `/v1/workunitcommunicationactivities?$filter=workUnitCommunicationId eq ${communication.workUnitCommunicationId}`,
    );
    expect(
      stored.value.map(({ details, activityType, isComplete }) => ({ details, activityType, isComplete })),
    ).toEqual([{ details: 'Replace the reader controller', activityType: 'ResolutionActivity', isComplete: true }]);
  });

  test('after Save the activity form is ready for another step, and each Add button starts a step of its kind', async () => {
    const communication = await createCommunication({ title: uniqueName('Printer queue stalled') });
    const { page, panel, next, past } = await openActivities(communication);
    await next.getByText('No next steps.').waitFor();

    await panel.getByRole('button', { name: 'Add Next step' }).click();
    let form = panel.getByRole('form', { name: 'New next step' });
    await form.getByRole('textbox', { name: 'Details' }).fill('Restart the spooler');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await next.getByText('Restart the spooler').waitFor();
    // The form is empty and still for a new next step, not the saved one.
    form = panel.getByRole('form', { name: 'New next step' });
    await expect.poll(() => form.getByRole('textbox', { name: 'Details' }).inputValue()).toBe('');
    expect(await panel.getByRole('form', { name: 'Edit activity' }).count()).toBe(0);

    await panel.getByRole('button', { name: 'Add Past step' }).click();
    form = panel.getByRole('form', { name: 'New past step' });
    expect(await form.getByRole('checkbox', { name: 'Complete' }).isChecked()).toBe(true);
    await form.getByRole('textbox', { name: 'Details' }).fill('Cleared the stuck job');
    await form.getByRole('button', { name: 'Save', exact: true }).click();
    await past.getByText('Cleared the stuck job').waitFor();
    await settled(panel);
    await screenshotAtWidths(page, 'communications-activities-after-save');

    const stored = await api<ListResponse<{ details: string; activityType: string }>>(
      admin,
      `/v1/workunitcommunicationactivities?$filter=workUnitCommunicationId eq ${communication.workUnitCommunicationId}`,
    );
    expect(
      stored.value
        .map(({ details, activityType }) => ({ details, activityType }))
        .sort((a, b) => a.details.localeCompare(b.details)),
    ).toEqual([
      { details: 'Cleared the stuck job', activityType: 'ResolutionActivity' },
      { details: 'Restart the spooler', activityType: 'TaskActivity' },
    ]);
  });

  test("Add Next step clicked while a past step's Save & Close still settles opens the next step's form, asks nothing, and the settling save leaves it open", async () => {
    const communication = await createCommunication({ title: uniqueName('Badge printer') });
    const { page, panel, next, past } = await openActivities(communication);
    await past.getByText('No past steps.').waitFor();
    // The save settles once the lists it changed are read again: the grid behind the drawer is
    // held back, so that the past step shows in its list while its save has not yet settled.
    let releaseGrid: () => void = () => undefined;
    const gridHeld = new Promise<void>((resolve) => (releaseGrid = resolve));
    let heldGridReads = 0;
    await page.route(
      (url) => url.pathname === '/v1/workunitcommunications',
      async (route) => {
        heldGridReads += 1;
        await gridHeld;
        await route.continue();
      },
    );

    await panel.getByRole('button', { name: 'Add Past step' }).click();
    const pastForm = panel.getByRole('form', { name: 'New past step' });
    await pastForm.getByRole('textbox', { name: 'Details' }).fill('Swapped the ribbon');
    await pastForm.getByRole('button', { name: 'Save & Close' }).click();
    await past.getByText('Swapped the ribbon').waitFor();
    await expect.poll(() => heldGridReads).toBeGreaterThan(0);

    await panel.getByRole('button', { name: 'Add Next step' }).click();
    const nextForm = panel.getByRole('form', { name: 'New next step' });
    await nextForm.waitFor();
    expect(await page.getByText(SHELL_MESSAGES.unsavedChanges).count()).toBe(0);
    const gridRead = awaitLater(
      page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/workunitcommunications'),
    );
    releaseGrid();
    await (await gridRead).finished();
    await page.unroute((url) => url.pathname === '/v1/workunitcommunications');
    // Two frames after the grid's answer: the past step's save has settled, and what it would close, it closed.
    await page.evaluate(
      () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
    );
    expect(await nextForm.count()).toBe(1);
    await nextForm.getByRole('textbox', { name: 'Details' }).fill('Order a spare ribbon');
    await nextForm.getByRole('button', { name: 'Save & Close' }).click();
    await next.getByText('Order a spare ribbon').waitFor();
    await nextForm.waitFor({ state: 'detached' });
  });

  test('a date typed as it is shown, with a space before the time, is stored as typed; a partial date says "Please enter a valid date" and is not saved', async () => {
    const communication = await createCommunication({ title: uniqueName('Date entry') });
    const { page, panel } = await openCommunication(communication);
    const started = panel.getByRole('group', { name: 'Event Started' });
    await started.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('01122026 1530');
    await expect.poll(() => panel.locator('input[name="eventStarted"]').inputValue()).toBe('1/Dec/2026 15:30');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(COMMUNICATION_MESSAGES.saved).first().waitFor();
    const stored = await api<CommunicationRow>(
      admin,
      `/v1/workunitcommunications/${communication.workUnitCommunicationId}`,
    );
    const local = await page.evaluate((iso) => {
      const d = new Date(iso);
      return [d.getDate(), d.getMonth() + 1, d.getFullYear(), d.getHours(), d.getMinutes()];
    }, stored.eventStarted ?? '');
    expect(local).toEqual([1, 12, 2026, 15, 30]);

    const engaged = panel.getByRole('group', { name: 'Event Engaged' });
    await engaged.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('0312');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText('Please enter a valid date').waitFor();
    await engaged.scrollIntoViewIfNeeded();
    await screenshotAtWidths(page, 'communications-invalid-date');
    const after = await api<CommunicationRow>(
      admin,
      `/v1/workunitcommunications/${communication.workUnitCommunicationId}`,
    );
    expect(after.eventEngaged).toBeNull();
  });

  test('date filters are typed and shown as the portal shows dates, and stay inside their card on a phone', async () => {
    const page = await signedInPage(browser, 'admin', { width: 375, height: 800 });
    await page.goto(communicationsPath);
    const card = page.getByRole('group', { name: 'Filters' });
    const from = card.getByRole('group', { name: 'Created from' });
    await from.getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('01122026');
    await expect.poll(() => from.textContent()).toContain('1/Dec/2026');
    await expect
      .poll(() => decodeURIComponent(new URL(page.url()).searchParams.get('search') ?? ''))
      .toContain('2026-12-01');
    const cardBox = await card.boundingBox();
    for (const label of [
      'Created from',
      'Created to',
      'Next Update from',
      'Next Update to',
      'Resolved from',
      'Resolved to',
    ]) {
      const box = await card.getByRole('group', { name: label }).boundingBox();
      expect(box && cardBox && box.x + box.width <= cardBox.x + cardBox.width + 0.5, label).toBe(true);
    }
    await screenshotAtWidths(page, 'communications-date-filters');
  });

  test('Resolved clears and disables the next update and asks for the root cause', async () => {
    const communication = await createCommunication({
      title: uniqueName('VPN drops'),
      nextUpdate: new Date(Date.now() + 2 * 60 * 60_000).toISOString(),
    });
    const { page, panel } = await openCommunication(communication);
    const nextUpdate = nextUpdateInput(panel);
    expect(await nextUpdate.inputValue()).not.toBe('');

    await choose(panel, page, 'Status', 'Closed - Resolved');
    await expect.poll(() => nextUpdate.inputValue()).toBe('');
    expect(await nextUpdate.isDisabled()).toBe(true);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(COMMUNICATION_MESSAGES.rootCauseRequired).waitFor();
    await screenshot(page, 'communications-resolved-root-cause');

    await panel.getByRole('textbox', { name: 'Root Cause' }).fill('A certificate expired on the VPN concentrator.');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(COMMUNICATION_MESSAGES.saved).first().waitFor();
    const stored = await api<CommunicationRow>(
      admin,
      `/v1/workunitcommunications/${communication.workUnitCommunicationId}`,
    );
    expect(stored).toMatchObject({
      status: 'Resolved',
      nextUpdate: null,
      rootCause: 'A certificate expired on the VPN concentrator.',
    });
  });
});

/** The Next Update picker's value holder. */
function nextUpdateInput(panel: Locator): Locator {
  return panel.locator('input[name="nextUpdate"]');
}
