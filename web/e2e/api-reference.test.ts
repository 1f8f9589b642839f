import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { api, browser, createToken, newContext, screenshot, sessionOf, type ListResponse } from './support';

/**
 * The API reference at /docs (issue 35): an integrator with nothing but a tenant API token opens
 * it, authorizes with the token and sends a real request with Try it; the portal stores it.
 */
describe('the API reference', () => {
  test('shows each operation with its summary, and Try it reports a packet with a tenant API token', async () => {
    const admin = await sessionOf(browser, 'admin');
    const { generatedToken } = await createToken(admin);
    const context = await newContext(browser, { width: 1440, height: 1000 });
    const page = await context.newPage();
    await page.goto('/docs');
    await expect.poll(() => page.getByText('List action definitions').count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await screenshot(page, 'api-reference');

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const scheme = page.locator('.auth-container').filter({ hasText: 'apiToken' });
    await scheme.locator('input').fill(generatedToken);
    await scheme.getByRole('button', { name: 'Apply credentials' }).click();
    await scheme.getByRole('button', { name: 'Close' }).click();

    const entityId = randomUUID();
    await page.getByPlaceholder('Filter by tag').fill('Packets');
    const report = page.locator('.opblock-post').filter({ hasText: 'Report packets' });
    await report.locator('.opblock-summary').first().click();
    const packet = { entityId, timestamp: new Date().toISOString(), message: { Value: 42 } };
    await report.locator('textarea.body-param__text').fill(JSON.stringify(packet));
    await report.getByRole('button', { name: 'Execute' }).click();
    const status = report.locator('.live-responses-table tbody .response-col_status').first();
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toContain('200');
    await screenshot(page, 'api-reference-try-it');

    const stored = await api<ListResponse<{ entityId: string }>>(admin, `/v1/packets?$filter=entityId eq ${entityId}`);
    expect(stored.value.map((row) => row.entityId)).toEqual([entityId]);
    await context.close();
  });
});
