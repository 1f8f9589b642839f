import { describe, expect, test } from 'vitest';
import { EMAIL_TEMPLATES } from '@cfs/contracts/automation';
import { type ProtocolAction } from '@cfs/contracts/protocols';
import type { JsonOf } from '../src/lib/json-types';
import {
  api,
  browser,
  choose,
  drawer,
  gridRow,
  homeTenantId,
  screenshot,
  searchGrid,
  sessionOf,
  settled,
  signedInPage,
  uniqueName,
  type ListResponse,
} from './support';

/**
 * Work Unit Protocols in the browser (spec 002 §2 Protocols): the grid, the protocol drawer with
 * its Assigned Rules tab, the Protocol Actions drawer and its Create/Edit Protocol Action drawer.
 */
describe('protocols (operator)', () => {
  test('creates a protocol, adds a protocol action, edits and deletes it, and deletes the protocol', async () => {
    const session = await sessionOf(browser, 'operator');
    const tenantId = homeTenantId(session);
    const page = await signedInPage(browser, 'operator');
    await page.goto(`/${tenantId}/protocols`);
    await page.getByRole('heading', { level: 1, name: 'Work Unit Protocols' }).waitFor();
    for (const header of ['Name', 'ID', 'Description', 'Tenant'])
      await page.getByRole('columnheader', { name: header }).first().waitFor();

    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('protocolId') === 'new');
    const panel = drawer(page);
    await panel.getByRole('heading', { name: 'Create Protocol' }).waitFor();
    await panel.getByRole('textbox', { name: 'Name' }).focus();
    await panel.getByRole('textbox', { name: 'Description' }).focus();
    await panel.getByRole('button', { name: 'Save & Close' }).click();
    await panel.getByText('Name is required').waitFor();
    const name = uniqueName('E2E Escalation');
    await panel.getByRole('textbox', { name: 'Name' }).fill(name);
    await panel.getByRole('textbox', { name: 'Description' }).fill('Page the on-call engineer');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => /^\d+$/.test(url.searchParams.get('protocolId') ?? ''));
    await panel.getByRole('heading', { name: `Edit Protocol: ${name}` }).waitFor();
    const protocolId = Number(new URL(page.url()).searchParams.get('protocolId'));
    await panel.getByRole('tab', { name: /Assigned Rules/ }).click();
    await panel.getByText('No rules create work units with this protocol.').waitFor();
    await screenshot(page, 'protocols-assigned-rules');
    await panel.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('protocolId'));

    await searchGrid(page, name);
    const row = gridRow(page, name);
    expect(await row.textContent()).toContain('Page the on-call engineer');
    await screenshot(page, 'protocols-grid');
    await row.getByRole('button', { name: 'View Protocol Actions' }).click();
    const steps = drawer(page);
    await steps.getByRole('heading', { name: `Protocol Actions: ${name}` }).waitFor();
    await steps.getByText('This protocol has no actions yet.').waitFor();
    await steps.getByRole('button', { name: 'Create Protocol Action' }).click();
    const editor = drawer(page).last();
    await editor.getByRole('heading', { name: 'Create Protocol Action' }).waitFor();
    await editor.getByRole('textbox', { name: 'Summary' }).focus();
    await editor.getByRole('spinbutton', { name: 'Sequence' }).focus();
    await editor.getByRole('button', { name: 'Save & Close' }).click();
    await editor.getByText('Please choose a work unit event.').waitFor();
    await choose(editor, page, 'Work Unit Event', 'OnNew');
    await choose(editor, page, 'Action', 'Send Email');
    // Only the chosen action's own parameters are offered (spec 002 §4); Template and IsImportant
    // offer the values Send Email takes, not a text box to guess them in.
    await editor.getByRole('combobox', { name: 'Template' }).click();
    const templates = page.getByRole('listbox');
    await settled(templates);
    expect(await templates.getByRole('option').allTextContents()).toEqual(['Simple (default)', ...EMAIL_TEMPLATES]);
    await templates.getByRole('option', { name: 'Simple', exact: true }).click();
    await templates.waitFor({ state: 'hidden' });
    await editor.getByRole('combobox', { name: 'Important' }).click();
    expect(await page.getByRole('listbox').getByRole('option').allTextContents()).toEqual([
      'false (default)',
      'true',
      'false',
    ]);
    await page.getByRole('listbox').getByRole('option', { name: 'true', exact: true }).click();
    await page.getByRole('listbox').waitFor({ state: 'hidden' });
    await editor.getByRole('textbox', { name: 'Extra Parameters' }).fill('{"Subject": "{Title}"}');
    // The placeholders a protocol step's run fills, as the runner fills them.
    const placeholders = editor.getByRole('region', { name: 'Placeholders' });
    expect(await placeholders.getByTestId('placeholders-protocol').textContent()).toContain('{WorkUnitId} {Title}');
    await editor.getByRole('textbox', { name: 'Summary' }).fill('Tell the owner');
    await screenshot(page, 'protocols-action-create');
    await editor.getByRole('button', { name: 'Save & Close' }).click();
    await page.waitForURL((url) => !url.searchParams.has('protocolActionId'));
    const table = steps.getByRole('table', { name: 'Protocol actions' });
    await table.getByRole('row').filter({ hasText: 'Tell the owner' }).waitFor();
    expect(await table.getByRole('row').filter({ hasText: 'Tell the owner' }).textContent()).toContain('Send Email');
    await screenshot(page, 'protocols-actions');

    await table.getByRole('button', { name: 'Edit Send Email' }).click();
    const edit = drawer(page).last();
    await edit.getByRole('heading', { name: 'Edit Protocol Action' }).waitFor();
    await edit.getByRole('textbox', { name: 'Summary' }).fill('Tell the owner at once');
    await edit.getByRole('button', { name: 'Save & Close' }).click();
    await table.getByRole('row').filter({ hasText: 'Tell the owner at once' }).waitFor();
    const stored = await api<ListResponse<JsonOf<ProtocolAction>>>(
      session,
      `/v1/protocolActions?$filter=protocolId eq ${protocolId}`,
    );
    expect(stored.value.map((step) => [step.summary, step.parameters])).toEqual([
      [
        'Tell the owner at once',
        { Template: 'Simple', IsImportant: 'true', ExtraParameters: '{"Subject": "{Title}"}' },
      ],
    ]);

    await table.getByRole('button', { name: 'Delete Send Email' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await steps.getByText('This protocol has no actions yet.').waitFor();
    await steps.getByRole('button', { name: 'Close', exact: true }).click();
    await page.waitForURL((url) => !url.searchParams.has('protocolActionsId'));

    await gridRow(page, name).getByRole('button', { name: 'Delete Protocol' }).click();
    await page
      .getByRole('dialog')
      .getByText(`Are you sure you want to delete the protocol "${name}"?`, { exact: false })
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes' }).click();
    await expect.poll(async () => gridRow(page, name).count(), { timeout: 10_000 }).toBe(0);
  });
});
