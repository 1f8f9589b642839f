import type { Db, Tx } from '../../db/database.js';

/** Who a work unit written by the portal itself names as its author (no user: an id and a name saying what wrote it). */
export interface SystemActor {
  id: string;
  name: string;
}

/** A work unit the portal opens for a cause in one tenant, related to that cause. */
export interface SystemWorkUnit {
  tenantId: string;
  title: string;
  description: string;
  severityId: number;
  workUnitTypeId: number;
  relation: { referenceType: string; referenceId: string };
  actor: SystemActor;
}

/**
 * How an area that is not the work units area opens and resolves a work unit (the compliance
 * POA&M): through the work units area's own commands, so history, events and audit are written as
 * for any unit. The work units area provides it and the composition root registers it
 * (server/src/areas.ts), as the built-in actions are.
 */
export interface SystemWorkUnitWriter {
  /** Creates the unit; `inTransaction` runs in the transaction that writes it (the cause's own link row). */
  open(db: Db, unit: SystemWorkUnit, inTransaction: (trx: Tx, workUnitId: number) => Promise<void>): Promise<number>;
  /** Resolves the unit with a note; a unit already finished (resolved, closed, canceled) is left as it is. */
  resolve(db: Db, unit: { tenantId: string; workUnitId: number; note: string; actor: SystemActor }): Promise<void>;
}

let registered: SystemWorkUnitWriter | undefined;

export function registerSystemWorkUnitWriter(writer: SystemWorkUnitWriter): void {
  registered = writer;
}

export function systemWorkUnitWriter(): SystemWorkUnitWriter {
  if (!registered) throw new Error('No work unit writer is registered (server/src/areas.ts registers it).');
  return registered;
}
