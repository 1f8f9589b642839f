import type { Insertable } from 'kysely';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Tx } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { ownerPort } from '../../db/owner-port.js';

/**
 * How the protocols area writes a protocol's steps, which the protocol actions area owns
 * (db/table-owners.ts): a protocol moved to another tenant takes its steps along, and the demo
 * protocol is seeded with its steps. The protocol actions area provides it and the composition root
 * registers it (server/src/areas.ts), as the work units area's port is
 * (engines/work-units/system-writer.ts). Each runs in the caller's transaction; the caller records the audit.
 */
export interface ProtocolStepWriter {
  create(trx: Tx, scope: TenantScope, steps: readonly Insertable<DB['protocol_action']>[]): Promise<void>;
  /** The protocol's steps take its tenant (none: every tenant's). */
  moveToTenant(trx: Tx, protocolId: number, tenantId: string | null): Promise<void>;
}

const port = ownerPort<ProtocolStepWriter>('protocol step writer');
export const registerProtocolStepWriter = port.provide;
export const protocolStepWriter = port.get;
