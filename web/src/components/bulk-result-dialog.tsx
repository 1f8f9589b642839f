import { useState } from 'react';
import type { GridRowId } from '@mui/x-data-grid';
import type { BulkResult } from '@cfs/contracts/api';
import { useToast } from '../lib/toast';
import { lazyWhenOpened } from './lazy-when-opened';
import type { RowSelection } from './row-selection';

export interface BulkOutcome {
  title: string;
  result: BulkResult<GridRowId>;
}

/** "3 work units changed." — the noun in the singular and plural, and what was done to them (changed, queued). */
export function changedText(count: number, noun: { one: string; many: string }, done = 'changed'): string {
  return `${count} ${count === 1 ? noun.one : noun.many} ${done}.`;
}

/**
 * What a bulk action tells the user: a success toast when every item changed; otherwise a dialog
 * listing the refused items with their reasons, which stay selected for another try.
 *
 * @example
 *   const outcome = useBulkOutcome(selection, { one: 'work unit', many: 'work units' });
 *   const result = await bulkState.mutateAsync({ workUnitIds, stateId });
 *   outcome.report('Change State', result);
 *   …
 *   <BulkResultDialog outcome={outcome} describe={(id) => `#${id}`} />
 */
export type BulkOutcomeApi = ReturnType<typeof useBulkOutcome>;

export function useBulkOutcome(selection: RowSelection, noun: { one: string; many: string }, done = 'changed') {
  const toast = useToast();
  const [shown, setShown] = useState<BulkOutcome | null>(null);
  return {
    shown,
    noun,
    done,
    dismiss: () => setShown(null),
    report: (title: string, result: BulkResult<GridRowId>) => {
      selection.set(result.refused.map((refusal) => refusal.id));
      if (result.refused.length === 0) toast.success(changedText(result.succeeded.length, noun, done));
      else setShown({ title, result });
    },
  };
}

export interface BulkResultDialogProps {
  outcome: BulkOutcomeApi;
  describe?: (id: GridRowId) => string;
}

/** The dialog listing a bulk action's refused items; its code loads when first needed. */
export const BulkResultDialog = lazyWhenOpened<BulkResultDialogProps>(
  () => import('./bulk-result-dialog-panel'),
  (props) => props.outcome.shown !== null,
);
