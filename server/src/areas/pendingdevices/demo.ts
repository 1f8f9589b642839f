import { createHash, randomBytes } from 'node:crypto';
import { ALL_TENANTS } from '../../auth/tenant-scope.js';
import type { Tx } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { DEMO } from '../../db/demo-ids.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Demo pending devices of Contoso: agents that enrolled and wait for promotion; some stopped pinging days ago (inactive). */
export async function seedDemoPendingDevices(trx: Tx): Promise<void> {
  const now = Date.now();
  const machines = [
    {
      machine_name: 'CT-WKS-0142',
      operating_system: 'Windows 11 Pro',
      architecture: 'X64',
      ip_address: '10.20.1.42',
      pingAgoMs: 60_000,
    },
    {
      machine_name: 'CT-WKS-0187',
      operating_system: 'Windows 10 Enterprise',
      architecture: 'X64',
      ip_address: '10.20.1.87',
      pingAgoMs: 5 * 60_000,
    },
    {
      machine_name: 'ct-web-03',
      operating_system: 'Linux (Ubuntu 22.04)',
      architecture: 'X64',
      ip_address: '10.20.4.13',
      pingAgoMs: 2 * 60_000,
    },
    {
      machine_name: 'ct-db-02',
      operating_system: 'Linux (Debian 12)',
      architecture: 'Arm64',
      ip_address: '10.20.5.22',
      pingAgoMs: 30 * 60_000,
    },
    {
      machine_name: 'CT-MAC-DESIGN',
      operating_system: 'macOS 14 (darwin)',
      architecture: 'Arm64',
      ip_address: '10.20.2.9',
      pingAgoMs: 3 * DAY_MS,
    },
    {
      machine_name: 'CT-LAB-OLD',
      operating_system: 'Windows Server 2016',
      architecture: 'X64',
      ip_address: '10.20.9.200',
      pingAgoMs: 12 * DAY_MS,
    },
  ];
  await scoped(trx, ALL_TENANTS)
    .insertInto(
      'pending_device',
      machines.map(({ pingAgoMs, ...machine }) => ({
        ...machine,
        tenant_id: DEMO.contoso,
        // Demo agents have no key of their own: a random one that no agent holds.
        agent_key_hash: createHash('sha256').update(randomBytes(32)).digest('hex'),
        created: new Date(now - pingAgoMs - DAY_MS),
        last_ping: new Date(now - pingAgoMs),
      })),
    )
    .execute();
}
