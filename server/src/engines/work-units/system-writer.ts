import type { SystemActor } from '../../auth/system-principal.js';
import type { Db, Tx } from '../../db/database.js';
import { ownerPort } from '../../db/owner-port.js';

/** A work unit the portal opens for a cause in one tenant, related to that cause. */
export interface SystemWorkUnit {
  tenantId: string;
  title: string;
  description: string;
  severityId: number;
  workUnitTypeId: number;
  relation: { referenceType: string; referenceId: string };
  /** Where the unit came from and the cause's own key (the version policy: its name, the device and package). */
  source?: string;
  referenceId?: string;
  actor: SystemActor;
}

/** A record the portal writes in a unit's history (a protocol step's outcome, a maintenance window): no person's note. */
export interface SystemNote {
  tenantId: string;
  workUnitId: number;
  detail: string;
  historyType: number;
  /** Who the record names: the person who caused it, or the engine's name. */
  createdBy: string;
}

/**
 * How the portal itself opens and resolves a work unit (the compliance POA&M, the version policy)
 * and records history on one (protocols, maintenance windows): the one way for an engine or another
 * area to write work unit tables, through the work units area's own commands, so history, events
 * and audit are written as for any unit. The work units area provides it and the composition root registers it
 * (server/src/areas.ts), as the built-in actions are.
 */
export interface SystemWorkUnitWriter {
  /** Creates the unit; `inTransaction` runs in the transaction that writes it (the cause's own link row). */
  open(db: Db, unit: SystemWorkUnit, inTransaction: (trx: Tx, workUnitId: number) => Promise<void>): Promise<number>;
  /**
   * Resolves the unit with a note (written once: a second run finds it); a unit already finished
   * (resolved, closed, canceled) is left as it is.
   */
  resolve(db: Db, unit: { tenantId: string; workUnitId: number; note: string; actor: SystemActor }): Promise<void>;
  /** Writes a history record in the caller's transaction; nothing else on the unit changes. */
  recordNote(trx: Tx, note: SystemNote): Promise<void>;
  /**
   * Raises a work unit event that is no change of the unit (a service level's warning or breach),
   * with its history record, in the caller's transaction: protocols act on it as on any event.
   */
  recordEvent(trx: Tx, event: SystemNote & { eventTypeId: number }): Promise<void>;
  /** The tenant's units follow the protocol from now on, in the caller's transaction, with no history (the demo's). */
  followProtocol(
    trx: Tx,
    units: { tenantId: string; workUnitIds: readonly number[]; protocolId: number },
  ): Promise<void>;
}

const port = ownerPort<SystemWorkUnitWriter>('work unit writer');
export const registerSystemWorkUnitWriter = port.provide;
export const systemWorkUnitWriter = port.get;
