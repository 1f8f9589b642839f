import { useQuery } from '@tanstack/react-query';
import type { ComplianceReportRow, VersionReportGroup, VersionReportGroupField } from '@cfs/contracts/version-report';
import { upToDatePercentage } from '@cfs/contracts/version-report';
import { apiGet } from '../../lib/api-client';
import type { JsonOf } from '../../lib/json-types';

/** The version report (spec 002 §2, §7 Version report). */
export const VERSION_REPORT_PATH = '/v1/compliancereport';

export type ReportRow = JsonOf<ComplianceReportRow>;

const applyAnswer = (filter: string | undefined, apply: string, signal: AbortSignal) =>
  apiGet<{ value: VersionReportGroup[] }>(
    VERSION_REPORT_PATH,
    { $apply: apply, ...(filter ? { $filter: filter } : {}) },
    { signal },
  ).then((answer) => answer.value);

const countOf = (groups: readonly VersionReportGroup[], match: (group: VersionReportGroup) => boolean) =>
  groups.find(match)?.count ?? 0;

export interface VersionSummary {
  devices: number;
  compliantDevices: number;
  devicesCurrent: number;
  devicesOutdated: number;
  packagesCurrent: number;
  packagesOutdated: number;
  /** Two decimals (spec 002 §9). */
  upToDate: string;
}

/**
 * The summary strip: the spec's distinct counts of devices and packages by version status and of
 * devices by compliance (a device with no Outdated package), for the rows the filter keeps.
 */
export function useVersionSummary(filter: string | undefined) {
  return useQuery({
    queryKey: ['versionreport', 'summary', filter ?? ''],
    queryFn: async ({ signal }): Promise<VersionSummary> => {
      const [devices, packages, compliance] = await Promise.all([
        applyAnswer(filter, 'groupby((versionStatus),aggregate(deviceId with countdistinct as count))', signal),
        applyAnswer(filter, 'groupby((versionStatus),aggregate(packageId with countdistinct as count))', signal),
        applyAnswer(filter, 'groupby((compliantDevice),aggregate(deviceId with countdistinct as count))', signal),
      ]);
      const compliantDevices = countOf(compliance, (group) => group.compliantDevice === true);
      const all = compliantDevices + countOf(compliance, (group) => group.compliantDevice === false);
      return {
        devices: all,
        compliantDevices,
        devicesCurrent: countOf(devices, (group) => group.versionStatus === 'Current'),
        devicesOutdated: countOf(devices, (group) => group.versionStatus === 'Outdated'),
        packagesCurrent: countOf(packages, (group) => group.versionStatus === 'Current'),
        packagesOutdated: countOf(packages, (group) => group.versionStatus === 'Outdated'),
        upToDate: upToDatePercentage(compliantDevices, all),
      };
    },
  });
}

/** A filter's choices: each value of the field once, from the report's group-by. */
export function useGroupValues(field: VersionReportGroupField, filter: string | undefined) {
  return useQuery({
    queryKey: ['versionreport', 'groupby', field, filter ?? ''],
    queryFn: async ({ signal }) =>
      (await applyAnswer(filter, `groupby((${field}))`, signal))
        .map((group) => String(group[field] ?? ''))
        .filter(Boolean),
  });
}
