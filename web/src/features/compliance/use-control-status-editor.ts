import { useCallback, useMemo, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CONTROL_STATUS_MESSAGES, controlStatusMessage, type ControlStatusValue } from '@cfs/contracts/compliance';
import { isReportedByClient } from '../../lib/api-client';
import { useToast } from '../../lib/toast';
import { cachedControl, createControlStatus, deleteControlStatus, patchControlStatus, setCachedStatus, statusOf, weekKey, type ControlRow } from './api';

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

  const run = useCallback(
    (controlId: string, write: () => Promise<void>): Promise<void> => {
      const previous = queues.current.get(controlId) ?? Promise.resolve();
      const next = previous.then(write, write);
      queues.current.set(controlId, next);
      void next.finally(() => {
        if (queues.current.get(controlId) === next) queues.current.delete(controlId);
      });
      return next;
    },
    [],
  );

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

  const chooseStatus = useCallback(
    (control: ControlRow, status: ControlStatusValue | null) => {
      if (status === null) {
        if (statusOf(control)) setDeleting(control);
        return;
      }
      void run(control.id, async () => {
        const record = statusOf(cachedControl(queryClient, key, control.id) ?? control);
        if (!record) {
          await attempt(
            async () => setCachedStatus(queryClient, key, control.id, await createControlStatus({ checkDate, status, notes: '', tenantId, controlId: control.id })),
            controlStatusMessage('create', 'status', 'success'),
            controlStatusMessage('create', 'status', 'failure'),
          );
        } else if (record.status !== status) {
          await attempt(
            async () =>
              setCachedStatus(
                queryClient,
                key,
                control.id,
                await patchControlStatus(record.id, [
                  { op: 'test', path: '/status', value: record.status },
                  { op: 'replace', path: '/status', value: status },
                ]),
              ),
            controlStatusMessage('update', 'status', 'success'),
            controlStatusMessage('update', 'status', 'failure'),
          );
        }
      });
    },
    [attempt, checkDate, key, queryClient, run, tenantId],
  );

  const saveNotes = useCallback(
    (control: ControlRow, notes: string) => {
      void run(control.id, async () => {
        const record = statusOf(cachedControl(queryClient, key, control.id) ?? control);
        if (!record) {
          // An empty field that was only visited creates nothing.
          if (notes.trim() === '') return;
          await attempt(
            async () => setCachedStatus(queryClient, key, control.id, await createControlStatus({ checkDate, status: 'Notset', notes, tenantId, controlId: control.id })),
            controlStatusMessage('create', 'note', 'success'),
            controlStatusMessage('create', 'note', 'failure'),
          );
        } else if (record.notes !== notes) {
          await attempt(
            async () =>
              setCachedStatus(
                queryClient,
                key,
                control.id,
                await patchControlStatus(record.id, [
                  { op: 'test', path: '/notes', value: record.notes },
                  { op: 'replace', path: '/notes', value: notes },
                ]),
              ),
            controlStatusMessage('update', 'note', 'success'),
            controlStatusMessage('update', 'note', 'failure'),
          );
        }
      });
    },
    [attempt, checkDate, key, queryClient, run, tenantId],
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
