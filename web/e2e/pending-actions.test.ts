import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { ACTION_RESULT_STATUSES } from '@cfs/contracts/monitoring';
import { WORK_UNIT_EVENT_TYPES } from '@cfs/contracts/values/work-units';
import {
  actionEndpoint,
  browser,
  createActionDefinition,
  createProtocol,
  createProtocolAction,
  createWorkUnit,
  drawer,
  refreshAfterManualAction,
  screenshot,
  sessionOf,
  settled,
  signedInPage,
  uniqueName,
} from './support';

/**
 * Manual protocol actions in the work unit panel (spec 001 §2 Work unit panel, Pending Actions
 * tab, §3 Manual action, §7, §8): the banner, the Pending Actions badge, Run with a parameter
 * dialog, Reject with the spec's question, both lists read again 5 s later, and the Protocols tab.
 * The 5 s pass on the page's clock, once the server holds the outcome.
 */
describe('pending actions (operator)', () => {
  const tab = (panel: Locator, name: RegExp | string) => panel.getByRole('tab', { name });
  const card = (panel: Locator, summary: string) => panel.getByRole('article', { name: summary });

  async function openUnit(page: Page, workUnitId: number): Promise<Locator> {
    await page.goto(`/workunitsv2?workUnitId=${workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #${workUnitId}`) }).waitFor();
    return panel;
  }

  test('runs a manual action with a parameter and rejects another; the banner and badge go once nothing awaits', async () => {
    const session = await sessionOf(browser, 'operator');
    const endpoint = await actionEndpoint();
    const page_ = await createActionDefinition(session, {
      name: uniqueName('E2E page on-call'),
      description: 'Pages whoever is on call',
      inputParameters: 'OnCallNote',
      endpointUrl: `${endpoint.url}/page`,
      body: '{"note":"{OnCallNote}"}',
    });
    const escalate = await createActionDefinition(session, {
      name: uniqueName('E2E escalate'),
      endpointUrl: `${endpoint.url}/escalate`,
    });
    const protocol = await createProtocol(session, { description: 'What the service desk does for a printer' });
    const runSummary = uniqueName('Page the on-call engineer');
    const rejectSummary = uniqueName('Escalate to the vendor');
    await createProtocolAction(session, {
      protocolId: protocol.protocolId,
      actionDefinitionId: page_.actionDefinitionId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
      summary: runSummary,
      parameters: { OnCallNote: 'Printer down' },
      sequence: 1,
    });
    await createProtocolAction(session, {
      protocolId: protocol.protocolId,
      actionDefinitionId: escalate.actionDefinitionId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
      summary: rejectSummary,
      sequence: 2,
    });
    const unit = await createWorkUnit(session, { protocolId: protocol.protocolId });

    const page = await signedInPage(browser, 'operator', { clock: true });
    const panel = await openUnit(page, unit.workUnitId);
    for (const name of ['Work Unit', 'Protocols', /^Pending Actions/, 'Properties', /^Related/])
      await tab(panel, name).waitFor();
    await panel.getByText(AUTOMATION_MESSAGES.pendingBanner).waitFor();
    expect(await tab(panel, /^Pending Actions/).textContent()).toBe('Pending Actions2');
    // The protocol picker shows the unit's protocol.
    expect(await panel.getByRole('combobox', { name: 'Protocol' }).textContent()).toBe(protocol.name);
    await screenshot(page, 'pending-actions-banner');

    // Protocols: the protocol and every manual action of it.
    await tab(panel, 'Protocols').click();
    // The tab's heading: the Work Unit tab, hidden but still in the page, names the protocol too.
    await panel.getByRole('heading', { name: protocol.name, exact: true }).waitFor();
    await panel.getByText('What the service desk does for a printer').waitFor();
    await card(panel, runSummary).waitFor();
    await card(panel, rejectSummary).waitFor();

    await tab(panel, /^Pending Actions/).click();
    const toRun = card(panel, runSummary);
    await toRun.getByText('Pages whoever is on call', { exact: false }).waitFor();
    await screenshot(page, 'pending-actions-tab');

    // Run: an action with input parameters asks for them, prefilled from the step, named in words.
    await toRun.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: page_.name });
    const note = dialog.getByRole('textbox', { name: 'On Call Note' });
    expect(await note.inputValue()).toBe('Printer down');
    await note.fill('Printer on fire');
    await screenshot(page, 'pending-actions-parameters');
    const [triggered] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes('/trigger')),
      dialog.getByRole('button', { name: 'Run', exact: true }).click(),
    ]);
    expect(triggered.status()).toBe(202);
    await expect
      .poll(() => endpoint.calls.map((call) => `${call.path} ${call.body}`), { timeout: 15_000 })
      .toEqual(['/page {"note":"Printer on fire"}']);
    // 5 s later the lists are read again: the step has run and is not repeatable.
    await refreshAfterManualAction(page, session, unit.workUnitId, runSummary, ACTION_RESULT_STATUSES.Success);
    await expect
      .poll(() => toRun.getByText('Last run: Success', { exact: false }).count(), { timeout: 15_000 })
      .toBe(1);
    expect(await toRun.getByRole('button', { name: 'Run', exact: true }).isDisabled()).toBe(true);
    expect(await tab(panel, /^Pending Actions/).textContent()).toBe('Pending Actions1');

    // Reject: the yes/no question in the spec's words.
    const toReject = card(panel, rejectSummary);
    await toReject.getByRole('button', { name: 'Reject', exact: true }).click();
    const question = page.getByRole('dialog').filter({ hasText: AUTOMATION_MESSAGES.rejectConfirm(escalate.name) });
    await question.getByRole('button', { name: 'Yes' }).click();
    await refreshAfterManualAction(page, session, unit.workUnitId, rejectSummary, ACTION_RESULT_STATUSES.Suppressed);
    await expect.poll(() => toReject.getByText(/Last run: Rejected/).count(), { timeout: 15_000 }).toBe(1);
    expect(await toReject.getByRole('button', { name: 'Reject', exact: true }).isDisabled()).toBe(true);
    expect(endpoint.calls).toHaveLength(1);
    await settled(panel);
    await screenshot(page, 'pending-actions-done');

    await tab(panel, 'Work Unit').click();
    expect(await panel.getByText(AUTOMATION_MESSAGES.pendingBanner).count()).toBe(0);
    expect(await tab(panel, /^Pending Actions/).textContent()).toBe('Pending Actions');
  });

  test('a unit without a protocol has no banner and says so on both tabs', async () => {
    const session = await sessionOf(browser, 'operator');
    const unit = await createWorkUnit(session);
    const page = await signedInPage(browser, 'operator');
    const panel = await openUnit(page, unit.workUnitId);
    await tab(panel, /^Pending Actions/).click();
    await panel.getByText(AUTOMATION_MESSAGES.noPendingActions).waitFor();
    await tab(panel, 'Protocols').click();
    await panel.getByText(AUTOMATION_MESSAGES.noManualActions).waitFor();
    expect(await panel.getByText(AUTOMATION_MESSAGES.pendingBanner).count()).toBe(0);
  });
});
