import { describe, expect, test } from 'vitest';
import { ACTION_RESULT_LABELS } from '@cfs/contracts/action-histories';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { ManualAction } from './automation-api';
import {
  awaitingCount,
  initialParameterValues,
  isSendEmail,
  lastRunText,
  manualActionButtons,
  needsParameters,
  triggerBody,
} from './manual-actions';

const action = (fields: Partial<ManualAction> = {}): ManualAction => ({
  protocolActionId: '0b8f1b6a-5c59-4c55-9a7b-5b6d8d3a0001',
  protocolId: 4,
  workUnitEventTypeId: 2,
  summary: 'Page the on-call engineer',
  repeatable: false,
  parameters: {},
  actionDefinition: {
    actionDefinitionId: '0b8f1b6a-5c59-4c55-9a7b-5b6d8d3a0002',
    name: 'Page',
    description: null,
    inputParameters: null,
  },
  lastRun: null,
  ...fields,
});
const ran = { resultStatusId: 1, actionProcessed: '2026-11-23T02:00:00.000Z', rejected: false };

describe('manual action buttons', () => {
  test('an action with no history can be run or rejected', () => {
    expect(manualActionButtons(action(), false)).toEqual({ run: true, reject: true });
  });

  test('with history the buttons are disabled unless the action is repeatable', () => {
    expect(manualActionButtons(action({ lastRun: ran }), false)).toEqual({ run: false, reject: false });
    expect(manualActionButtons(action({ lastRun: ran, repeatable: true }), false)).toEqual({ run: true, reject: true });
  });

  test('every button is disabled while another action runs', () => {
    expect(manualActionButtons(action({ repeatable: true }), true)).toEqual({ run: false, reject: false });
  });

  test('the banner and badge count the actions not run nor rejected yet', () => {
    expect(awaitingCount([action(), action({ lastRun: ran }), action({ lastRun: { ...ran, rejected: true } })])).toBe(
      1,
    );
    expect(awaitingCount(undefined)).toBe(0);
  });
});

describe('parameter dialog', () => {
  test('opens for actions with input parameters, prefilled from the step', () => {
    const withParameters = action({
      parameters: { Recipient: 'ops@contoso.com', Unused: 'x' },
      actionDefinition: { ...action().actionDefinition, inputParameters: 'Recipient, Note' },
    });
    expect(needsParameters(withParameters)).toBe(true);
    expect(needsParameters(action())).toBe(false);
    expect(initialParameterValues(withParameters)).toEqual({ Recipient: 'ops@contoso.com', Note: '' });
  });

  test('previews the email only for the built-in Send Email', () => {
    expect(
      isSendEmail(
        action({
          actionDefinition: { ...action().actionDefinition, actionDefinitionId: BUILT_IN_ACTIONS.sendEmail.id },
        }),
      ),
    ).toBe(true);
    expect(isSendEmail(action())).toBe(false);
  });
});

describe('trigger', () => {
  test("sends the step's event, the user's values and whether it is a reject", () => {
    expect(triggerBody(action(), { Note: 'now' }, false)).toEqual({
      workUnitEventType: 2,
      userDefinedParams: { Note: 'now' },
      reject: false,
    });
    expect(triggerBody(action(), {}, true).reject).toBe(true);
  });

  test('the last run reads Rejected or its result', () => {
    expect(lastRunText(action(), ACTION_RESULT_LABELS)).toBeNull();
    expect(lastRunText(action({ lastRun: ran }), ACTION_RESULT_LABELS)).toBe('Success');
    expect(lastRunText(action({ lastRun: { ...ran, rejected: true } }), ACTION_RESULT_LABELS)).toBe('Rejected');
  });
});
