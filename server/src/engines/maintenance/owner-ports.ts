import type { Insertable, Updateable } from 'kysely';
import type { Tx } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { ownerPort } from '../../db/owner-port.js';

/**
 * What the maintenance engine writes in tables other areas own (db/table-owners.ts): a change's
 * maintenance rule (the rules area) and the communication announcing it (the communications area).
 * The owners provide them and the composition root registers them (server/src/areas.ts), as the
 * work units area's port is registered (engines/work-units/system-writer.ts). Each runs in the
 * engine's transaction; the engine records the audit and notes.
 */
export interface MaintenanceRuleWriter {
  /** Deletes the change's rule; returns what it was. */
  remove(
    trx: Tx,
    changeWorkUnitId: number,
  ): Promise<{ rule_id: string; name: string; tenant_id: string | null } | undefined>;
  create(trx: Tx, rule: Insertable<DB['rule']>): Promise<string>;
  update(trx: Tx, ruleId: string, changes: Updateable<DB['rule']>): Promise<void>;
}

/** The announcement of a change's window: Investigating from the window's start, which is also its next update. */
export interface MaintenanceAnnouncement {
  tenantId: string;
  changeWorkUnitId: number;
  title: string;
  serviceManager: string;
  details: string;
  start: Date;
}

export interface MaintenanceCommunicationWriter {
  /** The change's draft announcement, unless it is Cancelled or Resolved already, becomes Cancelled. */
  cancel(trx: Tx, changeWorkUnitId: number, actor: string): Promise<void>;
  /**
   * Drafts the change's announcement once, linked to the change; until a person edits it (its
   * modifier is still `actor`, its status Investigating), a later draft updates its text and times.
   */
  draft(trx: Tx, draft: MaintenanceAnnouncement, actor: string): Promise<void>;
}

const rules = ownerPort<MaintenanceRuleWriter>('maintenance rule writer');
const communications = ownerPort<MaintenanceCommunicationWriter>('maintenance communication writer');

export function registerMaintenanceWriters(writers: {
  rules: MaintenanceRuleWriter;
  communications: MaintenanceCommunicationWriter;
}): void {
  rules.provide(writers.rules);
  communications.provide(writers.communications);
}

export const maintenanceRuleWriter = rules.get;
export const maintenanceCommunicationWriter = communications.get;
