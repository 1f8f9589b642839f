import { sql } from 'kysely';
import {
  SERVICE_LEVEL_MESSAGES,
  SERVICE_LEVEL_REPORT_BREACHES,
  type Attainment,
  type ServiceLevelKind,
  type ServiceLevelReport,
} from '@cfs/contracts/service-levels';
import { stringify } from 'csv-stringify/sync';
import { SEVERITY_LABELS } from '@cfs/contracts/work-units';
import { formatInterval } from '@cfs/contracts/device-operations';
import type { Principal } from '../../auth/principal.js';
import type { Db } from '../../db/database.js';
import { scoped } from '../../db/scoped.js';
import { levelsFor } from '../../engines/servicelevels/definitions.js';
import { HttpError } from '../../http/errors.js';
import { spreadsheetSafe } from '../../http/list-routes.js';

/** How many of a set of clocks met and missed their targets. */
interface Tally {
  met: number;
  missed: number;
}

const attainment = ({ met, missed }: Tally): Attainment => ({
  decided: met + missed,
  met,
  missed,
  attainment: met + missed === 0 ? null : met / (met + missed),
});

const empty = (): Record<ServiceLevelKind, Tally> => ({
  response: { met: 0, missed: 0 },
  resolution: { met: 0, missed: 0 },
});

const byClock = (tallies: Record<ServiceLevelKind, Tally>) => ({
  response: attainment(tallies.response),
  resolution: attainment(tallies.resolution),
});

/** The instant a clock was decided: when it breached (missed), else when it stopped in time (met). */
const decided = sql<Date>`coalesce(t.breached, t.stopped)`;

/**
 * GET v1/servicelevels/reports/{tenantId}?month=YYYY-MM: the month of the tenant's calendar, each
 * clock counted in the month it was decided (a breach counts when it happens, however long the
 * unit then stays open; a met clock when it stops), per work unit type and severity (the unit's
 * type, the severity its clock was last targeted by), in total, per week (by Monday, local), and
 * the clocks missed, first breached first. Read through the decided-time index of migration 0046.
 */
export async function serviceLevelReport(
  db: Db,
  user: Principal,
  tenantId: string,
  month: string,
): Promise<ServiceLevelReport> {
  const tx = scoped(db, user.tenantScope);
  const tenant = await tx.selectFrom('tenant').select('name').where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!tenant) throw new HttpError(404, SERVICE_LEVEL_MESSAGES.notFound);
  const { calendar } = await levelsFor(db, tenantId);
  const zone = calendar.timeZone;
  const { rows: bounds } = await sql<{ from: Date; to: Date }>`
    SELECT (${`${month}-01`}::date::timestamp AT TIME ZONE ${zone}) AS "from",
           ((${`${month}-01`}::date + interval '1 month')::timestamp AT TIME ZONE ${zone}) AS "to"`.execute(db);
  const { from, to } = bounds[0]!;

  const inMonth = tx
    .selectFrom('service_level_timer as t')
    .innerJoin('work_unit as u', 'u.work_unit_id', 't.work_unit_id')
    .innerJoin('work_unit_type as y', 'y.work_unit_type_id', 'u.work_unit_type_id')
    .where('t.tenant_id', '=', tenantId)
    .where(decided, '>=', from)
    .where(decided, '<', to);
  const [groups, breaches] = await Promise.all([
    inMonth
      .select([
        'u.work_unit_type_id as typeId',
        'y.name as typeName',
        't.severity_id as severityId',
        't.kind as kind',
        sql<string>`to_char(date_trunc('week', ${decided} AT TIME ZONE ${zone}), 'YYYY-MM-DD')`.as('week'),
        sql<boolean>`t.breached IS NOT NULL`.as('missed'),
        sql<string>`count(*)`.as('count'),
      ])
      .groupBy(['u.work_unit_type_id', 'y.name', 't.severity_id', 't.kind', sql`5`, sql`6`])
      .execute(),
    inMonth
      .where('t.breached', 'is not', null)
      .select([
        'u.work_unit_id as workUnitId',
        'u.title as title',
        'u.work_unit_type_id as workUnitTypeId',
        't.severity_id as severityId',
        't.kind as kind',
        't.target_seconds as targetSeconds',
        't.breached as breached',
      ])
      .orderBy('t.breached')
      .orderBy('u.work_unit_id')
      .limit(SERVICE_LEVEL_REPORT_BREACHES + 1)
      .execute(),
  ]);

  const total = empty();
  const rows = new Map<
    string,
    { workUnitTypeId: number; workUnitTypeName: string; severityId: number; tallies: Record<ServiceLevelKind, Tally> }
  >();
  const weeks = new Map<string, Record<ServiceLevelKind, Tally>>();
  for (const week of mondaysOf(month)) weeks.set(week, empty());
  for (const group of groups) {
    const kind = group.kind as ServiceLevelKind;
    const count = Number(group.count);
    const key = `${group.typeId} ${group.severityId}`;
    let row = rows.get(key);
    if (!row)
      rows.set(
        key,
        (row = {
          workUnitTypeId: group.typeId,
          workUnitTypeName: group.typeName,
          severityId: group.severityId,
          tallies: empty(),
        }),
      );
    let week = weeks.get(group.week);
    if (!week) weeks.set(group.week, (week = empty()));
    for (const tally of [total[kind], row.tallies[kind], week[kind]]) {
      if (group.missed) tally.missed += count;
      else tally.met += count;
    }
  }
  return {
    tenantId,
    tenantName: tenant.name,
    month,
    timeZone: zone,
    from,
    to,
    total: byClock(total),
    rows: [...rows.values()]
      .sort((a, b) => a.workUnitTypeId - b.workUnitTypeId || a.severityId - b.severityId)
      .map(({ tallies, ...row }) => ({ ...row, ...byClock(tallies) })),
    weeks: [...weeks.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([week, tallies]) => ({ week, ...byClock(tallies) })),
    breaches: breaches.slice(0, SERVICE_LEVEL_REPORT_BREACHES).map((breach) => ({
      workUnitId: breach.workUnitId,
      title: breach.title,
      workUnitTypeId: breach.workUnitTypeId,
      severityId: breach.severityId,
      kind: breach.kind as ServiceLevelKind,
      target: formatInterval(breach.targetSeconds),
      breached: breach.breached!,
    })),
    breachesComplete: breaches.length <= SERVICE_LEVEL_REPORT_BREACHES,
  };
}

/** The Mondays of the weeks that have days in a month (`YYYY-MM`), as dates. */
export function mondaysOf(month: string): string[] {
  const [year = 0, monthNumber = 1] = month.split('-').map(Number);
  const first = new Date(Date.UTC(year, monthNumber - 1, 1));
  const monday = new Date(first);
  monday.setUTCDate(first.getUTCDate() - ((first.getUTCDay() + 6) % 7));
  const mondays: string[] = [];
  for (const day = monday; day.getUTCMonth() === monthNumber - 1 || day < first; day.setUTCDate(day.getUTCDate() + 7))
    mondays.push(day.toISOString().slice(0, 10));
  return mondays;
}

const percent = (value: number | null) => (value === null ? '' : `${(value * 100).toFixed(1)}%`);

/** The report's attainment as CSV: a row per work unit type, severity and clock, then the month's total per clock. */
export function serviceLevelReportCsv(report: ServiceLevelReport): { fileName: string; csv: string } {
  const header = ['Work Unit Type', 'Severity', 'Clock', 'Decided', 'Met', 'Missed', 'Attainment'];
  const line = (type: string, severity: string, kind: ServiceLevelKind, tally: Attainment) => [
    type,
    severity,
    kind === 'response' ? 'Response' : 'Resolution',
    String(tally.decided),
    String(tally.met),
    String(tally.missed),
    percent(tally.attainment),
  ];
  const lines = report.rows.flatMap((row) =>
    (['response', 'resolution'] as const).map((kind) =>
      line(
        spreadsheetSafe(row.workUnitTypeName),
        SEVERITY_LABELS[row.severityId] ?? String(row.severityId),
        kind,
        row[kind],
      ),
    ),
  );
  for (const kind of ['response', 'resolution'] as const) lines.push(line('All', 'All', kind, report.total[kind]));
  const name = report.tenantName.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'tenant';
  return { fileName: `service-levels-${name}-${report.month}.csv`, csv: stringify([header, ...lines]) };
}
