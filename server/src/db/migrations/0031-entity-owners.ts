import type { Kysely } from 'kysely';
import { runStatements } from '../migrate.js';

/**
 * The tenant that owns each entity id (spec 002 §3 Packet, Block): the one whose packets may be
 * stored for it. Until now only a latest packet recorded an owner, so a block or a device created
 * in one tenant did not count as owned, and another tenant's first packet for its id took it.
 * Creating a block, a device or a device operation now records its tenant here in the creating
 * transaction; a tenant's first packet for an id nobody owns records it too. The primary key is
 * what two tenants racing for one id meet on: the second waits for the first and finds it taken.
 *
 * The existing owners: a device's and a device operation's tenant (their ids are made by the
 * portal, so nobody reported them before they existed), then a block's tenant, then the tenant of
 * the latest packet. A block gives way to another tenant's packets only when that tenant's
 * history shows a packet received before the block was created (then it reported the entity
 * first, and a block made later must not take it over). Latest rows held by another tenant than
 * the owner are given back: to the owner's own newest packet when its history has one, else
 * removed until the owner reports again. The other tenant's history rows stay its own (it sees
 * nothing of the owner's); retention drops them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `CREATE TABLE entity_owner (
        entity_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES tenant (tenant_id),
        created timestamptz NOT NULL DEFAULT now()
    )`,
    `INSERT INTO entity_owner (entity_id, tenant_id)
      SELECT DISTINCT ON (entity_id) entity_id, tenant_id
      FROM (
        SELECT device_id AS entity_id, tenant_id, 1 AS rank FROM device
        UNION ALL SELECT device_operation_id, tenant_id, 2 FROM device_operation
        UNION ALL
        SELECT b.block_id, b.tenant_id, CASE WHEN EXISTS (
            SELECT 1 FROM packet p JOIN packet_latest l ON l.entity_id = p.entity_id AND l.tenant_id = p.tenant_id
            WHERE p.entity_id = b.block_id AND p.tenant_id <> b.tenant_id AND p.received < b.created
          ) THEN 5 ELSE 3 END
        FROM block b
        UNION ALL SELECT entity_id, tenant_id, 4 FROM packet_latest
      ) AS claims
      ORDER BY entity_id, rank`,
    `UPDATE packet_latest l
      SET tenant_id = o.tenant_id, timestamp = newest.timestamp, received = newest.received, message = newest.message
      FROM entity_owner o
      CROSS JOIN LATERAL (
        SELECT p.timestamp, p.received, p.message FROM packet p
        WHERE p.entity_id = o.entity_id AND p.tenant_id = o.tenant_id
        ORDER BY p.timestamp DESC, p.received DESC
        LIMIT 1
      ) AS newest
      WHERE o.entity_id = l.entity_id AND o.tenant_id <> l.tenant_id`,
    `DELETE FROM packet_latest l USING entity_owner o WHERE o.entity_id = l.entity_id AND o.tenant_id <> l.tenant_id`,
  ]);
}
