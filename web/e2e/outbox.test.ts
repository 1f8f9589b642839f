import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import {
  api,
  browser,
  createTenant,
  createWorkUnit,
  drawer,
  gridRow,
  portalDatabase,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  uniqueName,
  type ListResponse,
  type Session,
} from './support';

/**
 * The Outbox as an administrator meets it: an email kept because the portal runs without
 * SMTP_URL, found in the grid by search, and its drawer with the recipients and the body in a
 * sandboxed frame; an operator (no Settings permission) is not offered the screen.
 */
describe('the Outbox (administrator)', () => {
  let admin: Session;

  beforeAll(async () => {
    admin = await sessionOf(browser, 'admin');
  }, 60_000);

  test('an email the worker kept for a Send Email step is listed, found by search and shown in its drawer', async () => {
    const internal = `noc-${randomUUID().slice(0, 8)}@outbox.example`;
    const tenant = await createTenant(admin, {
      name: uniqueName('Outbox E2E'),
      internalNotificationEmailAddress: internal,
    });
    const unit = await createWorkUnit(admin, { tenantId: tenant.tenantId, title: uniqueName('Pump 7 pressure') });
    // A protocol step that sends an email, run as the protocol engine would run it: a job for the
    // portal's worker ('actions.run'). No route in this build enqueues protocol steps yet, so the
    // step and its job are written here; the rest is the portal's own: the worker runs the Send
    // Email built-in, which keeps the email in the outbox (the portal runs without SMTP_URL).
    const db = await portalDatabase();
    let preview: { to: string; cc: string; subject: string; body: string };
    try {
      const protocol = await db.query<{ protocol_id: number }>(
        'INSERT INTO protocol (tenant_id, name) VALUES ($1, $2) RETURNING protocol_id',
        [tenant.tenantId, uniqueName('Outbox protocol')],
      );
      const parameters = {
        Template: 'Detailed',
        IsImportant: 'true',
        ExtraParameters: JSON.stringify({ Cc: 'shift-lead@outbox.example', Site: '<b>North</b> plant' }),
      };
      const step = await db.query<{ protocol_action_id: string }>(
        'INSERT INTO protocol_action (protocol_id, tenant_id, action_definition_id, work_unit_event_type_id, parameters, summary) VALUES ($1, $2, $3, 1, $4, $5) RETURNING protocol_action_id',
        [
          protocol.rows[0]!.protocol_id,
          tenant.tenantId,
          BUILT_IN_ACTIONS.sendEmail.id,
          JSON.stringify(parameters),
          'Tell the shift lead',
        ],
      );
      const protocolActionId = step.rows[0]!.protocol_action_id;
      // The Pending Actions dialog's preview of the same email.
      preview = await api(admin, '/v1/emailtemplates/render', {
        method: 'POST',
        body: { workUnitId: unit.workUnitId, protocolActionId, userDefinedParams: '{}' },
      });
      expect(preview).toMatchObject({
        to: internal,
        cc: 'shift-lead@outbox.example',
        subject: `[Important] Work unit #${unit.workUnitId}: ${unit.title}`,
      });
      const run = {
        actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
        tenantId: tenant.tenantId,
        parameters,
        origin: {
          kind: 'protocol',
          workUnitId: unit.workUnitId,
          protocolId: protocol.rows[0]!.protocol_id,
          protocolActionId,
          workUnitEventTypeId: 1,
          manual: true,
          triggeredBy: 'admin',
          workUnitEventId: null,
        },
      };
      await db.query("INSERT INTO job (task, key, payload, max_attempts) VALUES ('actions.run', $1, $2, 5)", [
        `e2e:${randomUUID()}`,
        JSON.stringify(run),
      ]);
    } finally {
      await db.end();
    }
    await expect
      .poll(
        async () =>
          (
            await api<ListResponse<{ subject: string; body: string }>>(
              admin,
              `/v1/emailOutbox?$filter=tenantId eq ${tenant.tenantId}`,
            )
          ).value,
        { timeout: 30_000 },
      )
      .toEqual([expect.objectContaining({ subject: preview.subject, body: preview.body })]);
    const subject = `[Important] Work unit #${unit.workUnitId}: ${unit.title}`;

    const page = await signedInPage(browser, 'admin');
    await page.goto(`/${tenant.tenantId}/outbox`);
    await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
    for (const header of ['Created', 'Subject', 'To', 'Template', 'Tenant', 'Status'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();
    await searchGrid(page, unit.title);
    const row = gridRow(page, subject);
    await row.waitFor();
    expect(await row.textContent()).toContain(internal);
    expect(await row.textContent()).toContain('Kept in outbox');
    await screenshot(page, 'outbox-grid');

    await row.getByText(subject).click();
    await page.waitForURL((url) => /^\d+$/.test(url.searchParams.get('emailId') ?? ''));
    const panel = drawer(page);
    await panel.getByRole('heading', { name: subject }).waitFor();
    const details = await panel.textContent();
    expect(details).toContain(internal);
    expect(details).toContain('shift-lead@outbox.example');
    expect(details).toContain('Outbox (no SMTP server configured)');
    const frame = panel.locator('iframe[title="Email body"]');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const body = page.frameLocator('iframe[title="Email body"]');
    await body.getByRole('heading', { name: unit.title }).waitFor();
    await body.getByText('Tell the shift lead').waitFor();
    // The value is shown as text, never as markup.
    await body.getByText('<b>North</b> plant').waitFor();
    expect(await body.locator('b').count()).toBe(0);
    await screenshot(page, 'outbox-email-drawer');

    // The operator holds no Settings permission: no Outbox in the menu.
    const operatorPage = await signedInPage(browser, 'operator');
    await operatorPage.goto('/');
    await operatorPage.getByRole('navigation').first().waitFor();
    expect(await operatorPage.getByRole('link', { name: 'Outbox' }).count()).toBe(0);
  }, 90_000);
});
