import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { FLEET_MESSAGES } from '@cfs/contracts/fleet';
import { browser, createToken, homeTenantId, reportPackets, screenshot, sessionOf, signedInPage } from './support';

/**
 * The packets of an entity (spec 002 §2 route /packets/{id}; §3 Packet; §8 empty states): the
 * latest packet's Value and groups as labelled tables, states as chips, the history below, and
 * 'No packet for this entity.' for an entity that never reported. Each test reports its own
 * packets with a tenant token of its own.
 */

describe('packets (operator)', () => {
  test('shows the latest packet of an entity as people read it, with its history', async () => {
    const session = await sessionOf(browser, 'operator');
    const { generatedToken } = await createToken(session);
    const entityId = randomUUID();
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    await reportPackets(generatedToken, [
      {
        entityId,
        timestamp: at(20),
        message: {
          Value: 12.5,
          Properties: { BlockName: 'Checkout API' },
          Metrics: { ResponseMs: 180 },
          States: { Service: 'Running' },
        },
      },
      {
        entityId,
        timestamp: at(2),
        message: {
          Value: 1234.5678,
          Properties: { BlockName: 'Checkout API', Region: 'West Europe' },
          Metrics: { CpuPercent: 37.256, ResponseMs: 1520 },
          States: { Service: 'Stopped', Certificate: 'OK' },
          Diagnostics: {},
        },
      },
    ]);
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${homeTenantId(session)}/packets/${entityId}`);

    await expect.poll(() => page.getByTestId('packet-value').textContent()).toBe('1,234.57');
    await expect.poll(() => page.getByRole('heading', { name: 'Checkout API' }).count()).toBe(1);
    const properties = page.getByRole('region', { name: 'Properties' });
    expect(await properties.getByRole('row', { name: /Region/ }).textContent()).toBe('RegionWest Europe');
    const metrics = page.getByRole('region', { name: 'Metrics' });
    expect(await metrics.getByRole('row', { name: /Cpu Percent/ }).textContent()).toBe('Cpu Percent37.26 %');
    expect(await metrics.getByRole('row', { name: /Response Ms/ }).textContent()).toBe('Response Ms1,520');
    const states = page.getByRole('region', { name: 'States' });
    expect(await states.locator('.MuiChip-colorError').textContent()).toBe('Stopped');
    expect(await states.locator('.MuiChip-colorSuccess').textContent()).toBe('OK');
    expect(await page.getByRole('region', { name: 'Diagnostics' }).textContent()).toContain(FLEET_MESSAGES.noData);

    // The history, newest first; a row shows that packet instead of the latest.
    const history = page.getByRole('table', { name: 'Packet history' });
    await expect.poll(() => history.getByRole('row').count()).toBe(3);
    await screenshot(page, 'packet-page');
    await history.getByRole('row').nth(2).click();
    await expect.poll(() => page.getByTestId('packet-value').textContent()).toBe('12.5');
    expect(await page.getByText('Packet from the history').count()).toBe(1);
    await page.getByRole('button', { name: 'Show latest' }).click();
    await expect.poll(() => page.getByTestId('packet-value').textContent()).toBe('1,234.57');

    await page.getByLabel('Raw JSON').check();
    expect(
      await page.getByRole('region', { name: 'Raw JSON' }).or(page.locator('pre')).first().textContent(),
    ).toContain('"West Europe"');
  });

  test("says 'No packet for this entity.' for an entity that never reported", async () => {
    const session = await sessionOf(browser, 'operator');
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${homeTenantId(session)}/packets/${randomUUID()}`);
    await expect.poll(() => page.getByText(FLEET_MESSAGES.noPacket).count()).toBe(1);
    await screenshot(page, 'packet-page-empty');
  });
});
