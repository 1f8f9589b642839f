import type { Insertable, Selectable, Updateable } from 'kysely';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { ownerPort } from '../../db/owner-port.js';

/**
 * What the agent protocol, the pending devices' approval and the demo agent write in the fleet's
 * tables, which other areas own (db/table-owners.ts): devices and their installations, device
 * operations, pending devices, the agent package's operations and enrolment tokens. The owners
 * provide them and the composition root registers them (server/src/areas.ts), as the work units
 * area's port is registered (engines/work-units/system-writer.ts). Each runs in the caller's
 * transaction and tenant scope; the caller records the audit.
 */
export interface DeviceWriter {
  /** Devices made from enrolments (a promotion, the demo agent): each one's id and key hash. */
  create(
    trx: Tx,
    scope: TenantScope,
    devices: readonly Insertable<DB['device']>[],
  ): Promise<{ device_id: string; agent_key_hash: string | null }[]>;
  /** What the agent tells of itself at enrolment (its new credential, machine, address, version). */
  update(trx: Tx, scope: TenantScope, deviceId: string, changes: Updateable<DB['device']>): Promise<void>;
  /** Clears the device's restart flag; whether it was set. */
  clearRestartFlag(trx: Tx, scope: TenantScope, deviceId: string): Promise<boolean>;
  /** Marks that the device was heard from; what its configuration reads of it, or undefined when it is gone. */
  recordContact(
    db: Db,
    scope: TenantScope,
    deviceId: string,
    at: Date,
  ): Promise<
    | Pick<
        Selectable<DB['device']>,
        | 'device_id'
        | 'name'
        | 'heartbeat_interval'
        | 'device_logging_level_id'
        | 'trace_expiration'
        | 'restart_agent_flag'
        | 'agent_version'
      >
    | undefined
  >;
  /** The device's installation of a package as the agent tells it (the agent's own version): made or replaced. */
  recordInstallation(trx: Tx, scope: TenantScope, installation: Insertable<DB['device_installation']>): Promise<void>;
  /** The outcome the agent reports of installing or removing a package. */
  reportInstallation(
    trx: Tx,
    scope: TenantScope,
    installation: { deviceId: string; packageId: string },
    changes: Updateable<DB['device_installation']>,
  ): Promise<void>;
}

export interface DeviceOperationWriter {
  /** The device's operations (the demo agent's): their ids, in order. */
  create(trx: Tx, scope: TenantScope, operations: readonly Insertable<DB['device_operation']>[]): Promise<string[]>;
  /** A queued OnDemand operation has run: complete, its completion token spent. */
  complete(trx: Tx, scope: TenantScope, deviceOperationId: string): Promise<void>;
}

export interface PendingDeviceWriter {
  /**
   * The agent's enrolment: the pending device is created, or its details and last ping refreshed
   * when the key is already pending with the same tenant. Undefined when another tenant has it.
   */
  enrol(
    trx: Tx,
    scope: TenantScope,
    pending: Insertable<DB['pending_device']>,
  ): Promise<{ pending_device_id: string; created: Date } | undefined>;
}

export interface AgentPackageWriter {
  /** The tenantless agent package's operation of that name (the demo agent's), made if it is missing. */
  catalogueOperation(trx: Tx, name: 'Metric' | 'Availability'): Promise<string>;
}

export interface TokenGrantWriter {
  /** An enrolment token's grant (the demo agent's); its id. */
  create(trx: Tx, scope: TenantScope, grant: Insertable<DB['token_grant']>): Promise<string>;
}

export interface FleetWriters {
  devices: DeviceWriter;
  deviceOperations: DeviceOperationWriter;
  pendingDevices: PendingDeviceWriter;
  packages: AgentPackageWriter;
  tokens: TokenGrantWriter;
}

const port = ownerPort<FleetWriters>('fleet writer');
export const registerFleetWriters = port.provide;
export const fleetWriters = port.get;
