import { describe, expect, test } from 'vitest';
import { SHELL_MESSAGES } from '@cfs/contracts/messages';
import { RESOLUTION_CENTER_MESSAGES, WORK_UNIT_MESSAGES } from '@cfs/contracts/values/work-units';
import {
  browser,
  choose,
  createTenant,
  drawer,
  gridRow,
  newContext,
  screenshot,
  sessionOf,
  settled,
  signedInPage,
  signIn,
  tenantUserWith,
  uniqueName,
} from './support';

/**
 * The Resolution Center as an end user meets it: the standalone layout, a request filed through
 * Create Request (with the spec's messages for what is missing), its details and a call back.
 */
describe('the Resolution Center (end user)', () => {
  test('an end user files a request, opens it and asks for a call back', async () => {
    const page = await signedInPage(browser, 'enduser');
    await page.goto('/resolutioncenter?showThanksForFeedbackMessage=true');
    await page.getByText('Resolution Center', { exact: true }).first().waitFor();
    await page.getByText(RESOLUTION_CENTER_MESSAGES.thanksForFeedback).waitFor();
    for (const header of ['ID', 'Title', 'Status', 'Created'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Request' }).waitFor();
    // A blank title and nothing else: the spec's message for each required field.
    await panel.getByRole('textbox', { name: 'Title' }).fill('  ');
    await panel.getByRole('button', { name: 'Submit', exact: true }).click();
    await panel.getByText(RESOLUTION_CENTER_MESSAGES.titleRequired).waitFor();
    await panel.getByText(RESOLUTION_CENTER_MESSAGES.descriptionRequired).waitFor();
    await panel.getByText(RESOLUTION_CENTER_MESSAGES.phoneRequired).waitFor();

    const title = uniqueName('Printer jams on every page');
    await panel.getByRole('textbox', { name: 'Title' }).fill(title);
    await panel.getByRole('textbox', { name: 'Description' }).fill('The printer on floor 2 jams.');
    await panel.getByText('28/4000').waitFor();
    await panel.getByRole('textbox', { name: 'Phone Number' }).fill('+1 425 555 0100');
    await choose(panel, page, 'Service', 'End-user devices');
    await choose(panel, page, 'Need', 'Printers');
    await screenshot(page, 'resolution-center-create');
    await panel.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByText(RESOLUTION_CENTER_MESSAGES.created).waitFor();

    // The drawer turns into the new request's details.
    await page.waitForURL((url) => /^\d+$/.test(url.searchParams.get('workUnitId') ?? ''));
    const workUnitId = new URL(page.url()).searchParams.get('workUnitId');
    const details = drawer(page);
    await details.getByRole('heading', { name: `#${workUnitId} ${title}` }).waitFor();
    await details.getByText('Active').waitFor();
    await settled(details);
    const box = await details.boundingBox();
    expect(box?.height ?? 0).toBeLessThanOrEqual(885);
    await screenshot(page, 'resolution-center-details');

    await details.getByRole('button', { name: 'Call Me' }).click();
    await page.getByText(WORK_UNIT_MESSAGES.callMeSuccess).waitFor();
    await details.getByText('Erin Enduser asked to be called back at +1 425 555 0100.').waitFor();
    // Asked once: the button says so and takes no second press.
    expect(await details.getByRole('button', { name: 'Call Back Requested' }).isDisabled()).toBe(true);
    await screenshot(page, 'resolution-center-call-me');

    // Closed, the list shows the request as Active.
    await details.getByRole('button', { name: 'Close', exact: true }).click();
    const row = gridRow(page, title);
    await row.waitFor();
    expect(await row.textContent()).toContain('Active');
    await screenshot(page, 'resolution-center-list');
  }, 90_000);

  test('someone who has filed nothing is told so, and can file a request from the empty list', async () => {
    const tenant = await createTenant(await sessionOf(browser, 'admin'));
    const userName = await tenantUserWith(tenant.tenantId, ['WorkUnits:view:mine'], 'Nia Newcomer');
    const context = await newContext(browser, { width: 390, height: 844 });
    try {
      const page = await context.newPage();
      await signIn(page, userName, '/', 'operator');
      await page.waitForURL((url) => url.pathname === '/resolutioncenter');
      const overlay = page.locator('.MuiDataGrid-overlay');
      await overlay.getByText(RESOLUTION_CENTER_MESSAGES.noRequests).waitFor();
      expect(await page.getByText('No rows', { exact: true }).count()).toBe(0);
      await screenshot(page, 'resolution-center-empty');

      // A search that finds nothing says that instead, and clearing it brings the first words back.
      const search = page.getByRole('textbox', { name: 'Search' });
      await search.fill('printer');
      await search.press('Enter');
      await overlay.getByText(SHELL_MESSAGES.nothingMatches).waitFor();
      await overlay.getByRole('button', { name: SHELL_MESSAGES.clearSearchAndFilters }).click();
      await overlay.getByText(RESOLUTION_CENTER_MESSAGES.noRequests).waitFor();

      await overlay.getByRole('button', { name: 'Create Request', exact: true }).click();
      await drawer(page).getByRole('heading', { name: 'Create Request' }).waitFor();
    } finally {
      await context.close();
    }
  }, 90_000);
});
