import { useCallback, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CONTROL_STATUS_MESSAGES, controlStatusMessage, type ControlStatusValue } from '@cfs/contracts/compliance';
import { isReportedByClient } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import {
  cachedControl,
  createControlStatus,
  deleteControlStatus,
  patchControlStatus,
  setCachedStatus,
  statusOf,
  weekKey,
  type ControlRow,
} from './api';

export interface ControlStatusEditor {
  /** A choice on the toggle: a status, or null when the selected one was clicked again (deselect). */
  chooseStatus: (control: ControlRow, status: ControlStatusValue | null) => void;
  /** The notes field lost focus with this text. */
  saveNotes: (control: ControlRow, notes: string) => void;
  /** The control whose record waits for the user's Delete or Cancel. */
  deleting: ControlRow | null;
  confirmDelete: () => Promise<void>;
  cancelDelete: () => void;
}

/**
 * The control status transitions of spec 002 §4, each with its message of §8:
 * - choosing a status where no record exists creates one with empty notes; where one exists, updates it;
 * - deselecting the chosen status asks first (Delete or Cancel), then deletes the record;
 * - a note where no record exists creates one with status Notset; a changed note updates it.
 *
 * The writes of one control run one after another, each reading the record its predecessor left:
 * a click on the toggle right after typing a note first blurs the notes field, and the status must
 * then update the record the note has just created instead of creating a second one. A failed write
 * reloads the week, since someone else may have changed the record meanwhile (the patch's `test`).
 */
export function useControlStatusEditor(tenantId: string, controlSetId: string, checkDate: string): ControlStatusEditor {
  const queryClient = useQueryClient();
  const toast = useToast();
  const key = useMemo(() => weekKey(tenantId, controlSetId, checkDate), [tenantId, controlSetId, checkDate]);
  const queues = useRef(new Map<string, Promise<void>>());
  const [deleting, setDeleting] = useState<ControlRow | null>(null);

  const run = useCallback((controlId: string, write: () => Promise<void>): Promise<void> => {
    const previous = queues.current.get(controlId) ?? Promise.resolve();
    const next = previous.then(write, write);
    queues.current.set(controlId, next);
    void next.finally(() => {
      if (queues.current.get(controlId) === next) queues.current.delete(controlId);
    });
    return next;
  }, []);

  /** Runs one write and toasts its outcome; a failure reloads the week so the screen shows what the server holds. */
  const attempt = useCallback(
    async (write: () => Promise<void>, success: string, failure: string) => {
      try {
        await write();
        toast.success(success);
      } catch (error) {
        if (!isReportedByClient(error)) toast.error(failure);
        await queryClient.invalidateQueries({ queryKey: key });
      }
    },
    [key, queryClient, toast],
  );

  /**
   * Writes one field of a control's record for the week, after the control's earlier writes: a
   * new record (the other field at its default) where none exists, a patch of the field where it
   * differs, nothing where it is already so. An empty note on a control without a record creates nothing.
   */
  const writeField = useCallback(
    (
      control: ControlRow,
      field: 'status' | 'notes',
      value: string,
      created: { status: ControlStatusValue; notes: string },
    ) => {
      const kind = field === 'status' ? 'status' : 'note';
      void run(control.id, async () => {
        const record = statusOf(cachedControl(queryClient, key, control.id) ?? control);
        if (!record && field === 'notes' && value.trim() === '') return;
        if (record && record[field] === value) return;
        const action = record ? 'update' : 'create';
        await attempt(
          async () =>
            setCachedStatus(
              queryClient,
              key,
              control.id,
              record
                ? await patchControlStatus(record.id, [
                    { op: 'test', path: `/${field}`, value: record[field] },
                    { op: 'replace', path: `/${field}`, value },
                  ])
                : await createControlStatus({ checkDate, ...created, tenantId, controlId: control.id }),
            ),
          controlStatusMessage(action, kind, 'success'),
          controlStatusMessage(action, kind, 'failure'),
        );
      });
    },
    [attempt, checkDate, key, queryClient, run, tenantId],
  );

  const chooseStatus = useCallback(
    (control: ControlRow, status: ControlStatusValue | null) => {
      if (status === null) {
        if (statusOf(control)) setDeleting(control);
        return;
      }
      writeField(control, 'status', status, { status, notes: '' });
    },
    [writeField],
  );

  const saveNotes = useCallback(
    (control: ControlRow, notes: string) => writeField(control, 'notes', notes, { status: 'Notset', notes }),
    [writeField],
  );

  const confirmDelete = useCallback(async () => {
    const control = deleting;
    if (!control) return;
    await run(control.id, async () => {
      const record = statusOf(cachedControl(queryClient, key, control.id) ?? control);
      if (record) {
        await attempt(
          async () => {
            await deleteControlStatus(record.id);
            setCachedStatus(queryClient, key, control.id, null);
          },
          CONTROL_STATUS_MESSAGES.deleted,
          CONTROL_STATUS_MESSAGES.deleteFailed,
        );
      }
    });
    setDeleting(null);
  }, [attempt, deleting, key, queryClient, run]);

  const cancelDelete = useCallback(() => setDeleting(null), []);

  return { chooseStatus, saveNotes, deleting, confirmDelete, cancelDelete };
}
