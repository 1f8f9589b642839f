import { describe, expect, test } from 'vitest';
import { ACCESS_REQUEST_MESSAGES, ACCESS_REQUEST_MIN_FILL_MS } from '@cfs/contracts/access-request';
import { browser, choose, drawer, newContext, portalDatabase, screenshot, settled } from './support';

/** A visitor who cannot sign in sends an access request from the login page (spec 001 §2, §5, §7; I3ERequestForm is on in this portal). */

describe('access request', () => {
  test('a visitor sends a new account request; the service desk gets a Sev3 work unit', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const email = `visitor.${Date.now()}@example.mil`;
    await page.goto('/user/login');
    await page.getByRole('button', { name: 'Request Access or Reset Account' }).click();
    const panel = drawer(page);
    await settled(panel);
    await expect.poll(() => panel.getByRole('combobox', { name: 'Environment' }).textContent()).toContain('IL4 (CUI)');

    await panel.getByLabel('First Name').fill('Dana');
    await panel.getByLabel('Middle Initial').fill('QR');
    await panel.getByLabel('Last Name').fill('Visitor');
    await panel.getByLabel('Email').fill('not-an-email');
    await panel.getByLabel('Phone').fill('+1 555 010 2030');
    await panel.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => panel.getByText('Please enter a single character.').count()).toBe(1);
    await expect.poll(() => panel.getByText('Please enter a valid email address.').count()).toBe(1);
    await expect.poll(() => panel.getByText('Citizenship is required.').count()).toBe(1);

    await panel.getByLabel('Middle Initial').fill('Q');
    await panel.getByLabel('Email').fill(email);
    await panel.getByLabel('Citizenship').fill('United States');
    await choose(panel, page, 'Designation', 'Military');
    await panel.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(() => panel.getByText('Grade is required.').count()).toBe(1);
    await panel.getByLabel('Grade').fill('O-3');
    await panel.getByLabel('Organization').fill('Logistics');
    await panel.getByRole('checkbox', { name: /official use/ }).check();
    await panel.getByRole('checkbox', { name: /accurate/ }).check();
    // A person takes longer than the bot guard's minimum; this test is quicker than a person.
    await page.waitForTimeout(ACCESS_REQUEST_MIN_FILL_MS);
    await screenshot(page, 'access-request-filled');
    await panel.getByRole('button', { name: 'Submit' }).click();
    await page.getByText(ACCESS_REQUEST_MESSAGES.success).waitFor();
    await panel.waitFor({ state: 'hidden' });
    await screenshot(page, 'access-request-sent');

    const db = await portalDatabase();
    try {
      const { rows } = await db.query<{
        title: string;
        severity_id: number;
        stakeholder_full_name: string;
        hours: number;
      }>(
        `SELECT title, severity_id, stakeholder_full_name, EXTRACT(EPOCH FROM planned_finish_time - planned_start_time) / 3600 AS hours
           FROM work_unit WHERE stakeholder_email_address = $1`,
        [email],
      );
      expect(rows.map((row) => ({ ...row, hours: Number(row.hours) }))).toEqual([
        { title: 'IL4 (CUI) Account Request', severity_id: 3, stakeholder_full_name: 'Dana Q Visitor', hours: 48 },
      ]);
    } finally {
      await db.end();
    }
    await context.close();
  });
});
