import fs from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  addDays,
  complianceExportFileName,
  CONTROL_STATUS_LABELS,
  CONTROL_STATUSES,
  CONTROL_STATUS_MESSAGES,
  type ControlSet,
  type ControlSetsResponse,
  type ControlStatus,
  type ControlStatusValue,
} from '@cfs/contracts/compliance';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  browser,
  createTenant,
  newContext,
  screenshot,
  sessionOf,
  settled,
  signedInPage,
  tenantUserWith,
  uniqueName,
  type Session,
  toastShown,
} from './support';

/**
 * The compliance checklist in the browser (spec 002 §2 Compliance checklist, §4 control status
 * transitions, §8 messages, §9 week and toggle colours). Every test works in a tenant of its own,
 * so the weeks it reads hold only its own statuses.
 */

const LOW = 'NIST SP 800-53 Rev. 5 Low baseline';
/** A Sunday: the first day of a compliance week. */
const WEEK = '2026-11-01';
const NEXT_WEEK = addDays(WEEK, 7);
/** A week's rows take a while to arrive and render on a busy machine. */
const POLL = { timeout: 15_000 };

type ControlSetRow = JsonOf<ControlSet>;
type ControlStatusRow = JsonOf<ControlStatus>;

async function lowBaseline(session: Session, tenantId: string, checkDate: string): Promise<ControlSetRow> {
  const sets = await api<JsonOf<ControlSetsResponse>>(session, `/v1/controlsets?tenantId=${tenantId}`);
  const low = sets.value.find((set) => set.name === LOW);
  if (!low) throw new Error(`No control set ${LOW}`);
  const week = await api<JsonOf<ControlSetsResponse>>(
    session,
    `/v1/controlsets?tenantId=${tenantId}&controlSetId=${low.id}&checkDate=${checkDate}`,
  );
  const set = week.value.find((candidate) => candidate.id === low.id);
  if (!set) throw new Error(`${LOW} missing from its week`);
  return set;
}

function controlId(set: ControlSetRow, name: string): string {
  const control = set.controls.find((candidate) => candidate.name === name);
  if (!control) throw new Error(`No control ${name} in ${set.name}`);
  return control.id;
}

/** What the server holds for a control of the Low baseline in a week. */
async function recordOf(
  session: Session,
  tenantId: string,
  checkDate: string,
  name: string,
): Promise<ControlStatusRow | undefined> {
  const set = await lowBaseline(session, tenantId, checkDate);
  return set.controls.find((control) => control.name === name)?.controlStatuses[0];
}

async function setStatus(
  session: Session,
  tenantId: string,
  set: ControlSetRow,
  checkDate: string,
  name: string,
  status: ControlStatusValue,
  notes = '',
): Promise<void> {
  await api(session, '/v1/controlstatuses', {
    method: 'POST',
    body: { checkDate, status, notes, tenantId, controlId: controlId(set, name) },
  });
}

function row(page: Page, name: string): Locator {
  return page.getByTestId(`control-${name}`);
}

function toggle(page: Page, name: string, status: ControlStatusValue): Locator {
  return row(page, name).getByRole('button', { name: CONTROL_STATUS_LABELS[status], exact: true });
}

/**
 * The status the row's toggle shows chosen, or null. Read in one step: a count, then a read of the
 * button it counted, waited for that button when a new week's rows came in between (30 s each).
 */
async function shownStatus(page: Page, name: string): Promise<string | null> {
  const labels = await row(page, name)
    .locator('button[aria-pressed="true"]')
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
  return labels[0] ?? null;
}

async function openChecklist(page: Page, tenantId: string, week: string): Promise<void> {
  await page.goto(`/${tenantId}/compliance?week=${week}`);
  await page.getByRole('heading', { level: 1, name: 'Compliance' }).waitFor();
  const selector = page.getByRole('combobox', { name: 'Control Set' });
  await selector.waitFor();
  if ((await selector.textContent())?.trim() !== LOW) {
    await selector.click();
    const listbox = page.getByRole('listbox');
    await settled(listbox);
    await listbox.getByRole('option', { name: LOW, exact: true }).click();
    await listbox.waitFor({ state: 'hidden' });
  }
  await row(page, 'AC-1').waitFor();
}

describe('the compliance checklist (administrator)', () => {
  test('every status transition: set, change, deselect and Cancel, deselect and Delete, a note on an empty row, a note saved on blur', async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session);
    const page = await signedInPage(browser, 'admin');
    await openChecklist(page, tenant.tenantId, WEEK);
    for (const header of ['Control', 'Status', 'Notes'])
      await page.getByRole('columnheader', { name: header, exact: true }).waitFor();
    await page.getByTestId('compliance-week-range').getByText('1/Nov/2026 – 7/Nov/2026').waitFor();
    await page.getByRole('heading', { name: 'Access Control', exact: true }).waitFor();

    // Choosing a status where no record exists creates one with empty notes.
    await toggle(page, 'AC-1', 'Compliant').click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.statusCreated);
    expect(await shownStatus(page, 'AC-1')).toBe(CONTROL_STATUS_LABELS.Compliant);
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-1')).toMatchObject({
      status: 'Compliant',
      notes: '',
      checkDate: WEEK,
    });

    // Choosing another status updates the record.
    await toggle(page, 'AC-1', 'NonCompliant').click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.statusUpdated);
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-1')).toMatchObject({ status: 'NonCompliant' });

    // Deselecting asks first; Cancel keeps the record.
    await toggle(page, 'AC-1', 'NonCompliant').click();
    const question = page.getByRole('dialog');
    await question.getByText(CONTROL_STATUS_MESSAGES.confirmDelete).waitFor();
    await screenshot(page, 'compliance-delete-question');
    await question.getByRole('button', { name: 'Cancel', exact: true }).click();
    await question.waitFor({ state: 'hidden' });
    expect(await shownStatus(page, 'AC-1')).toBe(CONTROL_STATUS_LABELS.NonCompliant);
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-1')).toMatchObject({ status: 'NonCompliant' });

    // Deselecting and Delete removes it.
    await toggle(page, 'AC-1', 'NonCompliant').click();
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.deleted);
    await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBeNull();
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-1')).toBeUndefined();

    // A note where no record exists creates one with status Notset, saved when the field loses focus.
    const notes = page.getByRole('textbox', { name: 'Notes of AC-2', exact: true });
    await notes.fill('Accounts reviewed by the ISSO.');
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-2')).toBeUndefined();
    await notes.press('Tab');
    await toastShown(page, CONTROL_STATUS_MESSAGES.noteCreated);
    await expect.poll(() => shownStatus(page, 'AC-2'), POLL).toBe(CONTROL_STATUS_LABELS.Notset);
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-2')).toMatchObject({
      status: 'Notset',
      notes: 'Accounts reviewed by the ISSO.',
    });

    // Changing the note updates the record on blur; it is still there after a reload.
    await notes.fill('Accounts reviewed by the ISSO; two stale accounts disabled.');
    await page.getByRole('textbox', { name: 'Notes of AC-3', exact: true }).click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.noteUpdated);
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-2')).toMatchObject({
      notes: 'Accounts reviewed by the ISSO; two stale accounts disabled.',
    });

    // A note typed and then a status chosen on the same row: one record, with both.
    const ac3Notes = page.getByRole('textbox', { name: 'Notes of AC-3', exact: true });
    await ac3Notes.fill('Enforcement through the directory.');
    await toggle(page, 'AC-3', 'Poam').click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.statusUpdated);
    // The toast of an earlier status change may still be showing: the record is read until the write lands.
    await expect
      .poll(() => recordOf(session, tenant.tenantId, WEEK, 'AC-3'), POLL)
      .toMatchObject({ status: 'Poam', notes: 'Enforcement through the directory.' });

    await toggle(page, 'AC-1', 'Compliant').click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.statusCreated);
    await toggle(page, 'AC-8', 'Exempt').click();
    await expect.poll(() => shownStatus(page, 'AC-8'), POLL).toBe(CONTROL_STATUS_LABELS.Exempt);
    await toggle(page, 'AC-7', 'NonCompliant').click();
    await expect.poll(() => shownStatus(page, 'AC-7'), POLL).toBe(CONTROL_STATUS_LABELS.NonCompliant);

    // The statement on demand, from the keyboard.
    const statement = row(page, 'AC-1').getByRole('button', { name: 'Statement of AC-1' });
    await statement.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Develop, document, and disseminate', { exact: false }).first().waitFor();
    await expect.poll(() => statement.getAttribute('aria-expanded'), POLL).toBe('true');
    await screenshot(page, 'compliance-grid');

    // The chosen statuses wear the spec's colours (§9).
    const fill = (name: string) =>
      row(page, name)
        .locator('button[aria-pressed="true"]')
        .evaluate((button) => getComputedStyle(button).backgroundColor);
    expect(await fill('AC-1')).toBe('rgb(46, 125, 50)');
    expect(await fill('AC-7')).toBe('rgb(255, 160, 0)');
    expect(await fill('AC-3')).toBe('rgb(123, 31, 162)');
    expect(await fill('AC-8')).toBe('rgb(0, 137, 123)');
    expect(await fill('AC-2')).toBe('rgb(158, 158, 158)');

    await page.reload();
    await row(page, 'AC-2').waitFor();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Notes of AC-2', exact: true }).inputValue(), POLL)
      .toBe('Accounts reviewed by the ISSO; two stale accounts disabled.');
    expect(await shownStatus(page, 'AC-3')).toBe(CONTROL_STATUS_LABELS.Poam);
  }, 120_000);

  test("a change someone else made first: the spec's failure message, then the week as the server holds it", async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session);
    const set = await lowBaseline(session, tenant.tenantId, WEEK);
    await setStatus(session, tenant.tenantId, set, WEEK, 'AC-2', 'Compliant', 'Checked on Monday.');
    await setStatus(session, tenant.tenantId, set, WEEK, 'AC-3', 'Exempt');
    const page = await signedInPage(browser, 'admin');
    await openChecklist(page, tenant.tenantId, WEEK);
    await expect.poll(() => shownStatus(page, 'AC-2'), POLL).toBe(CONTROL_STATUS_LABELS.Compliant);

    // AC-1 gets a status behind the screen: choosing one here finds the week taken.
    await setStatus(session, tenant.tenantId, set, WEEK, 'AC-1', 'Poam');
    await toggle(page, 'AC-1', 'Compliant').click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.statusCreateFailed);
    await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBe(CONTROL_STATUS_LABELS.Poam);

    // AC-2's note changes behind the screen: the patch's test of the old note refuses this one.
    const ac2 = (await recordOf(session, tenant.tenantId, WEEK, 'AC-2'))!;
    await api(session, `/v1/controlstatuses/${ac2.id}`, {
      method: 'PATCH',
      body: [{ op: 'replace', path: '/notes', value: 'Checked on Tuesday.' }],
    });
    const notes = page.getByRole('textbox', { name: 'Notes of AC-2', exact: true });
    await notes.fill('Checked on Wednesday.');
    await notes.press('Tab');
    await toastShown(page, CONTROL_STATUS_MESSAGES.noteUpdateFailed);
    await expect.poll(() => notes.inputValue(), POLL).toBe('Checked on Tuesday.');

    // AC-3 is deleted behind the screen: deleting it here fails.
    const ac3 = (await recordOf(session, tenant.tenantId, WEEK, 'AC-3'))!;
    await api(session, `/v1/controlstatuses/${ac3.id}`, { method: 'DELETE' });
    await toggle(page, 'AC-3', 'Exempt').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.deleteFailed);
    await expect.poll(() => shownStatus(page, 'AC-3'), POLL).toBeNull();
  });

  test("switching weeks shows each week's statuses", async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session);
    const set = await lowBaseline(session, tenant.tenantId, WEEK);
    await setStatus(session, tenant.tenantId, set, WEEK, 'AC-1', 'Compliant', 'First week.');
    await setStatus(session, tenant.tenantId, set, NEXT_WEEK, 'AC-1', 'Exempt', 'Second week.');

    const page = await signedInPage(browser, 'admin');
    await openChecklist(page, tenant.tenantId, WEEK);
    await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBe(CONTROL_STATUS_LABELS.Compliant);
    expect(await page.getByRole('textbox', { name: 'Notes of AC-1', exact: true }).inputValue()).toBe('First week.');

    await page.getByRole('button', { name: 'Next week' }).click();
    await page.waitForURL((url) => url.searchParams.get('week') === NEXT_WEEK);
    await page.getByTestId('compliance-week-range').getByText('8/Nov/2026 – 14/Nov/2026').waitFor();
    await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBe(CONTROL_STATUS_LABELS.Exempt);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Notes of AC-1', exact: true }).inputValue(), POLL)
      .toBe('Second week.');

    await page.getByRole('button', { name: 'Next week' }).click();
    await page.waitForURL((url) => url.searchParams.get('week') === addDays(WEEK, 14));
    await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBeNull();

    // A day picked in the calendar stands for its week: Wednesday 4 Nov is the week of 1 Nov.
    await page.getByRole('button', { name: /Choose date/ }).click();
    const calendar = page.getByRole('dialog');
    await settled(calendar);
    await calendar.getByText('November 2026').waitFor();
    await calendar.getByRole('gridcell', { name: '4', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('week') === WEEK);
    await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBe(CONTROL_STATUS_LABELS.Compliant);
    await screenshot(page, 'compliance-week');
  });

  test('on a 375 px phone each control reads as a card (name, status, notes) that sets a status without scrolling sideways', async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session);
    const page = await signedInPage(browser, 'admin', { width: 375, height: 800 });
    await openChecklist(page, tenant.tenantId, WEEK);
    await screenshot(page, 'compliance-375');
    const frame = page.locator('.MuiTableContainer-root').first();
    expect(await frame.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    // Every status button and the notes are on screen, under the control's name.
    const name = await row(page, 'AC-2').getByText('Account Management').boundingBox();
    for (const status of CONTROL_STATUSES) {
      const box = await toggle(page, 'AC-2', status).boundingBox();
      expect(box!.x + box!.width, status).toBeLessThanOrEqual(375);
      expect(box!.y, status).toBeGreaterThan(name!.y);
    }
    const notes = await page.getByRole('textbox', { name: 'Notes of AC-2', exact: true }).boundingBox();
    expect(notes!.x + notes!.width).toBeLessThanOrEqual(375);
    await toggle(page, 'AC-2', 'Exempt').click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.statusCreated);
    expect(await recordOf(session, tenant.tenantId, WEEK, 'AC-2')).toMatchObject({ status: 'Exempt' });
  });

  test('Copy last week fills the controls without a status this week from last week', async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session);
    const set = await lowBaseline(session, tenant.tenantId, WEEK);
    await setStatus(session, tenant.tenantId, set, WEEK, 'AC-1', 'Compliant', 'Kept from last week?');
    await setStatus(session, tenant.tenantId, set, WEEK, 'AC-2', 'Poam', 'Plan due in March.');
    await setStatus(session, tenant.tenantId, set, NEXT_WEEK, 'AC-1', 'Exempt', 'Decided this week.');

    const page = await signedInPage(browser, 'admin');
    await openChecklist(page, tenant.tenantId, NEXT_WEEK);
    await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBe(CONTROL_STATUS_LABELS.Exempt);
    expect(await shownStatus(page, 'AC-2')).toBeNull();

    await page.getByRole('button', { name: 'Copy last week' }).click();
    await toastShown(page, 'Copied 1 control status from last week.');
    await expect.poll(() => shownStatus(page, 'AC-2'), POLL).toBe(CONTROL_STATUS_LABELS.Poam);
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Notes of AC-2', exact: true }).inputValue(), POLL)
      .toBe('Plan due in March.');
    // This week's own choice stays.
    expect(await shownStatus(page, 'AC-1')).toBe(CONTROL_STATUS_LABELS.Exempt);
    expect(await recordOf(session, tenant.tenantId, NEXT_WEEK, 'AC-2')).toMatchObject({
      status: 'Poam',
      notes: 'Plan due in March.',
      checkDate: NEXT_WEEK,
    });
    await screenshot(page, 'compliance-copied');
  });

  test("Export downloads the week's CSV under the server's name, with the statuses and notes", async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session);
    const set = await lowBaseline(session, tenant.tenantId, WEEK);
    await setStatus(session, tenant.tenantId, set, WEEK, 'AC-1', 'Compliant', 'Policy signed 2 Nov.');

    const page = await signedInPage(browser, 'admin');
    await openChecklist(page, tenant.tenantId, WEEK);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(complianceExportFileName(WEEK));
    expect(download.suggestedFilename()).toContain(WEEK);
    const lines = (await fs.readFile(await download.path(), 'utf8')).split(/\r?\n/).filter(Boolean);
    const ac1 = lines.find((line) => line.includes('AC-1,') || line.includes('"AC-1"'));
    expect(ac1).toBeDefined();
    expect(ac1).toContain('Compliant');
    expect(ac1).toContain('Policy signed 2 Nov.');
  });

  test('an uploaded control set is offered in the selector with its controls by family', async () => {
    const session = await sessionOf(browser, 'admin');
    const tenant = await createTenant(session);
    const name = uniqueName('E2E baseline');
    const file = {
      name,
      description: 'Two controls of our own.',
      controls: [
        { id: 'ZZ-1', family: 'Zebra Handling', title: 'Stripe inventory', description: 'Count the stripes weekly.' },
        { id: 'ZZ-2', family: 'Zebra Handling', title: 'Feeding schedule', description: 'Feed twice a day.' },
      ],
    };
    const page = await signedInPage(browser, 'admin');
    await openChecklist(page, tenant.tenantId, WEEK);
    await page.getByRole('button', { name: 'Upload Control Set' }).click();
    const dialog = page.getByRole('dialog');
    await dialog
      .getByLabel('Control set file')
      .setInputFiles({ name: 'zebra.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await dialog.getByText('zebra.json').waitFor();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await toastShown(page, `Control set "${name}" uploaded with 2 controls.`);
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(async () => (await page.getByRole('combobox', { name: 'Control Set' }).textContent())?.trim(), POLL)
      .toBe(name);
    await page.getByRole('heading', { name: 'Zebra Handling', exact: true }).waitFor();
    await toggle(page, 'ZZ-2', 'Compliant').click();
    await toastShown(page, CONTROL_STATUS_MESSAGES.statusCreated);
    await screenshot(page, 'compliance-uploaded-set');
  });
});

describe('the compliance checklist (view only)', () => {
  test('a user with Compliance view only sees the week and cannot change it', async () => {
    const admin = await sessionOf(browser, 'admin');
    const tenant = await createTenant(admin);
    const set = await lowBaseline(admin, tenant.tenantId, WEEK);
    await setStatus(admin, tenant.tenantId, set, WEEK, 'AC-1', 'Poam', 'Plan agreed.');
    const userName = await tenantUserWith(tenant.tenantId, ['Compliance:view'], 'Vera Viewer');

    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await page.goto(`/${tenant.tenantId}/compliance?week=${WEEK}`);
      await page.getByRole('button', { name: 'Login' }).click();
      await page.waitForURL(/\/oidc\/interaction\//);
      await page.getByLabel('User name').fill(userName);
      await page.getByLabel('Password').fill('operator');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL((url) => url.pathname.endsWith('/compliance'));
      await openChecklist(page, tenant.tenantId, WEEK);
      await expect.poll(() => shownStatus(page, 'AC-1'), POLL).toBe(CONTROL_STATUS_LABELS.Poam);
      expect(await page.getByRole('textbox', { name: 'Notes of AC-1', exact: true }).inputValue()).toBe('Plan agreed.');
      expect(await toggle(page, 'AC-1', 'Compliant').isDisabled()).toBe(true);
      expect(await toggle(page, 'AC-2', 'Compliant').isDisabled()).toBe(true);
      expect(
        await page.getByRole('textbox', { name: 'Notes of AC-2', exact: true }).getAttribute('readonly'),
      ).not.toBeNull();
      for (const button of ['Copy last week', 'Upload Control Set'])
        expect(await page.getByRole('button', { name: button }).count()).toBe(0);
      // Export reads only: it stays.
      await page.getByRole('button', { name: 'Export', exact: true }).waitFor();
      await screenshot(page, 'compliance-view-only');
    } finally {
      await context.close();
    }
  });
});
