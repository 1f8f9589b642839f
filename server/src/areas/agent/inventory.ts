import type { AgentInventory } from '@cfs/contracts/agent';
import type { DeviceInventory } from '@cfs/contracts/devices';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db, Tx } from '../../db/database.js';
import { visibleDevice } from '../../db/device-presence.js';
import { scoped } from '../../db/scoped.js';
import { orNotFound } from '../../http/errors.js';
import type { DeviceCaller } from './commands.js';

/** Rows a statement writes at a time (five columns each, well within a statement's parameters). */
const CHUNK = 2000;

type Change = {
  item: 'software' | 'os' | 'hardware';
  name: string;
  change: 'added' | 'removed' | 'changed';
  from_value: string | null;
  to_value: string | null;
};

const osText = (os: AgentInventory['os']) => [os.name, os.version, os.build].filter(Boolean).join(' ');
const hardwareText = (hardware: AgentInventory['hardware']) =>
  [
    `${hardware.cpuModel}, ${hardware.cores} cores, ${hardware.memoryBytes} bytes of memory`,
    ...hardware.disks.map((disk) => `${disk.name} ${disk.sizeBytes} bytes`),
  ].join(', ');

/**
 * What a report changes against the device's last one: software by name against `software` (the
 * stored rows, none before the first report), and the operating system and the hardware against
 * `before` (none before the first report).
 */
function inventoryChanges(
  before: { os: AgentInventory['os']; hardware: AgentInventory['hardware'] } | undefined,
  software: ReadonlyMap<string, string>,
  report: AgentInventory,
): Change[] {
  const changes: Change[] = [];
  if (before && osText(before.os) !== osText(report.os))
    changes.push({
      item: 'os',
      name: report.os.name,
      change: 'changed',
      from_value: osText(before.os),
      to_value: osText(report.os),
    });
  if (before && hardwareText(before.hardware) !== hardwareText(report.hardware))
    changes.push({
      item: 'hardware',
      name: 'Hardware',
      change: 'changed',
      from_value: hardwareText(before.hardware),
      to_value: hardwareText(report.hardware),
    });
  const now = new Set<string>();
  for (const item of report.software) {
    now.add(item.name);
    const version = software.get(item.name);
    if (version === undefined)
      changes.push({ item: 'software', name: item.name, change: 'added', from_value: null, to_value: item.version });
    else if (version !== item.version)
      changes.push({
        item: 'software',
        name: item.name,
        change: 'changed',
        from_value: version,
        to_value: item.version,
      });
  }
  for (const [name, version] of software)
    if (!now.has(name))
      changes.push({ item: 'software', name, change: 'removed', from_value: version, to_value: null });
  return changes;
}

/**
 * POST /v1/agent/inventory: the device's inventory as its agent reports it, in one transaction:
 * the latest hardware and operating system, the software list brought to the report (rows added,
 * changed and removed, none rewritten that stayed), and, from the second report on, a history row
 * for each change. The
 * device's inventory row is locked first, so two reports of one device apply one after the other.
 */
export async function recordInventory(
  db: Db,
  device: DeviceCaller,
  report: AgentInventory,
): Promise<{ changes: number }> {
  const now = new Date();
  return db.transaction().execute(async (trx) => {
    const tx = scoped(trx, device.scope);
    const previous = await tx
      .selectFrom('device_inventory')
      .select(['hardware', 'os'])
      .where('device_id', '=', device.deviceId)
      .forUpdate()
      .executeTakeFirst();
    const software = new Map(
      (
        await tx
          .selectFrom('device_software')
          .select(['name', 'version'])
          .where('device_id', '=', device.deviceId)
          .execute()
      ).map((row) => [row.name, row.version]),
    );
    const changes = inventoryChanges(
      previous && {
        os: previous.os as AgentInventory['os'],
        hardware: previous.hardware as AgentInventory['hardware'],
      },
      software,
      report,
    );
    // The first report is where the history starts: its packages are not each an "added" change.
    const history = previous ? changes : [];
    await tx
      .insertInto('device_inventory', {
        device_id: device.deviceId,
        tenant_id: device.tenantId,
        hardware: JSON.stringify(report.hardware),
        os: JSON.stringify(report.os),
        software_count: report.software.length,
        reported: now,
        changed: now,
      })
      .onConflict((oc) =>
        oc.column('device_id').doUpdateSet((eb) => ({
          hardware: eb.ref('excluded.hardware'),
          os: eb.ref('excluded.os'),
          software_count: eb.ref('excluded.software_count'),
          reported: eb.ref('excluded.reported'),
          ...(history.length > 0 ? { changed: eb.ref('excluded.changed') } : {}),
        })),
      )
      .execute();
    await writeSoftware(trx, device, report, changes);
    for (let start = 0; start < history.length; start += CHUNK)
      await tx
        .insertInto(
          'device_inventory_change',
          history.slice(start, start + CHUNK).map((change) => ({
            ...change,
            device_id: device.deviceId,
            tenant_id: device.tenantId,
            at: now,
          })),
        )
        .execute();
    return { changes: history.length };
  });
}

/** The software rows a report's changes touch: those removed go, those added or at another version are written. */
async function writeSoftware(trx: Tx, device: DeviceCaller, report: AgentInventory, changes: readonly Change[]) {
  const tx = scoped(trx, device.scope);
  const removed = changes.filter((change) => change.item === 'software' && change.change === 'removed');
  for (let start = 0; start < removed.length; start += CHUNK)
    await tx
      .deleteFrom('device_software')
      .where('device_id', '=', device.deviceId)
      .where(
        'name',
        'in',
        removed.slice(start, start + CHUNK).map((change) => change.name),
      )
      .execute();
  const written = new Set(
    changes.filter((change) => change.item === 'software' && change.change !== 'removed').map((change) => change.name),
  );
  const rows = report.software
    .filter((item) => written.has(item.name))
    .map((item) => ({
      device_id: device.deviceId,
      tenant_id: device.tenantId,
      name: item.name,
      version: item.version,
      publisher: item.publisher,
    }));
  for (let start = 0; start < rows.length; start += CHUNK)
    await tx
      .insertInto('device_software', rows.slice(start, start + CHUNK))
      .onConflict((oc) =>
        oc.columns(['device_id', 'name']).doUpdateSet((eb) => ({
          version: eb.ref('excluded.version'),
          publisher: eb.ref('excluded.publisher'),
        })),
      )
      .execute();
}

/** How many of a device's latest inventory changes its Inventory answer carries. */
const RECENT_CHANGES = 200;

/** GET /v1/devices/{id}/inventory: the device's latest inventory, its software by name, and its latest changes. */
export async function findInventory(db: Db, scope: TenantScope, deviceId: string): Promise<DeviceInventory> {
  orNotFound(await visibleDevice(db, scope, deviceId), 'The device');
  const tx = scoped(db, scope);
  const [inventory, software, changes] = await Promise.all([
    tx
      .selectFrom('device_inventory')
      .select(['hardware', 'os', 'reported', 'changed'])
      .where('device_id', '=', deviceId)
      .executeTakeFirst(),
    tx
      .selectFrom('device_software')
      .select(['name', 'version', 'publisher'])
      .where('device_id', '=', deviceId)
      .orderBy('name')
      .execute(),
    tx
      .selectFrom('device_inventory_change')
      .select(['at', 'item', 'name', 'change', 'from_value', 'to_value'])
      .where('device_id', '=', deviceId)
      .orderBy('at', 'desc')
      .orderBy('device_inventory_change_id', 'desc')
      .limit(RECENT_CHANGES)
      .execute(),
  ]);
  if (!inventory) return { reported: null, changed: null, hardware: null, os: null, software: [], changes: [] };
  return {
    reported: inventory.reported,
    changed: inventory.changed,
    hardware: inventory.hardware as AgentInventory['hardware'],
    os: inventory.os as AgentInventory['os'],
    software,
    changes: changes.map((row) => ({
      at: row.at,
      item: row.item as DeviceInventory['changes'][number]['item'],
      name: row.name,
      change: row.change as DeviceInventory['changes'][number]['change'],
      from: row.from_value,
      to: row.to_value,
    })),
  };
}
