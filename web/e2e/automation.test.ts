import { describe, expect, test } from 'vitest';
import { ACTION_RESULT_STATUSES, BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import { WORK_UNIT_EVENT_TYPES, WORK_UNIT_STATES } from '@cfs/contracts/values/work-units';
import {
  actionEndpoint,
  api,
  browser,
  createActionDefinition,
  createProtocol,
  createProtocolAction,
  createWorkUnit,
  drawer,
  portalUrl,
  refreshAfterManualAction,
  screenshot,
  searchGrid,
  sessionOf,
  signedInPage,
  uniqueName,
  updateWorkUnit,
  type ListResponse,
} from './support';

/**
 * Automation from end to end: a protocol whose OnNew step sends an email by itself and whose
 * OnAcknowledged step calls an HTTP endpoint when someone runs it. Creating a unit puts the email
 * in the Outbox; acknowledging it makes the step wait in Pending Actions; running it with a
 * parameter calls the endpoint with the filled request; the history says Success and the unit's
 * Timeline tells the chain. An action aimed at a loopback address the allow-list does not name is
 * refused when it is saved.
 */
describe('automation (administrator)', () => {
  test('an automatic email on OnNew and a manual HTTP call on OnAcknowledged, from the outbox to the timeline', async () => {
    const session = await sessionOf(browser, 'admin');
    const endpoint = await actionEndpoint();
    const notify = await createActionDefinition(session, {
      name: uniqueName('E2E notify the NOC'),
      description: 'Tells the NOC about an acknowledged unit',
      inputParameters: 'Ticket',
      endpointUrl: `${endpoint.url}/noc/{WorkUnitId}`,
      body: '{"ticket":"{Ticket}","title":"{Title}"}',
    });
    const protocol = await createProtocol(session, { description: 'Email on creation, NOC on acknowledgement' });
    await createProtocolAction(session, {
      protocolId: protocol.protocolId,
      actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnNew,
      parameters: { Template: 'Detailed', IsImportant: 'true' },
      summary: 'Tell the stakeholder',
      runAutomatically: true,
    });
    const manualSummary = uniqueName('Notify the NOC');
    await createProtocolAction(session, {
      protocolId: protocol.protocolId,
      actionDefinitionId: notify.actionDefinitionId,
      workUnitEventTypeId: WORK_UNIT_EVENT_TYPES.OnAcknowledged,
      parameters: { Ticket: 'NOC-1' },
      summary: manualSummary,
      runAutomatically: false,
    });
    const title = uniqueName('Core router flapping');
    const unit = await createWorkUnit(session, {
      title,
      protocolId: protocol.protocolId,
      stakeHolderEmailAddress: 'pat@contoso.example',
    });

    // The OnNew step ran by itself: its email is in the Outbox.
    await expect
      .poll(
        async () =>
          (
            await api<ListResponse<{ subject: string }>>(
              session,
              `/v1/emailOutbox?$filter=workUnitId eq ${unit.workUnitId}`,
            )
          ).value.map((email) => email.subject),
        { timeout: 30_000, interval: 500 },
      )
      .toEqual([expect.stringContaining(title)]);
    const page = await signedInPage(browser, 'admin', { clock: true });
    await page.goto('/outbox');
    await page.getByRole('heading', { level: 1, name: 'Outbox' }).waitFor();
    await searchGrid(page, title);
    await page.getByRole('row').filter({ hasText: title }).getByText('pat@contoso.example').first().waitFor();
    await screenshot(page, 'automation-outbox');

    // Acknowledged: the OnAcknowledged step waits for a person.
    await updateWorkUnit(session, unit.workUnitId, { stateId: WORK_UNIT_STATES.Acknowledged });
    await page.goto(`/workunitsv2?workUnitId=${unit.workUnitId}`);
    const panel = drawer(page);
    await panel.getByRole('heading', { name: new RegExp(`^Edit Work Unit #${unit.workUnitId}`) }).waitFor();
    await panel.getByRole('tab', { name: /^Pending Actions/ }).click();
    const step = panel.getByRole('article', { name: manualSummary });
    await step.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: notify.name });
    await dialog.getByRole('textbox', { name: 'Ticket' }).fill('NOC-77');
    await dialog.getByRole('button', { name: 'Run', exact: true }).click();

    // The endpoint received the request with every placeholder filled.
    await expect
      .poll(() => endpoint.calls, { timeout: 20_000 })
      .toEqual([
        { method: 'POST', path: `/noc/${unit.workUnitId}`, body: JSON.stringify({ ticket: 'NOC-77', title }) },
      ]);
    await refreshAfterManualAction(page, session, unit.workUnitId, manualSummary, ACTION_RESULT_STATUSES.Success);
    await expect.poll(() => step.getByText(/Last run: Success/).count(), { timeout: 20_000 }).toBe(1);

    // The timeline: created, emailed, acknowledged, the NOC called — in that order.
    await panel.getByRole('tab', { name: 'Timeline' }).click();
    const timeline = panel.getByRole('list', { name: 'Timeline' });
    await timeline.getByText(`${notify.name}: Success`).waitFor();
    const kinds = await timeline
      .locator('[data-testid="timeline-entry"]')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    const at = (kind: string) => kinds.indexOf(kind);
    expect(at('workUnit')).toBeGreaterThanOrEqual(0);
    expect(at('email')).toBeGreaterThan(at('workUnit'));
    expect(at('stateChange')).toBeGreaterThan(at('email'));
    expect(kinds.lastIndexOf('protocolAction')).toBeGreaterThan(at('stateChange'));
    await timeline.getByText(`POST ${endpoint.url}/noc/${unit.workUnitId}`).first().waitFor();
    await screenshot(page, 'automation-timeline');

    // The same action aimed at a loopback address the allow-list does not name is refused when saved.
    const refused = await fetch(new URL('/v1/actionDefinitions', portalUrl()), {
      method: 'PUT',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: uniqueName('E2E loopback'),
        actionDefinitionTypeId: 4,
        endpointUrl: `${endpoint.url.replace('127.0.0.1', '127.0.0.2')}/noc`,
      }),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('not allowed');
  });
});
