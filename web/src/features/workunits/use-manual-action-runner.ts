import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { AUTOMATION_MESSAGES } from '@cfs/contracts/automation';
import { POST_ACTION_REFRESH_MS } from '@cfs/contracts/constants';
import { isReportedByClient } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { useTriggerManualAction, type ManualAction } from './automation-api';
import { triggerBody } from './manual-actions';

export interface ManualActionRequest {
  action: ManualAction;
  reject: boolean;
}

/**
 * Runs or rejects a unit's manual actions (spec 001 §2 Pending Actions): one at a time, the
 * failure in the spec's words, and 5 s later the unit, its notes and its manual actions read again.
 */
export function useManualActionRunner(workUnitId: number) {
  const trigger = useTriggerManualAction(workUnitId);
  const queryClient = useQueryClient();
  const toast = useToast();
  const [asking, setAsking] = useState<ManualActionRequest | null>(null);
  const refresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(refresh.current), []);

  const send = async (action: ManualAction, userDefinedParams: Record<string, string>, reject: boolean) => {
    try {
      await trigger.mutateAsync({ action, body: triggerBody(action, userDefinedParams, reject) });
    } catch (error) {
      if (!isReportedByClient(error)) toast.error(AUTOMATION_MESSAGES.triggerFailed(action.actionDefinition.name));
      return;
    } finally {
      setAsking(null);
    }
    toast.success(
      reject ? `"${action.actionDefinition.name}" rejected.` : `"${action.actionDefinition.name}" triggered.`,
    );
    clearTimeout(refresh.current);
    // The unit, its history records and both lists of manual actions live under ['workunit', id].
    refresh.current = setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: ['workunit', workUnitId] }),
      POST_ACTION_REFRESH_MS,
    );
  };

  return {
    /** A run or reject is on its way: every button waits. */
    busy: trigger.isPending,
    asking,
    ask: (action: ManualAction, reject: boolean) => setAsking({ action, reject }),
    cancel: () => setAsking(null),
    send,
  };
}
