import { useState } from 'react';
import { workUnitNoteInputSchema } from '@cfs/contracts/work-units';
import { TEXT_MAX } from '@cfs/contracts/values/work-units';
import { useReportUnsavedChanges } from '../../components/side-drawer';
import { usePermissions } from '../../auth/session-data';
import { useAddNote, useCallMe, useHistoryRecords } from './api';
import { noteLengthLevel } from './work-unit-display';

export type NotesView = 'all' | 'external';

/**
 * The notes area of the panel (spec 001 §2, §7, §8): the history (all records, or the external
 * notes only), a new note with the external flag and its 4000-character bar, and Call Me —
 * which the spec gives to end users (their own requests), not to staff.
 */
export function useWorkUnitNotes(workUnitId: number) {
  const [view, setView] = useState<NotesView>('all');
  const [detail, setDetail] = useState('');
  const [isExternalNote, setExternalNote] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const records = useHistoryRecords(workUnitId, view === 'external');
  // The note box empties as soon as the server has the note, not after the history is fetched
  // again: by then the user may be typing the next note.
  const addNote = useAddNote(workUnitId, () => {
    setDetail('');
    setExternalNote(false);
  });
  const callMe = useCallMe(workUnitId);
  const permissions = usePermissions();
  const offersCallMe = permissions.hasViewMine() && !permissions.has('WorkUnits', 'view');
  // A note being written is an unsaved change of the panel.
  useReportUnsavedChanges(detail.trim() !== '');

  const submit = () => {
    const parsed = workUnitNoteInputSchema.safeParse({ workUnitId, detail, isExternalNote });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? null);
      return;
    }
    setError(null);
    addNote.mutate({ detail: parsed.data.detail, isExternalNote: parsed.data.isExternalNote });
  };

  return {
    view,
    setView,
    records: records.data ?? [],
    loading: records.isPending,
    detail,
    setDetail: (text: string) => {
      setDetail(text);
      setError(null);
    },
    isExternalNote,
    setExternalNote,
    error,
    length: noteLengthLevel(detail.length, TEXT_MAX),
    submit,
    saving: addNote.isPending,
    offersCallMe,
    callMe: () => callMe.mutate(),
    calling: callMe.isPending,
  };
}
