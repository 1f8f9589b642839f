import { type TriggerInput } from '@cfs/contracts/automation';
import { parameterNames } from '@cfs/contracts/action-definitions';
import { BUILT_IN_ACTIONS } from '@cfs/contracts/monitoring';
import type { ManualAction } from './automation-api';

/** Not run nor rejected on this unit yet: what the banner and the badge count. */
export const isAwaiting = (action: ManualAction): boolean => action.lastRun === null;

export const awaitingCount = (actions: readonly ManualAction[] | undefined): number =>
  (actions ?? []).filter(isAwaiting).length;

/**
 * Spec 001 §2: an action with no history can be run or rejected; with history its buttons are
 * disabled unless it is repeatable, when Run replays it. Nothing while another action runs.
 */
export function manualActionButtons(action: ManualAction, busy: boolean): { run: boolean; reject: boolean } {
  const open = !busy && (isAwaiting(action) || action.repeatable);
  return { run: open, reject: open };
}

/** Actions with input parameters open the parameter dialog instead of the yes/no question. */
export const needsParameters = (action: ManualAction): boolean =>
  parameterNames(action.actionDefinition.inputParameters).length > 0;

/** The built-in Send Email shows the email it would send (POST /v1/emailtemplates/render). */
export const isSendEmail = (action: ManualAction): boolean =>
  action.actionDefinition.actionDefinitionId === BUILT_IN_ACTIONS.sendEmail.id;

/** The dialog's fields: one per input parameter, prefilled from the step's own parameters. */
export function initialParameterValues(action: ManualAction): Record<string, string> {
  return Object.fromEntries(
    parameterNames(action.actionDefinition.inputParameters).map((name) => [name, action.parameters[name] ?? '']),
  );
}

/** The trigger's body (spec 001 §7): the step's event, the values the user gave, reject or run. */
export function triggerBody(
  action: ManualAction,
  userDefinedParams: Record<string, string>,
  reject: boolean,
): TriggerInput {
  return { workUnitEventType: action.workUnitEventTypeId, userDefinedParams, reject };
}

/** How the step's last run reads: "Rejected", or its result. */
export function lastRunText(action: ManualAction, resultLabels: Readonly<Record<number, string>>): string | null {
  if (!action.lastRun) return null;
  return action.lastRun.rejected
    ? 'Rejected'
    : (resultLabels[action.lastRun.resultStatusId] ?? String(action.lastRun.resultStatusId));
}
