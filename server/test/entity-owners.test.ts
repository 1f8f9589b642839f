import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { up as recordEntityOwners } from '../src/db/migrations/0031-entity-owners.js';
import { DEMO } from '../src/db/demo-ids.js';
import { insertPackageWithOperation } from './fleet-factories.js';
import { ownDatabase, runMigration } from './test-database.js';

/*
 * Migration 0031 on a database as the release before it left it: owners were only latest packets,
 * so another tenant's first packet could take a block's or a device's id.
 */
const own = ownDatabase(2, (db) => sql`DROP TABLE entity_owner`.execute(db));

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);

async function block(blockId: string, tenantId: string, subscriptionId: string, created: Date) {
  await sql`INSERT INTO block (block_id, tenant_id, subscription_id, name, block_type_id, created) VALUES (${blockId}, ${tenantId}, ${subscriptionId}, 'Tile', 1, ${created})`.execute(
    own.db,
  );
}

async function reported(entityId: string, tenantId: string, received: Date, value: number, latest: boolean) {
  await sql`INSERT INTO packet (entity_id, tenant_id, timestamp, content_hash, received, message)
    VALUES (${entityId}, ${tenantId}, ${received}, decode(md5(${String(value)}), 'hex'), ${received}, ${JSON.stringify({ Value: value })})`.execute(
    own.db,
  );
  if (latest) {
    await sql`INSERT INTO packet_latest (entity_id, tenant_id, timestamp, received, message) VALUES (${entityId}, ${tenantId}, ${received}, ${received}, ${JSON.stringify({ Value: value })})
      ON CONFLICT (entity_id) DO UPDATE SET tenant_id = excluded.tenant_id, timestamp = excluded.timestamp, message = excluded.message`.execute(
      own.db,
    );
  }
}

describe('recording the owners of existing entities', () => {
  it("gives each block, device and device operation to its tenant, hands back a latest packet another tenant took, and keeps an entity reported before another tenant's block", async () => {
    // Fabrikam's block, reported by Fabrikam, then taken by Contoso's packet.
    const taken = randomUUID();
    await block(taken, DEMO.fabrikam, DEMO.fabrikamProduction, hoursAgo(3));
    await reported(taken, DEMO.fabrikam, hoursAgo(2), 7, false);
    await reported(taken, DEMO.contoso, hoursAgo(1), 666, true);
    // Fabrikam's block that never had a packet of its own before Contoso's.
    const quiet = randomUUID();
    await block(quiet, DEMO.fabrikam, DEMO.fabrikamProduction, hoursAgo(3));
    await reported(quiet, DEMO.contoso, hoursAgo(1), 666, true);
    // Fabrikam's device, whose latest row Contoso holds.
    const device = (
      await sql<{
        device_id: string;
      }>`INSERT INTO device (tenant_id, subscription_id, name) VALUES (${DEMO.fabrikam}, ${DEMO.fabrikamProduction}, 'plant') RETURNING device_id`.execute(
        own.db,
      )
    ).rows[0]!.device_id;
    await reported(device, DEMO.contoso, hoursAgo(1), 666, true);
    const { operationId } = await insertPackageWithOperation({ db: own.db }, null);
    const operation = (
      await sql<{
        device_operation_id: string;
      }>`INSERT INTO device_operation (tenant_id, device_id, operation_id, label, frequency_type_id)
        VALUES (${DEMO.fabrikam}, ${device}, ${operationId}, 'CPU', 2) RETURNING device_operation_id`.execute(own.db)
    ).rows[0]!.device_operation_id;
    await reported(operation, DEMO.contoso, hoursAgo(1), 666, true);
    // Contoso's entity, reported long before Fabrikam made a block of its id.
    const earlier = randomUUID();
    await reported(earlier, DEMO.contoso, hoursAgo(5), 1, true);
    await block(earlier, DEMO.fabrikam, DEMO.fabrikamProduction, hoursAgo(4));
    // An entity only Contoso reported.
    const plain = randomUUID();
    await reported(plain, DEMO.contoso, hoursAgo(1), 2, true);

    // Contoso's block that nothing ever reported.
    const unreported = randomUUID();
    await block(unreported, DEMO.contoso, DEMO.contosoProduction, hoursAgo(2));

    // The migration itself, run on that data (later migrations have run on the copy already).
    await runMigration(own.url, recordEntityOwners);

    const ids = [taken, quiet, device, operation, earlier, plain, unreported];
    const owners = await sql<{
      entity_id: string;
      tenant_id: string;
    }>`SELECT entity_id, tenant_id FROM entity_owner WHERE entity_id = ANY(${ids}::uuid[])`.execute(own.db);
    expect(Object.fromEntries(owners.rows.map((row) => [row.entity_id, row.tenant_id]))).toEqual({
      [taken]: DEMO.fabrikam,
      [quiet]: DEMO.fabrikam,
      [device]: DEMO.fabrikam,
      [operation]: DEMO.fabrikam,
      [earlier]: DEMO.contoso,
      [plain]: DEMO.contoso,
      [unreported]: DEMO.contoso,
    });
    const latest = await sql<{ entity_id: string; tenant_id: string; value: number }>`
      SELECT entity_id, tenant_id, (message ->> 'Value')::int AS value FROM packet_latest WHERE entity_id = ANY(${ids}::uuid[])`.execute(
      own.db,
    );
    expect(Object.fromEntries(latest.rows.map((row) => [row.entity_id, [row.tenant_id, row.value]]))).toEqual({
      [taken]: [DEMO.fabrikam, 7],
      [earlier]: [DEMO.contoso, 1],
      [plain]: [DEMO.contoso, 2],
    });
  });
});
