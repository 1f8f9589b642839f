import { describe, expect, test } from 'vitest';
import type { Location } from '@cfs/contracts/locations';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  browser,
  drawer,
  gridRow,
  homeTenantId,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  uniqueName,
} from './support';

/**
 * Locations in the browser (spec 002 §2 Locations): the grid with its columns and search, and the
 * Create/Edit Location drawer addressed by `?locationId=`. Each test makes its own locations.
 */
describe('locations (operator)', () => {
  test('creates a location in the drawer, finds it by city, and edits it', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${tenantId}/locations`);
    await page.getByRole('heading', { level: 1, name: 'Locations' }).waitFor();
    for (const header of ['Name', 'City', 'State', 'Tenant'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    await gridRow(page, 'Shared Data Centre').waitFor();
    await screenshot(page, 'locations-grid');

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('locationId') === 'new');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Location' }).waitFor();
    // A name is required (spec 002 §5).
    await panel.getByRole('textbox', { name: 'Name' }).focus();
    await panel.getByRole('textbox', { name: 'City' }).focus();
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await panel.getByText('Name is required').waitFor();
    const name = uniqueName('E2E Depot');
    const city = uniqueName('Olympia');
    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await panel.getByRole('textbox', { name: 'City' }).fill(city);
    await panel.getByRole('textbox', { name: 'State' }).fill('WA');
    await screenshot(page, 'locations-create');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    // The address names the new location; the drawer now edits it.
    await page.waitForURL((url) => /^[0-9a-f-]{36}$/.test(url.searchParams.get('locationId') ?? ''));
    await panel.getByRole('heading', { name: `Edit Location: ${name}` }).waitFor();
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('locationId'));

    await searchGrid(page, city);
    const row = gridRow(page, name);
    await row.waitFor();
    expect(await row.textContent()).toContain('Contoso');
    await row.getByText(name).click();
    await panel.getByRole('heading', { name: `Edit Location: ${name}` }).waitFor();
    await panel.getByRole('textbox', { name: 'State' }).fill('OR');
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('locationId'));
    await expect.poll(async () => gridRow(page, name).textContent(), { timeout: 10_000 }).toContain('OR');

    const stored = await api<JsonOf<Location>[]>(session, `/api/generallookup/locations?tenantId=${tenantId}`);
    expect(stored.map((location) => location.name)).toContain(name);
  });

  for (const width of [1440, 375]) {
    test(`at ${width} px the toast after a save does not cover the drawer's title`, async () => {
      const tenantId = homeTenantId(await sessionOf(browser, 'operator'));
      const page = await signedInPage(browser, 'operator', { width, height: 900 });
      await page.goto(`/${tenantId}/locations?locationId=new`);
      const panel = drawer(page);
      await panel.getByRole('heading', { name: 'Create Location' }).waitFor();
      const name = uniqueName('E2E Toasted');
      await panel.getByRole('textbox', { name: 'Name' }).fill(name);
      await panel.getByRole('button', { name: 'Save', exact: true }).click();
      const title = panel.getByRole('heading', { name: `Edit Location: ${name}` });
      await title.waitFor();
      const toast = page.locator('.notistack-Snackbar').filter({ hasText: 'Location saved.' });
      await toast.waitFor();
      const [a, b] = [await toast.boundingBox(), await title.boundingBox()];
      if (!a || !b) throw new Error('no box');
      const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlaps).toBe(false);
      await screenshot(page, `locations-saved-toast-${width}`);
    });
  }

  test('a save the server refuses shows "A problem occurred saving the location. Please try again."', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const page = await signedInPage(browser, 'operator');
    await page.route('**/v1/locations', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"down"}' })
        : route.fallback(),
    );
    await page.goto(`/${tenantId}/locations?locationId=new`);
    const panel = drawer(page);
    await panel.getByRole('textbox', { name: 'Name' }).fill(uniqueName('Refused'));
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('A problem occurred saving the location. Please try again.').waitFor();
    await screenshot(page, 'locations-save-failed');
  });
});
