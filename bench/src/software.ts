import { sql } from 'kysely';
import type { Db } from '../../server/src/db/database.js';
import { DEMO } from '../../server/src/db/demo-ids.js';
import type { BenchPortal } from './bench-portal.js';
import { devicesPageMeasure, type RecordFigure } from './fleet.js';

/** The software each bench device reports: ten names, each at a version drawn by a seeded random. */
const NAMES = ['bash', 'curl', 'git', 'libc6', 'openssl', 'python3', 'systemd', 'tzdata', 'vim', 'zlib1g'];

/** A name one device in a hundred has: the search an operator makes for a rarer package. */
const RARE = 'nginx';

/**
 * The fleet's installed software: each of Contoso's bench devices (loadDevices) with the ten names
 * above, and one in a hundred with nginx too, at versions `M.m.p-r` (M 0–3, m and p 0–19, r 1–3),
 * as their agents' inventories leave it.
 */
export async function loadSoftware(db: Db): Promise<void> {
  await sql`SELECT setseed(0.39)`.execute(db);
  await sql`
    INSERT INTO device_software (device_id, tenant_id, name, version, publisher)
    SELECT d.device_id, d.tenant_id, n.name,
           floor(random() * 4)::int || '.' || floor(random() * 20)::int || '.' || floor(random() * 20)::int || '-' || (1 + floor(random() * 3)::int),
           'Debian'
    FROM device d CROSS JOIN unnest(${NAMES}::text[]) AS n(name)
    WHERE d.tenant_id = ${DEMO.contoso}::uuid AND d.name LIKE 'host-%'`.execute(db);
  await sql`
    INSERT INTO device_software (device_id, tenant_id, name, version, publisher)
    SELECT device_id, tenant_id, ${RARE}, '1.' || (18 + floor(random() * 10)::int) || '.0-1', 'Debian'
    FROM device WHERE tenant_id = ${DEMO.contoso}::uuid AND name LIKE 'host-%' AND random() < 0.01`.execute(db);
}

/**
 * The Software page at scale, as the operator asks it (one tenant, /{tenantId}/software): its first
 * page, "openssl below 3.0.13" (a name every device has) and "nginx below 1.25" (a name one in a
 * hundred has) as the search box and the version filter send them, and one name's rows by version,
 * newest first — each over HTTP against a page of the devices list, in turns.
 */
export async function softwareList(
  portal: BenchPortal,
  record: RecordFigure,
  options: { runs: number; devices: number },
): Promise<void> {
  const tenant = `tenantId eq ${DEMO.contoso}`;
  const path = (query: Record<string, string>) => `/v1/software?${new URLSearchParams(query).toString()}`;
  const rows = options.devices * (NAMES.length + 0.01);
  const measure = await devicesPageMeasure(portal, record, `software list at ${rows.toLocaleString('en-US')} rows`);
  await measure(
    'first page ($top=25, $count, by name and version)',
    path({ $top: '25', $count: 'true', $filter: tenant }),
    options.runs,
  );
  await measure(
    "openssl below 3.0.13 (contains(tolower(name),'openssl') and version lt '3.0.13')",
    path({
      $top: '25',
      $count: 'true',
      $filter: `${tenant} and contains(tolower(name),'openssl') and version lt '3.0.13'`,
    }),
    options.runs,
  );
  await measure(
    `a name one device in a hundred has, below a version (contains(tolower(name),'${RARE}') and version lt '1.25')`,
    path({
      $top: '25',
      $count: 'true',
      $filter: `${tenant} and contains(tolower(name),'${RARE}') and version lt '1.25'`,
    }),
    options.runs,
  );
  await measure(
    "one name by version, newest first (name eq 'openssl', version desc)",
    path({ $top: '25', $count: 'true', $filter: `${tenant} and name eq 'openssl'`, $orderby: 'version desc' }),
    options.runs,
  );
}
