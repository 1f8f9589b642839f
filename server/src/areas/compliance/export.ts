import { stringify } from 'csv-stringify/sync';
import { complianceExportFileName, complianceWeek, MAX_CONTROLS } from '@cfs/contracts/compliance';
import type { TenantScope } from '../../auth/tenant-scope.js';
import type { Db } from '../../db/database.js';
import { spreadsheetSafe } from '../../http/list-routes.js';
import { findControlSets } from './queries.js';

const COLUMNS = [
  'Control Set',
  'Family',
  'Control',
  'Title',
  'Status',
  'Notes',
  'Week Start',
  'Week End',
  'Modified',
  'Modified By',
];

/**
 * POST /v1/controlsets/Export() (spec 002 §7): the tenant's week as CSV, one line per control of
 * the set (or of every set the tenant uses), its status and notes, empty where none was recorded.
 * Every text cell is made spreadsheet-safe: a note starting with "=" stays text.
 */
export async function exportControlSets(
  db: Db,
  scope: TenantScope,
  input: { startDate: string; tenantId: string; controlSetId?: string | undefined },
): Promise<{ fileName: string; csv: string }> {
  const week = complianceWeek(input.startDate);
  const { value } = await findControlSets(db, scope, {
    checkDate: week.start,
    tenantId: input.tenantId,
    controlSetId: input.controlSetId,
  });
  const lines: string[][] = [];
  for (const set of value) {
    for (const control of set.controls) {
      const status = control.controlStatuses[0];
      lines.push(
        [
          set.name,
          control.family,
          control.name,
          control.title,
          status?.status ?? '',
          status?.notes ?? '',
          week.start,
          week.end,
          status ? status.modified.toISOString() : '',
          status?.modifiedBy ?? '',
        ].map(spreadsheetSafe),
      );
      if (lines.length >= MAX_CONTROLS) break;
    }
  }
  return { fileName: complianceExportFileName(week.start), csv: stringify([COLUMNS, ...lines]) };
}
