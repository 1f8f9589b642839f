import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BLOCK_MESSAGES } from '@cfs/contracts/blocks';
import { BLOCK_COLORS } from '@cfs/contracts/monitoring';
import { RULE_MESSAGES } from '@cfs/contracts/rules';
import {
  api,
  awaitLater,
  browser,
  choose,
  createSubscription,
  createTenant,
  createToken,
  drawer,
  portalDatabase,
  reportPackets,
  screenshot,
  sessionOf,
  settled,
  signedInPage,
  tenantNamed,
  uniqueName,
  type ListResponse,
  type Session,
} from './support';

/**
 * The Blocks screen in the browser (spec 002 §2 Blocks, §4 Block, §5 Block, §8): a block made
 * through the form, its entity's packets reported through the API with a tenant token, its tile
 * with the latest Value on the entity's colour, and the Block details drawer's tabs; then the
 * Packet page's tabs for the same entity. Colours, logs and rule matches are what the rule engine
 * writes: the test puts them into the portal's database itself. Each test works in a tenant of
 * its own made through the API.
 */

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('blocks (admin)', () => {
  let admin: Session;
  let db: pg.Client;

  beforeAll(async () => {
    admin = await sessionOf(browser, 'admin');
    db = await portalDatabase();
  }, 60_000);
  afterAll(async () => {
    await db?.end();
  });

  /** A tenant of the test's own with one subscription, and a token that reports its packets. */
  async function ownTenant() {
    const tenant = await createTenant(admin, { name: uniqueName('Blocks') });
    const subscription = await createSubscription(admin, tenant.tenantId, uniqueName('Plant'));
    const { generatedToken } = await createToken(admin, { tenantId: tenant.tenantId });
    return {
      tenantId: tenant.tenantId,
      tenantName: tenant.name,
      subscriptionId: subscription.subscriptionId,
      subscriptionName: subscription.name,
      token: generatedToken,
    };
  }

  /** 130 packets a minute apart, the newest a minute ago: Value 0 to 129. */
  function packetsOf(entityId: string) {
    const newest = Date.now() - 60_000;
    return Array.from({ length: 130 }, (_, i) => ({
      entityId,
      timestamp: new Date(newest - (129 - i) * 60_000).toISOString(),
      message: { Value: i, Properties: { BlockName: 'Boiler' }, Metrics: { Temperature: 20 + i } },
    }));
  }

  /** A Small Text block of a new entity in the tenant's subscription, made through the API; answers its entity id. */
  async function smallTextBlock(own: { subscriptionId: string }, name: string): Promise<string> {
    const blockId = randomUUID();
    await api(admin, '/v1/blocks', {
      method: 'PUT',
      body: { blockId, subscriptionId: own.subscriptionId, name, blockTypeId: 2 },
    });
    return blockId;
  }

  async function blocksPage(page: Page, tenantId: string, query = '') {
    await page.goto(`/${tenantId}/blocks${query}`);
    // A block named in the address opens its drawer, a modal that hides the page behind it from
    // assistive technology (aria-hidden): the heading is drawn all the same.
    await page.getByRole('heading', { level: 1, name: 'Blocks', includeHidden: true }).waitFor();
  }

  test('creates a block through the form, with its validation messages, and shows its entity as a live tile with every tab', async () => {
    const own = await ownTenant();
    const page = await signedInPage(browser, 'admin');
    await blocksPage(page, own.tenantId);
    await page.getByText(BLOCK_MESSAGES.noBlocks, { exact: true }).waitFor();
    await screenshot(page, 'blocks-empty');

    // Create: only Details, the Block ID pre-filled with a new v4 GUID.
    await page.getByRole('button', { name: 'Create' }).click();
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Block details' }).waitFor();
    expect(await panel.getByRole('tab').count()).toBe(0);
    expect(page.url()).toContain('blockId=new');
    const blockIdBox = panel.getByRole('textbox', { name: 'Block ID' });
    expect(await blockIdBox.inputValue()).toMatch(V4);

    // Every message of spec 002 §5 Block.
    await blockIdBox.fill('c232ab00-9414-11ec-b3c8-9f6bdeced846');
    await panel.getByRole('textbox', { name: 'Name' }).fill('x');
    await panel.getByRole('textbox', { name: 'Name' }).fill('');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await panel.getByText(BLOCK_MESSAGES.blockIdInvalid).waitFor();
    await panel.getByText(BLOCK_MESSAGES.nameRequired).waitFor();
    await panel.getByText(BLOCK_MESSAGES.typeRequired).waitFor();
    await panel.getByText(BLOCK_MESSAGES.subscriptionRequired).waitFor();
    await settled(panel);
    await screenshot(page, 'block-create-validation');

    // The Type choices leave out deviceHeartbeat.
    await panel.getByRole('combobox', { name: 'Type' }).click();
    const listbox = page.getByRole('listbox');
    await settled(listbox);
    expect(await listbox.getByRole('option').allTextContents()).toEqual(['Numeric', 'Small Text']);
    await page.keyboard.press('Escape');
    await listbox.waitFor({ state: 'hidden' });

    const blockId = randomUUID();
    const name = uniqueName('Boiler temperature');
    await blockIdBox.fill(blockId);
    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await panel.getByRole('textbox', { name: 'Description' }).fill('Boiler room, north wall');
    await choose(panel, page, 'Type', 'Numeric');
    await choose(panel, page, 'Tenant', own.tenantName);
    await choose(panel, page, 'Subscription', own.subscriptionName);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Block saved.').waitFor();
    // The address names the block, and the other tabs appear.
    await expect.poll(() => new URL(page.url()).searchParams.get('blockId')).toBe(blockId);
    await panel.getByRole('tab', { name: 'History' }).waitFor();
    expect(await panel.getByRole('tab').allTextContents()).toEqual([
      'Details',
      'Rule Matches',
      'History',
      'Logs',
      'Timeline',
    ]);
    const saved = await api<{ tenantId: string; subscriptionId: string; blockTypeId: number }>(
      admin,
      `/v1/blocks/${blockId}`,
    );
    expect(saved).toMatchObject({ tenantId: own.tenantId, subscriptionId: own.subscriptionId, blockTypeId: 1 });

    // The entity reports; a rule colours it, logs what it did and opens a match.
    await reportPackets(own.token, packetsOf(blockId));
    await db.query(`INSERT INTO entity_color (entity_id, tenant_id, color) VALUES ($1, $2, $3)`, [
      blockId,
      own.tenantId,
      BLOCK_COLORS.Red,
    ]);
    await db.query(
      `INSERT INTO entity_log (entity_id, tenant_id, created, detail) VALUES ($1, $2, now() - interval '2 minutes', 'Colour set to Red by rule Hot boiler'), ($1, $2, now(), 'Email sent to the plant team')`,
      [blockId, own.tenantId],
    );
    const rule = await db.query<{ rule_id: string }>(
      `INSERT INTO rule (tenant_id, name, rule_type_id, match_lifetime_seconds, conditions) VALUES ($1, 'Hot boiler', 1, 300, '[{"Type":0,"LeftOperand":1,"Operator":3,"RightOperand":"100"}]') RETURNING rule_id`,
      [own.tenantId],
    );
    const reason = {
      conditions: [{ index: 0, leftOperand: 'Value', operator: 'GreaterThan', rightOperand: '100', seen: '129' }],
      timestamp: new Date().toISOString(),
    };
    await db.query(
      `INSERT INTO rule_match (rule_id, tenant_id, subject_id, label, match_count, first_match, last_match, expires, reason) VALUES ($1, $2, $3, 'Boiler', 29, now() - interval '29 minutes', now() - interval '1 minute', now() + interval '4 minutes', $4)`,
      [rule.rows[0]!.rule_id, own.tenantId, blockId, JSON.stringify(reason)],
    );

    // History: the chart over the last day above 100 rows of 130.
    await panel.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('history');
    await panel.getByTestId('history-chart').locator('path.MuiLineChart-line').first().waitFor();
    const history = panel.getByRole('table', { name: 'History' });
    await expect.poll(() => history.getByRole('row').count()).toBe(101);
    expect(await history.getByRole('row').nth(1).getByRole('cell').last().textContent()).toBe('129');
    await panel.getByText('1–100 of 130').waitFor();
    await settled(panel);
    await screenshot(page, 'block-history');
    await panel.getByRole('button', { name: 'Go to next page' }).click();
    await expect.poll(() => history.getByRole('row').count()).toBe(31);
    // The last hour holds the packets of its 60 minutes (the oldest may have just left it).
    await panel.getByRole('button', { name: 'Last hour' }).click();
    const total = async () =>
      Number(/of (\d+)$/.exec((await panel.locator('.MuiTablePagination-displayedRows').textContent()) ?? '')?.[1]);
    await expect
      .poll(async () => {
        const shown = await total();
        return shown >= 58 && shown <= 60;
      })
      .toBe(true);

    // Logs, newest first.
    await panel.getByRole('tab', { name: 'Logs' }).click();
    const logs = panel.getByRole('table', { name: 'Block logs' });
    await expect.poll(() => logs.getByRole('row').count()).toBe(3);
    expect(await logs.getByRole('row').nth(1).textContent()).toContain('Email sent to the plant team');
    await panel.getByText('Auto-Refresh (30 sec)').waitFor();

    // Rule matches: Active until it expires, and why it fired.
    await panel.getByRole('tab', { name: 'Rule Matches' }).click();
    const matches = panel.getByRole('table', { name: 'Block rule matches' });
    const row = matches.getByTestId('rule-match-row');
    await row.waitFor();
    expect(await row.textContent()).toContain('Hot boiler');
    expect(await row.locator('.MuiChip-root').textContent()).toBe('Active');
    // The status is the first column: the drawer shows it without scrolling the table sideways.
    const status = await row.locator('.MuiChip-root').boundingBox();
    const shown = await matches.locator('..').boundingBox();
    expect(status!.x + status!.width).toBeLessThanOrEqual(shown!.x + shown!.width);
    await row.getByRole('button', { name: 'Why it fired' }).click();
    await matches.getByText('Value Greater Than 100 — seen 129').waitFor();
    await settled(panel);
    await screenshot(page, 'block-rule-matches');

    // Reloading keeps the block and the tab.
    await page.reload();
    await drawer(page).getByRole('tab', { name: 'Rule Matches', selected: true }).waitFor();

    // The tile: the latest Value on the entity's colour, with text that reads on it.
    await drawer(page).getByRole('button', { name: 'Close', exact: true }).click();
    await drawer(page).waitFor({ state: 'detached' });
    const tile = page.getByRole('article', { name });
    await expect.poll(() => tile.getByTestId('block-value').textContent()).toBe('129');
    expect(await tile.getAttribute('data-color')).toBe('Red');
    expect(await tile.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(255, 51, 51)');
    expect(await tile.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(0, 0, 0)');
    await page.getByTestId('blocks-last-updated').waitFor();
    await screenshot(page, 'blocks-tiles');

    // Edit sends only the name and the description; Delete asks first.
    await tile.click();
    const edit = drawer(page);
    await edit.getByRole('textbox', { name: 'Name' }).fill(`${name} (north)`);
    await edit.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Block saved.').first().waitFor();
    await expect
      .poll(async () => (await api<{ name: string }>(admin, `/v1/blocks/${blockId}`)).name)
      .toBe(`${name} (north)`);
    await edit.getByRole('button', { name: 'Delete' }).click();
    const question = page.getByRole('dialog').filter({ hasText: BLOCK_MESSAGES.deleteConfirm });
    await question.waitFor();
    await question.getByRole('button', { name: 'Yes' }).click();
    await page.getByText(BLOCK_MESSAGES.deleted).waitFor();
    await page.getByText(BLOCK_MESSAGES.noBlocks, { exact: true }).waitFor();
  }, 120_000);

  test('a packet sent through the API changes its tile in under 1.5 s, with no reload and no poll in between (the live stream)', async () => {
    const own = await ownTenant();
    const entityId = await smallTextBlock(own, 'Live sensor');
    const packet = (value: number) => ({ entityId, timestamp: new Date().toISOString(), message: { Value: value } });
    await reportPackets(own.token, [packet(1)]);
    const page = await signedInPage(browser, 'admin');
    const opened = awaitLater(page.waitForResponse((response) => new URL(response.url()).pathname === '/v1/live'));
    await blocksPage(page, own.tenantId);
    const value = page.getByRole('article', { name: 'Live sensor' }).getByTestId('block-value');
    await expect.poll(() => value.textContent()).toBe('1');
    expect((await opened).status()).toBe(200);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    // While the stream is open the tiles do not poll: nothing is asked for over more than the 10 s poll.
    const screenCalls: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname === '/v1/blocks' || pathname === '/v1/packets') screenCalls.push(pathname);
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    screenCalls.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(screenCalls).toEqual([]);

    const sent = Date.now();
    await reportPackets(own.token, [packet(2)]);
    await expect.poll(() => value.textContent(), { timeout: 1_500, interval: 20 }).toBe('2');
    expect(Date.now() - sent).toBeLessThan(1_500);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    // The change came by the stream: the tiles asked once for the packets, not on a timer.
    expect(screenCalls.filter((call) => call === '/v1/packets')).toHaveLength(1);
  }, 60_000);

  test('a tile shows who acknowledged its entity’s open match and until when it is silenced', async () => {
    const own = await ownTenant();
    const entityId = await smallTextBlock(own, 'Watched pump');
    const word = `hot-${randomUUID().slice(0, 6)}`;
    const rule = await api<{ ruleId: string }>(admin, '/v1/rules', {
      method: 'PUT',
      body: {
        name: uniqueName('Hot pump'),
        ruleTypeId: 1,
        tenantId: own.tenantId,
        matchLifetime: '01:00:00',
        conditions: [{ Type: 0, LeftOperand: 1, Operator: 1, RightOperand: word }],
      },
    });
    await reportPackets(own.token, [{ entityId, timestamp: new Date().toISOString(), message: { Value: word } }]);
    const matches = await api<ListResponse<{ ruleMatchId: string }>>(
      admin,
      `/v1/rulematches?$filter=ruleId eq ${rule.ruleId}`,
    );
    const ruleMatchIds = matches.value.map((match) => match.ruleMatchId);
    expect(ruleMatchIds).toHaveLength(1);
    await api(admin, '/v1/rulematches/acknowledge', { method: 'POST', body: { ruleMatchIds, note: 'Mine' } });
    const page = await signedInPage(browser, 'admin');
    await blocksPage(page, own.tenantId);
    const tile = page.getByRole('article', { name: 'Watched pump' });
    await tile.getByText('Acknowledged by admin').waitFor();
    expect(await tile.getByText(/^Silenced until/).count()).toBe(0);
    // Silenced while the screen is open: the tile learns of it without a reload.
    await api(admin, '/v1/rulematches/silence', { method: 'POST', body: { ruleMatchIds, duration: '01:00:00' } });
    await tile.getByText(/^Silenced until/).waitFor({ timeout: 15_000 });
    await screenshot(page, 'blocks-tile-acknowledged');
  });

  test("a block whose entity has not reported shows 'No packet for this entity.', and a refused save toasts the spec's text", async () => {
    const own = await ownTenant();
    const quiet = await smallTextBlock(own, 'Quiet sensor');
    const page = await signedInPage(browser, 'admin');
    await blocksPage(page, own.tenantId);
    const tile = page.getByRole('article', { name: 'Quiet sensor' });
    await tile.getByText(BLOCK_MESSAGES.noPacket).waitFor();

    // The same Block ID again: the server refuses it, the form says why.
    await page.getByRole('button', { name: 'Create' }).click();
    const panel = drawer(page);
    await panel.getByRole('textbox', { name: 'Block ID' }).fill(quiet);
    await panel.getByRole('textbox', { name: 'Name' }).fill('Second quiet sensor');
    await choose(panel, page, 'Type', 'Small Text');
    await choose(panel, page, 'Tenant', own.tenantName);
    await choose(panel, page, 'Subscription', own.subscriptionName);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText(BLOCK_MESSAGES.saveFailed).waitFor();
    await panel.getByText(BLOCK_MESSAGES.blockIdUnavailable).waitFor();
    await screenshot(page, 'block-create-taken');
  }, 60_000);

  test("a block that does not exist, or is another tenant's, shows 'This block does not exist.' without tabs", async () => {
    const own = await ownTenant();
    const page = await signedInPage(browser, 'admin', { width: 1440 });
    await blocksPage(page, own.tenantId, `?blockId=${randomUUID()}`);
    const panel = drawer(page);
    await panel.getByText('This block does not exist.').waitFor();
    expect(await panel.getByRole('tab').count()).toBe(0);
    await screenshot(page, 'block-missing-1440');
    await page.setViewportSize({ width: 375, height: 800 });
    await screenshot(page, 'block-missing-375');

    // Fabrikam's block, opened by operator (Contoso only) on Contoso's page.
    const fabrikams = randomUUID();
    const fabrikam = await tenantNamed(browser, 'admin', 'Fabrikam');
    const subscriptions = await api<ListResponse<{ subscriptionId: string }>>(
      admin,
      `/v1/subscriptions?$filter=tenantId eq ${fabrikam.tenantId}&$top=1`,
    );
    await api(admin, '/v1/blocks', {
      method: 'PUT',
      body: {
        blockId: fabrikams,
        subscriptionId: subscriptions.value[0]!.subscriptionId,
        name: uniqueName('Fabrikam boiler'),
        blockTypeId: 2,
      },
    });
    const contoso = await tenantNamed(browser, 'operator', 'Contoso');
    const other = await signedInPage(browser, 'operator');
    await blocksPage(other, contoso.tenantId, `?blockId=${fabrikams}`);
    await drawer(other).getByText('This block does not exist.').waitFor();
    expect(await drawer(other).getByRole('tab').count()).toBe(0);
  });

  test('the Packet page offers Details, Rule Matches, History, Logs and Timeline for the same entity', async () => {
    const own = await ownTenant();
    const entityId = randomUUID();
    await reportPackets(own.token, packetsOf(entityId));
    await db.query(
      `INSERT INTO entity_log (entity_id, tenant_id, detail) VALUES ($1, $2, 'Colour set to Green by rule Cooled down')`,
      [entityId, own.tenantId],
    );
    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${own.tenantId}/packets/${entityId}`);
    const tabs = page.getByRole('tab');
    await page.getByRole('tab', { name: 'Details', selected: true }).waitFor();
    expect(await tabs.allTextContents()).toEqual(['Details', 'Rule Matches', 'History', 'Logs', 'Timeline']);
    await expect.poll(() => page.getByTestId('packet-value').textContent()).toBe('129');

    await page.getByRole('tab', { name: 'History' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('history');
    await page.getByTestId('history-chart').locator('path.MuiLineChart-line').first().waitFor();
    const history = page.getByRole('table', { name: 'History' });
    await expect.poll(() => history.getByRole('row').count()).toBe(101);
    await screenshot(page, 'packet-history');
    await page.getByRole('button', { name: 'Go to next page' }).click();
    await expect.poll(() => history.getByRole('row').count()).toBe(31);

    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByText('Colour set to Green by rule Cooled down').waitFor();
    await page.getByRole('tab', { name: 'Rule Matches' }).click();
    await page.getByText(RULE_MESSAGES.noRuleMatches).waitFor();
  }, 60_000);
});
