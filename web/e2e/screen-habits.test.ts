import type { Dialog, Locator, Page } from 'playwright-core';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';
import { describe, expect, test } from 'vitest';
import { TOAST_AUTO_HIDE_MS } from '@cfs/contracts/constants';
import { TENANT_MESSAGES } from '@cfs/contracts/values/tenants';
import { TOKEN_MESSAGES } from '@cfs/contracts/tokens';
import { WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import {
  browser,
  createChangeRequest,
  createTenant,
  createWorkUnit,
  drawer,
  gridRow,
  homeTenantId,
  pauseClock,
  runClockUntil,
  saveNewToken,
  screenshot,
  searchGrid,
  serverCall,
  sessionOf,
  signedInPage,
  uniqueName,
  type WorkUnitRow,
} from './support';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * How the screens behave around the work (issue 8, items 15, 17, 18, 21): where toasts show and
 * how long they stay, grids on a phone, dates typed as they are shown, a word after each save,
 * and questions before edits or a just-created token are lost. Each test makes its own work
 * units, tenants and tokens through the API or the screen.
 */

const ADMIN_MAIL = 'admin@cfs.example';

/**
 * The names of the buttons, tabs and links the toast covers: those the pointer would reach under
 * its box were the toast not there, disabled ones included (which the pointer passes through).
 */
async function actionsUnder(page: Page, toast: Locator): Promise<string[]> {
  const box = await toast.boundingBox();
  if (!box) throw new Error('The toast has no box');
  return toast.evaluate((element, area) => {
    const container = element.closest<HTMLElement>('.notistack-SnackbarContainer');
    if (!container) throw new Error('No toast container');
    container.style.visibility = 'hidden';
    const reachable = document.createElement('style');
    reachable.textContent = '* { pointer-events: auto !important; }';
    document.head.append(reachable);
    const covered = new Set<string>();
    for (let x = area.x; x <= area.x + area.width; x += 4) {
      for (let y = area.y; y <= area.y + area.height; y += 4) {
        const action = document.elementFromPoint(x, y)?.closest('button, [role="button"], [role="tab"], a');
        if (action) covered.add(action.getAttribute('aria-label') ?? action.textContent ?? '?');
      }
    }
    reachable.remove();
    container.style.visibility = '';
    return [...covered];
  }, box);
}

/** The browser's own question before a page goes away, answered "stay". */
function nextBeforeUnload(page: Page): Promise<Dialog> {
  return new Promise((resolve) => {
    const listener = (dialog: Dialog) => {
      if (dialog.type() !== 'beforeunload') return;
      page.off('dialog', listener);
      resolve(dialog);
    };
    page.on('dialog', listener);
  });
}

/**
 * Whether the page would hold the tab open now: its answer to a beforeunload event. The drawer
 * learns of an edit a few renders after the keystroke; a test waits for this before it closes.
 */
function holdsTab(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });
}

/** The drawer's question: its words, then the answer. */
async function answerQuestion(page: Page, text: string, reply: 'Yes' | 'No'): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Unsaved changes' });
  await dialog.getByText(text, { exact: true }).waitFor();
  await dialog.getByRole('button', { name: reply, exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
}

describe('screen habits', () => {
  /** A work unit's panel, open on the user's own new incident. */
  async function openWorkUnit(page: Page, unit: WorkUnitRow): Promise<Locator> {
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: `Edit Work Unit #${unit.workUnitId}: ${unit.title}` }).waitFor();
    return panel;
  }

  for (const [width, height] of [
    [1400, 900],
    [375, 800],
  ] as const) {
    test(`a toast shows clear of every button, the drawer's Save buttons included, and goes after 6000 ms with the pointer on it (${width} px)`, async () => {
      const unit = await createWorkUnit(await sessionOf(browser, 'operator'));
      const page = await signedInPage(browser, 'operator', { clock: true, width, height });
      const panel = await openWorkUnit(page, unit);
      await panel.getByRole('textbox', { name: 'Description' }).fill('Toner replaced.');
      // The Save buttons at the foot of the screen, where the pointer is when the toast comes.
      const saveButton = panel.getByRole('button', { name: 'Save', exact: true });
      await saveButton.evaluate((element) => element.scrollIntoView({ block: 'end' }));
      await pauseClock(page);
      await saveButton.click();
      const toast = page.getByText(WORK_UNIT_MESSAGES.saved(unit.workUnitId), { exact: true });
      await runClockUntil(page, () => toast.isVisible(), { stepMs: 10, maxMs: 5000 });
      // Its slide-in done, the toast stands where it stays.
      await page.clock.runFor(300);
      const snackbar = page.locator('.notistack-Snackbar', { has: toast });
      await screenshot(page, `screen-habits-toast-${width}`);
      expect(await actionsUnder(page, snackbar)).toEqual([]);
      const box = await snackbar.boundingBox();
      if (!box) throw new Error('The toast has no box');

      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.clock.runFor(TOAST_AUTO_HIDE_MS - 400);
      expect(await toast.isVisible()).toBe(true);
      await runClockUntil(page, async () => !(await toast.isVisible()), { maxMs: 1500 });
    });
  }

  test('a person whose system asks for less motion gets drawers and menus at once and no ripples; anyone else sees them move', async () => {
    const session = await sessionOf(browser, 'operator');
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const page = await signedInPage(browser, 'operator', { reducedMotion });
      await page.goto(`/${homeTenantId(session)}/locations`);
      const create = page.getByRole('button', { name: 'Create', exact: true });
      await create.click();
      const panel = drawer(page);
      await panel.getByRole('heading', { name: 'Create Location' }).waitFor();
      // The drawer slides in (MUI's 225 ms, its shadow 300 ms), or is in place at once.
      const slide = await panel.evaluate((element) =>
        getComputedStyle(element)
          .transitionDuration.split(', ')
          .map((duration) => parseFloat(duration)),
      );
      // A button's ripple is made at its first press (the Create button's, hidden behind the drawer now).
      const ripples = await page.locator('.MuiTouchRipple-root').count();
      await panel.getByRole('button', { name: 'Close', exact: true }).click();
      await page.waitForURL((url) => !url.searchParams.has('locationId'));
      if (reducedMotion === 'reduce') {
        expect(Math.max(...slide)).toBe(0);
        expect(ripples).toBe(0);
      } else {
        expect(Math.max(...slide)).toBeGreaterThanOrEqual(0.225);
        expect(ripples).toBeGreaterThan(0);
      }
    }
  });

  test('on a 375 px screen the work units grid shows ID, Title, Severity and State without scrolling sideways, and the pager keeps its rows-per-page choice', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'), { title: uniqueName('E2E narrow') });
    const page = await signedInPage(browser, 'operator', { width: 375, height: 800 });
    await page.goto('/workunitsv2');
    await page.getByRole('heading', { level: 1, name: 'Work Units' }).waitFor();
    await searchGrid(page, unit.title);
    const row = gridRow(page, unit.title);
    await row.waitFor();
    await screenshot(page, 'screen-habits-narrow-grid');
    const headers = await page.getByRole('columnheader').allTextContents();
    expect(headers.map((header) => header.trim())).toEqual(['ID', 'Title', 'Severity', 'State']);
    const scroller = page.locator('.MuiDataGrid-virtualScroller');
    expect(await scroller.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    // The title is read whole: it wraps onto more lines of a taller row instead of ending in "…".
    const title = row.locator('[data-field="title"]');
    expect(await title.evaluate((cell) => cell.scrollWidth - cell.clientWidth)).toBeLessThanOrEqual(0);
    const link = title.getByRole('link', { name: unit.title });
    const [linkBox, titleBox] = [await link.boundingBox(), await title.boundingBox()];
    expect(linkBox!.x + linkBox!.width).toBeLessThanOrEqual(titleBox!.x + titleBox!.width);
    expect(linkBox!.height).toBeGreaterThan(30);
    // "(ack)" is on screen, and works from there.
    const ack = row.getByRole('button', { name: '(ack)' });
    const ackBox = await ack.boundingBox();
    expect(ackBox && ackBox.x + ackBox.width).toBeLessThanOrEqual(375);

    const pageSize = page.getByRole('combobox', { name: /Rows per page/ });
    expect(await pageSize.isVisible()).toBe(true);
    await pageSize.click();
    await page.getByRole('option', { name: '25', exact: true }).click();
    await expect
      .poll(() => JSON.parse(new URL(page.url()).searchParams.get('search') ?? '{}') as { pageSize?: number })
      .toMatchObject({ pageSize: 25 });
    await ack.click();
    await page.getByText(WORK_UNIT_MESSAGES.acknowledged(unit.workUnitId)).waitFor();

    // The same list on a wide screen still shows every column, the narrow start kept nowhere.
    const wide = await signedInPage(browser, 'operator');
    await wide.goto(page.url().replace(/^https?:\/\/[^/]+/, ''));
    await wide.getByRole('columnheader', { name: 'Tenant' }).waitFor();
    await wide.getByRole('columnheader', { name: 'Assigned To' }).waitFor();
  });

  test('planned times are shown and typed as D/MMM/YYYY HH:mm on a 24-hour clock, in local time', async () => {
    const change = await createChangeRequest(await sessionOf(browser, 'operator'), {
      approver1: ADMIN_MAIL,
      plannedStartTime: '2027-03-05T10:00:00Z',
      plannedFinishTime: '2027-03-05T12:00:00Z',
    });
    const page = await signedInPage(browser, 'operator');
    const panel = await openWorkUnit(page, change);
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const start = panel
      .locator('.MuiPickersTextField-root', { has: page.getByRole('group', { name: 'Planned Start Time' }) })
      .locator('input');
    expect(await start.inputValue()).toBe(dayjs('2027-03-05T10:00:00Z').tz(zone).format('D/MMM/YYYY HH:mm'));

    // Typed section by section: day, month (its name), year, hours of the 24-hour clock, minutes.
    await panel.getByRole('group', { name: 'Planned Finish Time' }).getByRole('spinbutton', { name: 'Day' }).click();
    await page.keyboard.type('17Apr202714');
    await page.keyboard.type('30');
    const finish = panel
      .locator('.MuiPickersTextField-root', { has: page.getByRole('group', { name: 'Planned Finish Time' }) })
      .locator('input');
    expect(await finish.inputValue()).toBe('17/Apr/2027 14:30');
    await screenshot(page, 'screen-habits-date-entry');
    const [response] = await Promise.all([
      page.waitForResponse(
        (candidate) => candidate.request().method() === 'PATCH' && candidate.url().includes('/workunits'),
      ),
      panel.getByRole('button', { name: 'Save', exact: true }).click(),
    ]);
    expect(response.status()).toBe(200);
    const saved = await serverCall<WorkUnitRow>(page, `/v1/workunits(${change.workUnitId})`);
    expect(dayjs(saved.plannedFinishTime).toISOString()).toBe(dayjs.tz('2027-04-17 14:30', zone).toISOString());
  });

  test('saving a work unit, a tenant and a token each says so in a success toast', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator');
    const panel = await openWorkUnit(page, unit);
    await panel.getByRole('textbox', { name: 'Description' }).fill('Cable reseated.');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(WORK_UNIT_MESSAGES.saved(unit.workUnitId), { exact: true }).waitFor();

    const admin = await sessionOf(browser, 'admin');
    const adminPage = await signedInPage(browser, 'admin');
    const tenant = await createTenant(admin);
    await adminPage.goto(`/${homeTenantId(admin)}/tenants?editTenantId=${tenant.tenantId}`);
    const tenantPanel = drawer(adminPage);
    await tenantPanel.getByRole('heading', { name: `Edit Tenant: ${tenant.name}` }).waitFor();
    await tenantPanel.getByRole('textbox', { name: 'Internal Notification Email' }).fill('noc@example.com');
    await tenantPanel.getByRole('button', { name: 'Save', exact: true }).click();
    await adminPage.getByText(TENANT_MESSAGES.saved(tenant.name), { exact: true }).waitFor();

    await adminPage.goto(`/${homeTenantId(admin)}/tokens?tokenGrantId=new`);
    const name = uniqueName('e2e-saved');
    const tokenPanel = await saveNewToken(adminPage, name);
    await adminPage.getByText(TOKEN_MESSAGES.created, { exact: true }).waitFor();
    await tokenPanel.getByRole('heading', { name: `Edit Token: ${name}` }).waitFor();
    await tokenPanel.getByRole('textbox', { name: 'Description' }).fill('Build agent');
    await tokenPanel.getByRole('button', { name: 'Save', exact: true }).click();
    await adminPage.getByText(TOKEN_MESSAGES.saved, { exact: true }).waitFor();
  });

  test('closing the tab with unsaved edits in a drawer makes the browser ask first; once saved it closes at once', async () => {
    const unit = await createWorkUnit(await sessionOf(browser, 'operator'));
    const page = await signedInPage(browser, 'operator', { ownContext: true });
    const panel = await openWorkUnit(page, unit);
    const description = panel.getByRole('textbox', { name: 'Description' });
    // Typed, not filled: the browser asks only on a page the user has acted on.
    await description.click();
    await page.keyboard.type('Fan replaced.');
    await expect.poll(() => holdsTab(page)).toBe(true);
    const asked = nextBeforeUnload(page);
    await page.close({ runBeforeUnload: true });
    await (await asked).dismiss();
    expect(page.isClosed()).toBe(false);
    expect(await description.inputValue()).toBe('Fan replaced.');

    // Saved, the drawer holds nothing to lose: the tab closes without a question.
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(WORK_UNIT_MESSAGES.saved(unit.workUnitId), { exact: true }).waitFor();
    await expect.poll(() => holdsTab(page)).toBe(false);
    let questions = 0;
    page.on('dialog', (dialog) => {
      questions += 1;
      void dialog.dismiss();
    });
    const closed = new Promise((resolve) => page.once('close', resolve));
    await page.close({ runBeforeUnload: true });
    await closed;
    expect(questions).toBe(0);
  });

  test('the drawer showing a just-created token asks before it closes: Escape, the close button and the tab; a click outside leaves it open', async () => {
    const admin = await sessionOf(browser, 'admin');
    const page = await signedInPage(browser, 'admin', { ownContext: true });
    await page.goto(`/${homeTenantId(admin)}/tokens?tokenGrantId=new`);
    const name = uniqueName('e2e-shown-once');
    const panel = await saveNewToken(page, name);
    const token = panel.getByLabel('Generated token');
    await token.waitFor();

    await page.keyboard.press('Escape');
    await answerQuestion(page, TOKEN_MESSAGES.closeWhileShown, 'No');
    await token.waitFor();
    await screenshot(page, 'screen-habits-token-question');

    await page.mouse.click(20, 450);
    await token.waitFor();

    expect(await holdsTab(page)).toBe(true);
    const asked = nextBeforeUnload(page);
    await page.close({ runBeforeUnload: true });
    await (await asked).dismiss();
    await token.waitFor();

    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await answerQuestion(page, TOKEN_MESSAGES.closeWhileShown, 'Yes');
    await page.waitForURL((url) => !url.searchParams.has('tokenGrantId'));
    await searchGrid(page, name);
    await gridRow(page, name).waitFor();
  });
});
